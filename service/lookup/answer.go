package lookup

import (
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// Answer is the lookup answer. Field names are the API's.
type Answer struct {
	// Found is false when no animal carries the chip or tag.
	Found bool `json:"found"`
	// Alerts lists, most urgent first, what the person holding the
	// animal must know at once: dangerous-animal handling, quarantine,
	// an expired licence or rabies vaccination, a tag reported stolen.
	Alerts []string `json:"alerts"`
	// AlertDetails are the alerts with their codes, severities and the
	// sections they come from, in the same order.
	AlertDetails []AlertDetail `json:"alert_details"`
	// NextStep says what to do when the chip or tag is unknown here.
	NextStep string `json:"next_step,omitempty"`
	// Jurisdiction is the profile whose rules computed the statuses.
	Jurisdiction string `json:"jurisdiction,omitempty"`

	Chip *Chip `json:"chip"`
	// Tag is the tag that was looked up (tag lookups only).
	Tag *Tag `json:"tag,omitempty"`

	Animal *Animal `json:"animal"`
	// Owner is absent for the public role and for an animal with no
	// known owner.
	Owner *Owner `json:"owner,omitempty"`

	// Dangerous is null, or the designation with its handling
	// restrictions.
	Dangerous *Dangerous `json:"dangerous"`
	// Quarantine is null, or the active quarantine.
	Quarantine *Quarantine `json:"quarantine"`
	// Quarantines are the record's quarantines not released (the one in
	// force, and one ordered to start later), each with the bite that
	// started it.
	Quarantines []Quarantine `json:"quarantines"`

	Licence *Licence `json:"licence"`
	Rabies  *Rabies  `json:"rabies"`

	// Impounds are the impoundments of the last twelve months, newest
	// first.
	Impounds []Impound `json:"impounds"`
	// Redemption is what reclaiming the animal would cost today, when it
	// is impounded now; null otherwise.
	Redemption *Redemption `json:"redemption"`
	// HoldUntil is the last day of the redemption hold of the current
	// impoundment (Minn. Stat. 346.47 subd. 2), empty when not held.
	HoldUntil service.Date `json:"hold_until,omitzero"`
	// Deadlines are the open deadlines, soonest first.
	Deadlines []Deadline `json:"deadlines"`
	// Notes are the officers' field notes on the animal, newest first
	// (an answer by the animal's id: its record).
	Notes []service.AnimalNote `json:"notes,omitempty"`
	// Permits and Agreement: the animal's permits (an off-leash permit,
	// 64.55) and open sterilisation agreement (64.140); permits.go.
	Permits   []Permit   `json:"permits"`
	Agreement *Agreement `json:"sterilisation_agreement"`

	// AsOf is the day the statuses were computed for, in the
	// jurisdiction's zone.
	AsOf service.Date `json:"as_of,omitzero"`
}

// Chip is the chip that was looked up or that the animal carries.
type Chip struct {
	Code         string      `json:"code"`
	Kind         chipid.Kind `json:"kind"`
	Manufacturer string      `json:"manufacturer,omitempty"`
	Country      string      `json:"country,omitempty"`
	// Display is the code as a person reads it (ISO: "982 000001088420").
	Display string `json:"display,omitempty"`
}

// Tag is a licence tag as looked up.
type Tag struct {
	Number       int    `json:"number"`
	Jurisdiction string `json:"jurisdiction"`
	Year         int    `json:"year"`
	// Status is the stored state of the tag's licence (active, revoked,
	// replaced), when the tag was issued here.
	Status  string       `json:"status,omitempty"`
	Expires service.Date `json:"expires,omitzero"`
}

// AlertDetail is one alert with its code, severity (danger, warning,
// info) and the section it comes from.
type AlertDetail struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Section  string `json:"section,omitempty"`
}

// Animal is the public view of an animal.
type Animal struct {
	ID          int64           `json:"id"`
	Name        string          `json:"name,omitempty"`
	Species     service.Species `json:"species"`
	Breed       string          `json:"breed,omitempty"`
	Colour      string          `json:"colour,omitempty"`
	Sex         service.Sex     `json:"sex,omitempty"`
	Altered     bool            `json:"altered"`
	BirthDate   service.Date    `json:"birth_date,omitzero"`
	Description string          `json:"description,omitempty"`
	Photo       string          `json:"photo,omitempty"`
	Chips       []string        `json:"chips"`
	DiedOn      service.Date    `json:"died_on,omitzero"`
}

// Owner is the owner's contact.
type Owner struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Address  string `json:"address,omitempty"`
	City     string `json:"city,omitempty"`
	State    string `json:"state,omitempty"`
	Postcode string `json:"postcode,omitempty"`
	Phone    string `json:"phone,omitempty"`
	Email    string `json:"email,omitempty"`
}

// Licence is the licence that matters for the answer: the one a tag
// lookup found, else the animal's newest.
type Licence struct {
	ID           int64  `json:"id,omitempty"`
	Jurisdiction string `json:"jurisdiction,omitempty"`
	Year         int    `json:"year,omitempty"`
	TagNumber    int    `json:"tag_number,omitempty"`
	// Status is the rules' licence state: current, expired, none,
	// not-required or not-licensed.
	Status   string       `json:"status"`
	Required bool         `json:"required"`
	Issued   service.Date `json:"issued,omitzero"`
	Expires  service.Date `json:"expires,omitzero"`
	FeeCents int64        `json:"fee_cents,omitempty"`
	Kind     string       `json:"kind,omitempty"`
}

// Rabies is the rabies vaccination status.
type Rabies struct {
	// Status is the rules' rabies state: current, expired, none,
	// undetermined or not-required.
	Status      string       `json:"status"`
	Required    bool         `json:"required"`
	Vaccinated  service.Date `json:"vaccinated,omitzero"`
	Expires     service.Date `json:"expires,omitzero"`
	Certificate string       `json:"certificate,omitempty"`
	RabiesTag   string       `json:"rabies_tag,omitempty"`
}

// Dangerous is a dangerous or potentially dangerous designation.
type Dangerous struct {
	ID                 int64               `json:"id"`
	Level              service.DangerLevel `json:"level"`
	Jurisdiction       string              `json:"jurisdiction"`
	Declared           service.Date        `json:"declared"`
	RegistrationNumber string              `json:"registration_number,omitempty"`
	// Restrictions are the handling and keeping restrictions that apply,
	// each citing its section.
	Restrictions []string `json:"restrictions"`
	Conditions   string   `json:"conditions,omitempty"`
	// Requirements are what the owner must do for the level, each with
	// its status computed from the facts on file; a met one stays
	// listed with the day it was met.
	Requirements []Requirement `json:"requirements"`
}

// Requirement is one requirement of a designation: what, the section it
// comes from, its status (met, due, overdue, not_applicable), the due
// date (null when the law sets none) and the day it was met (null when
// not met, or met on a day not recorded).
type Requirement struct {
	What    string        `json:"what"`
	Section string        `json:"section"`
	Status  string        `json:"status"`
	Due     *service.Date `json:"due"`
	MetOn   *service.Date `json:"met_on"`
	Late    bool          `json:"late,omitempty"`
	Note    string        `json:"note,omitempty"`
}

// Quarantine is an active quarantine.
type Quarantine struct {
	ID int64 `json:"id"`
	// BiteID is the bite that started it, 0 for one ordered otherwise.
	BiteID int64                   `json:"bite_id,omitempty"`
	Kind   service.QuarantineKind  `json:"kind"`
	Place  service.QuarantinePlace `json:"place"`
	Start  service.Date            `json:"start"`
	End    service.Date            `json:"end"`
}

// Impound is one impoundment.
type Impound struct {
	ID           int64               `json:"id"`
	Jurisdiction string              `json:"jurisdiction"`
	IntakeAt     time.Time           `json:"intake_at"`
	IntakeOn     service.Date        `json:"intake_on"`
	WhereFound   string              `json:"where_found,omitempty"`
	HoldUntil    service.Date        `json:"hold_until,omitzero"`
	Disposition  service.Disposition `json:"disposition,omitempty"`
	Open         bool                `json:"open"`
}

// Redemption is the cost of reclaiming an impounded animal today.
type Redemption struct {
	// TotalCents is the amount due, or nil when Complete is false: a fee
	// the ordinance leaves to a resolution or to a chapter we do not have
	// (Chanhassen 5-53, 5-74(a)) is never counted as zero.
	TotalCents *int64 `json:"total_cents"`
	// KnownCents sums the lines whose amount is set; it is the amount
	// due only when Complete.
	KnownCents int64 `json:"known_cents"`
	// Complete is false when a fee is not set by the ordinance (or reads
	// two ways): the total is then unknown.
	Complete bool      `json:"complete"`
	Lines    []FeeLine `json:"lines"`
}

// FeeLine is one line of a fee.
type FeeLine struct {
	Code        string `json:"code,omitempty"`
	Description string `json:"description"`
	// Cents is the line's amount; nil when the amount is not set or the
	// text reads two ways (State says which, Note why).
	Cents *int64 `json:"cents"`
	// Quantity is set for per-day lines (board).
	Quantity int `json:"quantity,omitempty"`
	// State is set, not-set or conflict (see service/rules).
	State string `json:"state"`
	// NotSet is true when the jurisdiction has not set the amount.
	NotSet bool `json:"not_set,omitempty"`
	// Note says who sets an amount that is not set, or how the text
	// reads two ways.
	Note    string `json:"note,omitempty"`
	Section string `json:"section,omitempty"`
}

// Deadline is an open obligation with its due date.
type Deadline struct {
	What    string       `json:"what"`
	Due     service.Date `json:"due,omitzero"` // zero: the law sets no date
	Section string       `json:"section,omitempty"`
	Overdue bool         `json:"overdue"`
}

// Public returns a copy of a without owner data, for the public role.
func (a *Answer) Public() *Answer {
	c := *a
	c.Owner = nil
	return &c
}
