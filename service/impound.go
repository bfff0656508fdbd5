package service

import (
	"context"
	"time"
)

// Disposition is how an impoundment ended.
type Disposition string

// Dispositions; the empty value means the animal is still held.
const (
	Held        Disposition = ""
	Redeemed    Disposition = "redeemed" // reclaimed by the owner (62.40, 5-74)
	Adopted     Disposition = "adopted"  // sold or adopted (5-75, 64.140)
	Transferred Disposition = "transferred"
	Euthanised  Disposition = "euthanised"
	Died        Disposition = "died"
)

// Valid reports whether d is a known disposition.
func (d Disposition) Valid() bool {
	switch d {
	case Held, Redeemed, Adopted, Transferred, Euthanised, Died:
		return true
	}
	return false
}

// Impoundment is one stay of an animal at the pound. Minn. Stat. 346.47
// subd. 2 asks for the traits, where and when seized, and where it went.
type Impoundment struct {
	ID       int64 `json:"id"`
	AnimalID int64 `json:"animal_id"`
	// Jurisdiction is the profile whose fees and holds apply.
	Jurisdiction string    `json:"jurisdiction"`
	IntakeAt     time.Time `json:"intake_at"`
	IntakeOn     Date      `json:"intake_on"`
	Site         string    `json:"site,omitempty"`
	WhereFound   string    `json:"where_found,omitempty"`
	// NoticeOn is when notice of impounding was posted or given
	// (Chanhassen 5-73(a)).
	NoticeOn Date `json:"notice_on,omitzero"`
	// HoldUntil is the first day the animal may be disposed of, computed
	// by package rules.
	HoldUntil Date `json:"hold_until,omitzero"`
	// BiteCase is true when the animal has bitten or been bitten and is
	// held under the rabies rules instead (62.40(a), 66.40).
	BiteCase        bool        `json:"bite_case,omitempty"`
	Disposition     Disposition `json:"disposition,omitempty"`
	DispositionOn   Date        `json:"disposition_on,omitzero"`
	DispositionNote string      `json:"disposition_note,omitempty"`
	// FeesCents is what was charged at release.
	FeesCents int64 `json:"fees_cents,omitempty"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Validate checks an impoundment.
func (i *Impoundment) Validate() error {
	switch {
	case i.AnimalID == 0:
		return Errorf(EINVALID, "Impoundment animal required.")
	case i.Jurisdiction == "":
		return Errorf(EINVALID, "Impoundment jurisdiction required.")
	case i.IntakeOn.IsZero():
		return Errorf(EINVALID, "Intake date required.")
	case !i.Disposition.Valid():
		return Errorf(EINVALID, "Unknown disposition.")
	case i.FeesCents < 0:
		return Errorf(EINVALID, "Fees cannot be negative.")
	}
	return nil
}

// ImpoundUpdate changes an impoundment; nil fields stay.
type ImpoundUpdate struct {
	NoticeOn        *Date        `json:"notice_on,omitempty"`
	HoldUntil       *Date        `json:"hold_until,omitempty"`
	DispositionOn   *Date        `json:"disposition_on,omitempty"`
	Disposition     *Disposition `json:"disposition,omitempty"`
	DispositionNote *string      `json:"disposition_note,omitempty"`
	FeesCents       *int64       `json:"fees_cents,omitempty"`
	// Fees, when set, are the redemption's fee lines frozen at release,
	// stored with the update in its transaction (service/custody sets
	// them; no client does).
	Fees []ReleaseFee `json:"-"`
}

// ReleaseFee is one fee line of a redemption as computed at release.
// Cents is nil for a fee the ordinance leaves to a resolution.
type ReleaseFee struct {
	Code        string `json:"code,omitempty"`
	Description string `json:"description"`
	Cents       *int64 `json:"cents"`
	Quantity    int    `json:"quantity,omitempty"`
	State       string `json:"state"`
	Section     string `json:"section,omitempty"`
	Note        string `json:"note,omitempty"`
}

// Apply changes i as u says (nil fields stay) and validates the
// result.
func (i *Impoundment) Apply(u ImpoundUpdate) error {
	set(&i.NoticeOn, u.NoticeOn)
	set(&i.HoldUntil, u.HoldUntil)
	set(&i.DispositionOn, u.DispositionOn)
	set(&i.Disposition, u.Disposition)
	set(&i.DispositionNote, u.DispositionNote)
	set(&i.FeesCents, u.FeesCents)
	return i.Validate()
}

// ImpoundFilter selects impoundments.
type ImpoundFilter struct {
	AnimalID *int64
	// Open selects those still held (true) or ended (false).
	Open  *bool
	Since *Date // intake on or after
	// EndedSince selects those that ended (any disposition) on or
	// after the date.
	EndedSince    *Date
	Site          *string
	Offset, Limit int
}

// ImpoundService manages impoundments.
type ImpoundService interface {
	CreateImpoundment(ctx context.Context, i *Impoundment) error
	UpdateImpoundment(ctx context.Context, id int64, u ImpoundUpdate) (*Impoundment, error)
	FindImpoundmentByID(ctx context.Context, id int64) (*Impoundment, error)
	FindImpoundments(ctx context.Context, f ImpoundFilter) ([]*Impoundment, int, error)
	// FindReleaseFees returns the fee lines frozen at the release of
	// impoundment id (ImpoundUpdate.Fees), nil when none were.
	FindReleaseFees(ctx context.Context, id int64) ([]ReleaseFee, error)
}
