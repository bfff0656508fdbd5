package service

import (
	"context"
	"time"
)

// VaccineType is the kind of rabies vaccine. Chanhassen 5-37(a): when the
// certificate does not state it, a killed vaccine is assumed.
type VaccineType string

// Vaccine types.
const (
	VaccineUnstated     VaccineType = ""
	VaccineKilled       VaccineType = "killed"
	VaccineModifiedLive VaccineType = "modified-live"
)

// RabiesVaccination is one rabies shot, with the fields of the NASPHV
// Form 51 certificate.
type RabiesVaccination struct {
	ID       int64       `json:"id"`
	AnimalID int64       `json:"animal_id"`
	Date     Date        `json:"date"`
	Type     VaccineType `json:"type,omitempty"`
	// DurationMonths is the duration on the certificate (12, 36, ...);
	// 0 when not stated.
	DurationMonths int `json:"duration_months,omitempty"`
	// ExtendedCertified records the written certification by a licensed
	// veterinarian that immunity exceeds one year (Chanhassen 5-37(a)).
	ExtendedCertified bool   `json:"extended_certified,omitempty"`
	Product           string `json:"product,omitempty"`
	Manufacturer      string `json:"manufacturer,omitempty"`
	Lot               string `json:"lot,omitempty"` // serial (lot) number
	LotExpires        Date   `json:"lot_expires,omitzero"`
	Veterinarian      string `json:"veterinarian,omitempty"`
	VetLicence        string `json:"vet_licence,omitempty"`
	Certificate       string `json:"certificate,omitempty"` // certificate number
	RabiesTag         string `json:"rabies_tag,omitempty"`

	CreatedAt time.Time `json:"created_at"`
}

// Validate checks a vaccination record.
func (v *RabiesVaccination) Validate() error {
	switch {
	case v.AnimalID == 0:
		return Errorf(EINVALID, "Vaccination animal required.")
	case v.Date.IsZero():
		return Errorf(EINVALID, "Vaccination date required.")
	case v.Type != VaccineUnstated && v.Type != VaccineKilled && v.Type != VaccineModifiedLive:
		return Errorf(EINVALID, "Vaccine type must be killed, modified-live or empty.")
	case v.DurationMonths < 0 || v.DurationMonths > 48:
		return Errorf(EINVALID, "Vaccination duration must be 0 to 48 months.")
	}
	return nil
}

// Victim says who an animal bit.
type Victim string

// Bite victims.
const (
	VictimPerson Victim = "person"
	VictimAnimal Victim = "animal"
)

// BiteIncident is one reported bite by an animal.
type BiteIncident struct {
	ID       int64  `json:"id"`
	AnimalID int64  `json:"animal_id"`
	Date     Date   `json:"date"`
	Victim   Victim `json:"victim"`
	// SkinBroken records an abrasion or puncture of the skin (66.40(a)).
	SkinBroken bool   `json:"skin_broken"`
	Provoked   bool   `json:"provoked"`
	Location   string `json:"location,omitempty"`
	Notes      string `json:"notes,omitempty"`

	CreatedAt time.Time `json:"created_at"`
}

// Validate checks what a store needs to keep the bite.
func (b *BiteIncident) Validate() error {
	switch {
	case b.AnimalID == 0:
		return Errorf(EINVALID, "Bite animal required.")
	case b.Date.IsZero():
		return Errorf(EINVALID, "Bite date required.")
	case b.Victim != VictimPerson && b.Victim != VictimAnimal:
		return Errorf(EINVALID, "Bite victim must be person or animal.")
	}
	return nil
}

// QuarantineKind tells a bite quarantine (the biter is observed) from an
// exposure quarantine (the animal was bitten by a rabid animal).
type QuarantineKind string

// Quarantine kinds.
const (
	QuarantineBite     QuarantineKind = "bite"
	QuarantineExposure QuarantineKind = "exposure"
)

// QuarantinePlace is where an animal is confined.
type QuarantinePlace string

// Quarantine places.
const (
	AtHome    QuarantinePlace = "home"    // Chanhassen 5-39(a), Minneapolis 66.40(b)
	AtShelter QuarantinePlace = "shelter" // city animal care and control centre
	AtVet     QuarantinePlace = "vet"     // under a licensed veterinarian's supervision
)

// Quarantine is a confinement period for observation.
type Quarantine struct {
	ID       int64           `json:"id"`
	AnimalID int64           `json:"animal_id"`
	BiteID   int64           `json:"bite_id,omitempty"`
	Kind     QuarantineKind  `json:"kind"`
	Place    QuarantinePlace `json:"place"`
	Start    Date            `json:"start"`
	// End is the last day of confinement, computed by package rules.
	End        Date   `json:"end"`
	ReleasedOn Date   `json:"released_on,omitzero"`
	Notes      string `json:"notes,omitempty"`

	CreatedAt time.Time `json:"created_at"`
}

// Validate checks a quarantine.
func (q *Quarantine) Validate() error {
	switch {
	case q.AnimalID == 0:
		return Errorf(EINVALID, "Quarantine animal required.")
	case q.Kind != QuarantineBite && q.Kind != QuarantineExposure:
		return Errorf(EINVALID, "Quarantine kind must be bite or exposure.")
	case q.Place != AtHome && q.Place != AtShelter && q.Place != AtVet:
		return Errorf(EINVALID, "Quarantine place must be home, shelter or vet.")
	case q.Start.IsZero() || q.End.IsZero() || q.End < q.Start:
		return Errorf(EINVALID, "Quarantine needs a start and an end not before it.")
	}
	return nil
}

// HealthService records rabies vaccinations, bites and quarantines.
type HealthService interface {
	CreateVaccination(ctx context.Context, v *RabiesVaccination) error
	// FindVaccinations returns an animal's vaccinations, newest first.
	FindVaccinations(ctx context.Context, animalID int64) ([]*RabiesVaccination, error)

	CreateBite(ctx context.Context, b *BiteIncident) error
	FindBites(ctx context.Context, animalID int64) ([]*BiteIncident, error)

	CreateQuarantine(ctx context.Context, q *Quarantine) error
	// ReleaseQuarantine records the release date.
	ReleaseQuarantine(ctx context.Context, id int64, on Date) error
	FindQuarantines(ctx context.Context, animalID int64) ([]*Quarantine, error)
	// FindOpenQuarantines returns the quarantines of every animal not
	// yet released, the one ending first first.
	FindOpenQuarantines(ctx context.Context) ([]*Quarantine, error)
}
