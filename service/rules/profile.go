package rules

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

//go:embed profiles/*.json
var profileFS embed.FS

// Cited is a value with the section of law it comes from.
type Cited[T any] struct {
	Value  T      `json:"value"`
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`
}

// Reading is one way to read an amount the text states twice.
type Reading struct {
	Cents int64  `json:"cents"`
	Text  string `json:"text"`
}

// Fee is an amount of money in cents with its source. Cents nil means
// the law leaves it to someone else ("not set"); two or more Readings
// mean the text contradicts itself.
type Fee struct {
	Cents    *int64    `json:"cents"`
	Readings []Reading `json:"readings,omitempty"`
	Source   string    `json:"source"`
	Note     string    `json:"note,omitempty"`
}

// FeeState says whether a fee can be charged.
type FeeState string

// Fee states.
const (
	FeeSet      FeeState = "set"
	FeeNotSet   FeeState = "not-set"
	FeeConflict FeeState = "conflict"
)

// State reports whether f is set, not set, or in conflict.
func (f *Fee) State() FeeState {
	switch {
	case f == nil:
		return FeeNotSet
	case len(f.Readings) > 1:
		return FeeConflict
	case f.Cents != nil:
		return FeeSet
	}
	return FeeNotSet
}

// Cents returns a pointer to c, for profiles built in code.
func Cents(c int64) *int64 { return &c }

// ExpiryRule names how a licence's expiry date is computed.
type ExpiryRule struct {
	// Rule is "jan31-next" (the first January 31 after issue),
	// "feb1-next" (the first February 1 after issue) or
	// "rabies-anniversary" (the first anniversary of the latest rabies
	// vaccination after issue).
	Rule   string `json:"rule"`
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`
}

// Requirement says when a licence is required.
type Requirement struct {
	// MinAgeMonths: required once the animal is older than this.
	MinAgeMonths int `json:"minAgeMonths"`
	// GraceDays: required once kept for more than this many days.
	GraceDays int    `json:"graceDays"`
	Source    string `json:"source"`
	Note      string `json:"note,omitempty"`
}

// LicenceFees are the fee lines of one species' licence.
type LicenceFees struct {
	Unaltered *Fee `json:"unaltered"`
	Altered   *Fee `json:"altered"`
	// Young applies below YoungUnderMonths of age.
	Young            *Fee             `json:"young,omitempty"`
	YoungUnderMonths *Cited[int]      `json:"youngUnderMonths,omitempty"`
	Exempt           *Cited[[]string] `json:"exempt,omitempty"`
	Late             *Fee             `json:"late,omitempty"`
}

// LicenceRule is what a profile says about one species' licence.
type LicenceRule struct {
	Required       Requirement `json:"required"`
	Expiry         ExpiryRule  `json:"expiry"`
	RabiesRequired Cited[bool] `json:"rabiesRequired"`
	// Certificate, when true, is the law asking for the veterinarian's
	// certificate of vaccination with the licence (Chanhassen 5-37(b),
	// Minneapolis 66.10-66.25): a sale records its number and the
	// veterinarian who signed it.
	Certificate *Cited[bool] `json:"certificate,omitempty"`
	Fees        LicenceFees  `json:"fees"`
}

// DuplicateRule covers replacement tags.
type DuplicateRule struct {
	Fee     *Fee            `json:"fee"`
	Reasons Cited[[]string] `json:"reasons"`
}

// OffLeashRule covers off-leash area permits.
type OffLeashRule struct {
	ResidentFirst         *Fee        `json:"residentFirst"`
	ResidentAdditional    *Fee        `json:"residentAdditional"`
	NonResidentFirst      *Fee        `json:"nonResidentFirst"`
	NonResidentAdditional *Fee        `json:"nonResidentAdditional"`
	Expiry                ExpiryRule  `json:"expiry"`
	DangerousExcluded     Cited[bool] `json:"dangerousExcluded"`
}

// DwellingRule limits the animals kept at one residence.
type DwellingRule struct {
	MaxAnimals   Cited[int]      `json:"maxAnimals"`
	MinAgeMonths Cited[int]      `json:"minAgeMonths"`
	Species      Cited[[]string] `json:"species"`
	PermitFee    *Fee            `json:"permitFee"`
	PermitExpiry ExpiryRule      `json:"permitExpiry"`
}

// HoldRule is a holding period for impounded animals.
type HoldRule struct {
	Days int `json:"days"`
	// Counting is "calendar" or "business" (regular business days on
	// the profile's calendar).
	Counting string `json:"counting"`
	// From is "intake" or "notice" (the notice of impounding).
	From   string `json:"from"`
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`
}

// ImpoundFees is the escalating impound fee schedule.
type ImpoundFees struct {
	// Fees[i] is the fee for the (i+1)th impoundment in the window.
	Fees         []*Fee     `json:"fees"`
	WindowMonths Cited[int] `json:"windowMonths"`
	Note         string     `json:"note,omitempty"`
}

// ImpoundRule covers holds and redemption.
type ImpoundRule struct {
	Hold                           HoldRule    `json:"hold"`
	NoticeWithinHours              *Cited[int] `json:"noticeWithinHours,omitempty"`
	StateHold                      *HoldRule   `json:"stateHold,omitempty"`
	ImpoundFees                    ImpoundFees `json:"impoundFees"`
	BoardPerDay                    *Fee        `json:"boardPerDay"`
	LicencePenalty                 *Fee        `json:"licencePenalty,omitempty"`
	LateLicenceFee                 *Fee        `json:"lateLicenceFee,omitempty"`
	SterilisationDeposit           *Fee        `json:"sterilisationDeposit,omitempty"`
	SterilisationDepositOverMonths *Cited[int] `json:"sterilisationDepositOverMonths,omitempty"`
	VaccinationWithinDays          *Cited[int] `json:"vaccinationWithinDays,omitempty"`
	BiteCaseFees                   *Fee        `json:"biteCaseFees,omitempty"`
}

// RabiesRule says how long a rabies vaccination is valid for a species.
// Either the generic fields (DefaultMonths, Min/MaxMonths,
// FirstBoosterMonths) or the vaccine-type fields (ModifiedLiveMonths,
// ExtendedMaxMonths, KilledMonths) are used: the latter when
// ModifiedLiveMonths is set.
type RabiesRule struct {
	// RequiredOverMonths: vaccination required once older than this.
	RequiredOverMonths int    `json:"requiredOverMonths"`
	DefaultMonths      *int   `json:"defaultMonths,omitempty"`
	MinMonths          *int   `json:"minMonths,omitempty"`
	MaxMonths          *int   `json:"maxMonths,omitempty"`
	FirstBoosterMonths *int   `json:"firstBoosterMonths,omitempty"`
	ModifiedLiveMonths *int   `json:"modifiedLiveMonths,omitempty"`
	ExtendedMaxMonths  *int   `json:"extendedMaxMonths,omitempty"`
	KilledMonths       *int   `json:"killedMonths,omitempty"`
	Source             string `json:"source"`
	Note               string `json:"note,omitempty"`
}

// BiteRule covers the quarantine of an animal that bit a person.
type BiteRule struct {
	QuarantineDays    Cited[int]    `json:"quarantineDays"`
	HomeIfVaccinated  Cited[bool]   `json:"homeIfVaccinated"`
	UnvaccinatedPlace Cited[string] `json:"unvaccinatedPlace"`
}

// ExposureOption is what the law allows for an animal bitten by a rabid
// animal.
type ExposureOption struct {
	// Sources names the section of each option the text gives, by
	// option ("revaccinate-confine": "66.50(b)(1)"); Source when absent.
	Sources                      map[string]string `json:"sources,omitempty"`
	ConfineDays                  int               `json:"confineDays,omitempty"`
	IsolationMonths              int               `json:"isolationMonths,omitempty"`
	VaccinateBeforeReleaseMonths int               `json:"vaccinateBeforeReleaseMonths,omitempty"`
	Booster                      bool              `json:"booster,omitempty"`
	Source                       string            `json:"source"`
	Note                         string            `json:"note,omitempty"`
}

// ExposureRule covers rabies exposure.
type ExposureRule struct {
	Unvaccinated ExposureOption `json:"unvaccinated"`
	Vaccinated   ExposureOption `json:"vaccinated"`
}

// DangerRequirement is one thing the owner of a dangerous animal must
// do, with its deadline when the law sets one.
type DangerRequirement struct {
	// Name is microchip, sterilisation, photo, registration, insurance
	// or sign.
	Name string `json:"name"`
	// Days after From; nil when the law sets no deadline.
	Days *int `json:"days,omitempty"`
	// From is "declaration" or "later-of-declaration-or-decision".
	From     string `json:"from,omitempty"`
	MinCents int64  `json:"minCents,omitempty"`
	// Levels are the designation levels the requirement applies to
	// ("dangerous", "potentially-dangerous"); empty means dangerous only.
	Levels []string `json:"levels,omitempty"`
	Source string   `json:"source"`
	Note   string   `json:"note,omitempty"`
}

// BiteDesignation says that a bite of a person makes an animal a
// candidate for a designation (Chanhassen 5-76(2): "any animal that has
// attacked or bitten any person, except a person that has tormented or
// abused it"), proposed to an officer for review, never made by itself.
type BiteDesignation struct {
	Level  service.DangerLevel `json:"level"`
	Source string              `json:"source"`
	Note   string              `json:"note,omitempty"`
}

// DangerRule covers dangerous animals.
type DangerRule struct {
	Requirements                []DangerRequirement `json:"requirements"`
	Restrictions                []Cited[string]     `json:"restrictions"`
	LeashMaxFeet                Cited[int]          `json:"leashMaxFeet"`
	NoticeOfDeathOrTransferDays *Cited[int]         `json:"noticeOfDeathOrTransferDays,omitempty"`
}

// Calendar holds the pound's opening hours, for counting regular
// business days (Minn. Stat. 346.47 subd. 2).
type Calendar struct {
	// Hours maps "mon".."sun" to [open, close] as "HH:MM".
	Hours map[string][2]string `json:"hours"`
	// Closed lists days the pound is closed (holidays).
	Closed []service.Date `json:"closed"`
	Source string         `json:"source"`
	Note   string         `json:"note,omitempty"`

	business [7]bool
	closed   map[service.Date]bool
}

// Profile is one jurisdiction's rules.
type Profile struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Display is the name a page shows ("Minneapolis"); Codes are the
	// other names a person or a tag design uses for it ("MPLS"). Set.Resolve
	// accepts the id, the name, Display and every code, in any case.
	Display  string   `json:"display"`
	Codes    []string `json:"codes,omitempty"`
	Code     string   `json:"code"`
	TimeZone string   `json:"timeZone"`
	Calendar Calendar `json:"calendar"`
	// Licences maps a species to its licence rule; a species missing
	// is not licensed by this jurisdiction.
	Licences         map[service.Species]*LicenceRule `json:"licences"`
	ClinicPay        *Fee                             `json:"clinicPay,omitempty"`
	ClinicPaySpecies *Cited[[]string]                 `json:"clinicPaySpecies,omitempty"`
	DuplicateTag     DuplicateRule                    `json:"duplicateTag"`
	OffLeash         *OffLeashRule                    `json:"offLeash,omitempty"`
	Dwelling         *DwellingRule                    `json:"dwelling,omitempty"`
	Permits          *PermitRules                     `json:"permits,omitempty"` // permits.go
	Impound          ImpoundRule                      `json:"impound"`
	Rabies           map[service.Species]*RabiesRule  `json:"rabies"`
	Bite             BiteRule                         `json:"bite"`
	Exposure         ExposureRule                     `json:"exposure"`
	Dangerous        DangerRule                       `json:"dangerous"`
	// BiteDesignation, when set, proposes a designation for review after
	// an unprovoked bite of a person.
	BiteDesignation *BiteDesignation `json:"biteDesignation,omitempty"`

	loc *time.Location
}

// ErrProfile reports a malformed profile.
var ErrProfile = errors.New("rules: bad profile")

var weekdays = map[string]time.Weekday{"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday,
	"wed": time.Wednesday, "thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday}

// ParseProfile decodes and checks a JSON profile.
func ParseProfile(data []byte) (*Profile, error) {
	var p Profile
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrProfile, err)
	}
	if err := p.init(); err != nil {
		return nil, err
	}
	return &p, nil
}

func (p *Profile) init() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w %q: %s", ErrProfile, p.ID, fmt.Sprintf(format, a...))
	}
	if p.ID == "" {
		return bad("no id")
	}
	if p.Display == "" {
		p.Display = p.Name
	}
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return bad("time zone: %v", err)
	}
	p.loc = loc
	if err := p.Calendar.init(); err != nil {
		return bad("%v", err)
	}
	for sp, l := range p.Licences {
		if !sp.Valid() || l == nil {
			return bad("licence for unknown species %q", sp)
		}
		switch l.Expiry.Rule {
		case "jan31-next", "feb1-next", "rabies-anniversary":
		default:
			return bad("%s licence: unknown expiry rule %q", sp, l.Expiry.Rule)
		}
		if l.Fees.Unaltered == nil || l.Fees.Altered == nil {
			return bad("%s licence: unaltered and altered fees required (null cents for not set)", sp)
		}
	}
	for _, h := range []*HoldRule{&p.Impound.Hold, p.Impound.StateHold} {
		if h == nil {
			continue
		}
		if h.Counting != "calendar" && h.Counting != "business" || h.From != "intake" && h.From != "notice" || h.Days < 0 {
			return bad("hold %+v: counting must be calendar or business, from intake or notice", *h)
		}
	}
	for sp, r := range p.Rabies {
		if !sp.Valid() || r == nil {
			return bad("rabies rule for unknown species %q", sp)
		}
		if r.ModifiedLiveMonths == nil && r.DefaultMonths == nil {
			return bad("rabies rule for %s: defaultMonths or modifiedLiveMonths required", sp)
		}
	}
	for _, d := range p.Dangerous.Requirements {
		for _, l := range d.Levels {
			if service.DangerLevel(l) != service.Dangerous && service.DangerLevel(l) != service.PotentiallyDangerous {
				return bad("dangerous requirement %s: unknown level %q", d.Name, l)
			}
		}
		if d.Days != nil && d.From != "declaration" && d.From != "later-of-declaration-or-decision" {
			return bad("dangerous requirement %s: from must be declaration or later-of-declaration-or-decision", d.Name)
		}
	}
	if err := p.Permits.init(); err != nil { // permits.go
		return bad("permits: %v", err)
	}
	return nil
}

func (c *Calendar) init() error {
	c.closed = make(map[service.Date]bool, len(c.Closed))
	for _, d := range c.Closed {
		c.closed[d] = true
	}
	for name, h := range c.Hours {
		wd, ok := weekdays[name]
		if !ok {
			return fmt.Errorf("calendar: unknown day %q", name)
		}
		open, err1 := minutes(h[0])
		shut, err2 := minutes(h[1])
		if err1 != nil || err2 != nil || shut < open {
			return fmt.Errorf("calendar: bad hours %v for %s", h, name)
		}
		// 346.47 subd. 2: open at least 4 consecutive hours between
		// 8:00 and 19:00.
		c.business[wd] = min(shut, 19*60)-max(open, 8*60) >= 4*60
	}
	return nil
}

func minutes(hhmm string) (int, error) {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return 0, err
	}
	return t.Hour()*60 + t.Minute(), nil
}

// IsBusinessDay reports whether d is a regular business day of the pound.
func (c *Calendar) IsBusinessDay(d service.Date) bool {
	return c.business[d.Weekday()] && !c.closed[d]
}

// Location returns the profile's time zone.
func (p *Profile) Location() *time.Location { return p.loc }

// Today returns the date of now in the jurisdiction's zone.
func (p *Profile) Today(now time.Time) service.Date { return service.DateIn(now, p.loc) }

// Set is a collection of profiles by id.
type Set struct{ byID map[string]*Profile }

// Embedded returns the profiles shipped with chipdesk (Minneapolis and
// Chanhassen).
func Embedded() (*Set, error) {
	s := &Set{byID: map[string]*Profile{}}
	names, err := fs.Glob(profileFS, "profiles/*.json")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		data, err := profileFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		p, err := ParseProfile(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		if want := strings.TrimSuffix(n[len("profiles/"):], ".json"); p.ID != want {
			return nil, fmt.Errorf("%w: %s holds id %q, want %q", ErrProfile, n, p.ID, want)
		}
		s.Add(p)
	}
	return s, nil
}

// Add adds p, replacing a profile with the same id.
func (s *Set) Add(p *Profile) {
	if s.byID == nil {
		s.byID = map[string]*Profile{}
	}
	s.byID[p.ID] = p
}

// Profile returns the profile with id, or nil.
func (s *Set) Profile(id string) *Profile { return s.byID[id] }

// Resolve finds the profile a person or a command names: its id, name,
// display name or one of its codes, in any case ("minneapolis",
// "Minneapolis", "MPLS"). An unknown name is an EINVALID error for the
// field "jurisdiction" that lists the known ones.
func (s *Set) Resolve(name string) (*Profile, error) {
	n := strings.TrimSpace(name)
	if p := s.byID[strings.ToLower(n)]; p != nil {
		return p, nil
	}
	for _, id := range s.IDs() {
		p := s.byID[id]
		if strings.EqualFold(n, p.Name) || strings.EqualFold(n, p.Display) || slices.ContainsFunc(p.Codes, func(c string) bool { return strings.EqualFold(n, c) }) {
			return p, nil
		}
	}
	if n == "" {
		return nil, service.Invalidf("jurisdiction", "Jurisdiction required: one of %s.", s.Known())
	}
	return nil, service.Invalidf("jurisdiction", "Unknown jurisdiction %q: known are %s.", name, s.Known())
}

// Known lists the jurisdictions as a person names them: "minneapolis
// (Minneapolis, MPLS), chanhassen (Chanhassen, CHAN)".
func (s *Set) Known() string {
	var parts []string
	for _, id := range s.IDs() {
		p := s.byID[id]
		parts = append(parts, id+" ("+strings.Join(append([]string{p.Display}, p.Codes...), ", ")+")")
	}
	return strings.Join(parts, ", ")
}

// IDs returns the profile ids, sorted.
func (s *Set) IDs() []string {
	ids := make([]string, 0, len(s.byID))
	for id := range s.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func contains(list []string, v string) bool { return slices.Contains(list, v) }

// ProfileData returns the embedded JSON of the profile with id.
func ProfileData(id string) ([]byte, error) {
	return profileFS.ReadFile("profiles/" + id + ".json")
}
