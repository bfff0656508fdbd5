package service

import (
	"context"
	"time"
)

// LicenceStatus is the stored state of a licence. Whether an active
// licence has expired is computed by package rules from ExpiresOn.
type LicenceStatus string

// Licence states.
const (
	LicenceActive   LicenceStatus = "active"
	LicenceRevoked  LicenceStatus = "revoked"  // Chanhassen 5-79, Minneapolis 65.40
	LicenceReplaced LicenceStatus = "replaced" // tag lost or stolen, duplicate issued (64.40)
)

// Issuer says who sold a licence: the licensing office, or a veterinary
// clinic under contract (Minneapolis 64.30 pays clinics per licence).
type Issuer string

// Issuers.
const (
	IssuerOffice Issuer = "office"
	IssuerClinic Issuer = "clinic"
)

// LicenceKind tells an animal licence from the permits sold with tags.
type LicenceKind string

// Licence kinds.
const (
	KindLicence  LicenceKind = "licence"   // dog/cat (64.30, 5-51) or ferret (65.10)
	KindOffLeash LicenceKind = "off-leash" // off-leash area permit (64.55)
)

// ReplaceReason is why a duplicate tag was issued. Minneapolis 64.40
// grants a duplicate only when the original tag was lost or stolen.
type ReplaceReason string

// Replacement reasons.
const (
	TagLost   ReplaceReason = "lost"
	TagStolen ReplaceReason = "stolen"
)

// Licence is one licence (or permit) with its metal tag. The tag carries
// the register number and the year (64.30); TagNumber is unique per
// Jurisdiction and Year.
type Licence struct {
	ID           int64       `json:"id"`
	AnimalID     int64       `json:"animal_id"`
	Kind         LicenceKind `json:"kind"`
	Jurisdiction string      `json:"jurisdiction"` // profile id, "minneapolis"
	// Year is the tag year. Create fills it from IssuedOn when 0.
	Year int `json:"year"`
	// TagNumber is the register number stamped on the tag. Create
	// assigns the next free number when 0.
	TagNumber int           `json:"tag_number"`
	IssuedOn  Date          `json:"issued_on"`
	ExpiresOn Date          `json:"expires_on"`
	Status    LicenceStatus `json:"status"`
	// FeeCents is the fee paid; FeeCode names the fee line (rules).
	FeeCents int64  `json:"fee_cents"`
	FeeCode  string `json:"fee_code,omitempty"`
	IssuedBy Issuer `json:"issued_by"`
	// Clinic names the issuing clinic when IssuedBy is IssuerClinic, and
	// ClinicPayCents is what the city owes it (64.30).
	Clinic         string `json:"clinic,omitempty"`
	ClinicPayCents int64  `json:"clinic_pay_cents,omitempty"`
	// Replaces is the licence whose lost or stolen tag this one
	// duplicates (64.40), with the reason.
	Replaces      int64         `json:"replaces,omitempty"`
	ReplaceReason ReplaceReason `json:"replace_reason,omitempty"`
	// Site names the office, shelter or clinic that issued the licence
	// (the issuing token's site), so that several sites can share one
	// database.
	Site string `json:"site,omitempty"`
	// Vaccination, when set on create, is the rabies certificate shown
	// at the sale: the store keeps it in the licence's transaction.
	Vaccination *RabiesVaccination `json:"-"`

	CreatedAt time.Time `json:"created_at"`
}

// Bounds on typed numbers: no tag design holds more than nine digits,
// and no fee of the ordinances or their resolutions comes near a
// million dollars; past these a number is a typing error or a probe.
const (
	MaxTagNumber = 999_999_999
	MaxFeeCents  = 100_000_000
)

// Validate checks the fields a store needs.
func (l *Licence) Validate() error {
	switch {
	case l.AnimalID == 0:
		return Errorf(EINVALID, "Licence animal required.")
	case l.Jurisdiction == "":
		return Errorf(EINVALID, "Licence jurisdiction required.")
	case l.IssuedOn.IsZero() || l.ExpiresOn.IsZero():
		return Errorf(EINVALID, "Licence issue and expiry dates required.")
	case l.ExpiresOn < l.IssuedOn:
		return Errorf(EINVALID, "Licence expires before it is issued.")
	case l.TagNumber < 0 || l.TagNumber > MaxTagNumber:
		return Invalidf("tag_number", "Tag number must be between 1 and %d.", MaxTagNumber)
	case l.FeeCents < 0 || l.FeeCents > MaxFeeCents:
		return Invalidf("fee_cents", "A fee is between 0 and %d cents.", MaxFeeCents)
	case l.ClinicPayCents < 0 || l.ClinicPayCents > MaxFeeCents:
		return Invalidf("clinic_pay_cents", "A clinic's pay is between 0 and %d cents.", MaxFeeCents)
	case l.Kind != "" && l.Kind != KindLicence && l.Kind != KindOffLeash:
		return Errorf(EINVALID, "Licence kind must be licence or off-leash.")
	case l.IssuedBy != "" && l.IssuedBy != IssuerOffice && l.IssuedBy != IssuerClinic:
		return Errorf(EINVALID, "Licence issuer must be office or clinic.")
	case l.Status != "" && l.Status != LicenceActive && l.Status != LicenceRevoked && l.Status != LicenceReplaced:
		return Errorf(EINVALID, "Licence status must be active, revoked or replaced.")
	case l.Replaces != 0 && l.ReplaceReason != TagLost && l.ReplaceReason != TagStolen:
		return Errorf(EINVALID, "A duplicate tag is issued only for a lost or stolen tag (64.40).")
	}
	return nil
}

// Prepare readies a licence to be stored: it fills the defaults (kind
// licence, status active, issued by the office), validates, and takes
// the year from the issue date when none is given.
func (l *Licence) Prepare() error {
	if l.Kind == "" {
		l.Kind = KindLicence
	}
	if l.Status == "" {
		l.Status = LicenceActive
	}
	if l.IssuedBy == "" {
		l.IssuedBy = IssuerOffice
	}
	if err := l.Validate(); err != nil {
		return err
	}
	if l.Year == 0 {
		l.Year = l.IssuedOn.Year()
	}
	return nil
}

// LicenceFilter selects licences. Nil fields do not filter.
type LicenceFilter struct {
	AnimalID     *int64
	Jurisdiction *string
	Year         *int
	Status       *LicenceStatus
	// ExpiresBefore selects licences expiring before the date (renewal
	// reminders).
	ExpiresBefore *Date
	// IssuedSince selects licences issued on or after the date.
	IssuedSince *Date
	// Site selects licences issued at that site.
	Site          *string
	Offset, Limit int
}

// LicenceService manages licences and tag numbers.
type LicenceService interface {
	FindLicenceByID(ctx context.Context, id int64) (*Licence, error)
	// FindLicenceByTag finds the licence with that tag number.
	FindLicenceByTag(ctx context.Context, jurisdiction string, year, tag int) (*Licence, error)
	FindLicences(ctx context.Context, f LicenceFilter) ([]*Licence, int, error)
	// CreateLicence stores l, assigning the next tag number for its
	// jurisdiction and year when l.TagNumber is 0. Numbering is atomic:
	// concurrent creates never share a number. A given TagNumber already
	// taken returns ECONFLICT. When l.Replaces is set, the replaced
	// licence is marked LicenceReplaced in the same transaction.
	CreateLicence(ctx context.Context, l *Licence) error
	// RevokeLicence marks a licence revoked.
	RevokeLicence(ctx context.Context, id int64) error
}
