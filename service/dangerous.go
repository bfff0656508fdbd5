package service

import (
	"context"
	"time"
)

// DangerLevel is the designation made.
type DangerLevel string

// Designation levels. "Potentially dangerous" is a state-law category
// (Minn. Stat. 347.50 subd. 3).
const (
	Dangerous            DangerLevel = "dangerous"
	PotentiallyDangerous DangerLevel = "potentially-dangerous"
)

// DangerousDesignation is the declaration that an animal is dangerous,
// and the owner's compliance with what follows. Each *On field records
// when a requirement was met; the deadlines come from the jurisdiction's
// profile (package rules), counted from DeclaredOn, or from DecisionOn
// when a hearing decided later (Minneapolis 64.110(g), (i)).
type DangerousDesignation struct {
	ID       int64       `json:"id"`
	AnimalID int64       `json:"animal_id"`
	Level    DangerLevel `json:"level"`
	// Jurisdiction is the profile id of the declaring authority.
	Jurisdiction string `json:"jurisdiction"`
	DeclaredOn   Date   `json:"declared_on"`
	// DecisionOn is the date of a hearing decision, when one was held.
	DecisionOn Date   `json:"decision_on,omitzero"`
	Authority  string `json:"authority,omitempty"`
	Conditions string `json:"conditions,omitempty"`

	RegisteredOn       Date   `json:"registered_on,omitzero"`
	RegistrationNumber string `json:"registration_number,omitempty"`
	SignOn             Date   `json:"sign_on,omitzero"`
	MicrochipOn        Date   `json:"microchip_on,omitzero"`
	SterilisedOn       Date   `json:"sterilised_on,omitzero"`
	PhotoOn            Date   `json:"photo_on,omitzero"`
	InsuredOn          Date   `json:"insured_on,omitzero"`
	InsuranceCents     int64  `json:"insurance_cents,omitempty"`
	InsuranceExpires   Date   `json:"insurance_expires,omitzero"`
	// RescindedOn ends the designation (review, death, error).
	RescindedOn Date `json:"rescinded_on,omitzero"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Validate checks a designation.
func (d *DangerousDesignation) Validate() error {
	switch {
	case d.AnimalID == 0:
		return Errorf(EINVALID, "Designation animal required.")
	case d.Level != Dangerous && d.Level != PotentiallyDangerous:
		return Errorf(EINVALID, "Level must be dangerous or potentially-dangerous.")
	case d.Jurisdiction == "":
		return Errorf(EINVALID, "Designation jurisdiction required.")
	case d.DeclaredOn.IsZero():
		return Errorf(EINVALID, "Declaration date required.")
	case d.InsuranceCents < 0:
		return Errorf(EINVALID, "Insurance amount cannot be negative.")
	}
	return nil
}

// DesignationUpdate records compliance steps; nil fields stay.
type DesignationUpdate struct {
	DecisionOn         *Date   `json:"decision_on,omitempty"`
	RegisteredOn       *Date   `json:"registered_on,omitempty"`
	SignOn             *Date   `json:"sign_on,omitempty"`
	MicrochipOn        *Date   `json:"microchip_on,omitempty"`
	SterilisedOn       *Date   `json:"sterilised_on,omitempty"`
	PhotoOn            *Date   `json:"photo_on,omitempty"`
	InsuredOn          *Date   `json:"insured_on,omitempty"`
	InsuranceExpires   *Date   `json:"insurance_expires,omitempty"`
	RescindedOn        *Date   `json:"rescinded_on,omitempty"`
	RegistrationNumber *string `json:"registration_number,omitempty"`
	Conditions         *string `json:"conditions,omitempty"`
	InsuranceCents     *int64  `json:"insurance_cents,omitempty"`
}

// Apply changes d as u says (nil fields stay) and validates the
// result.
func (d *DangerousDesignation) Apply(u DesignationUpdate) error {
	set(&d.DecisionOn, u.DecisionOn)
	set(&d.RegisteredOn, u.RegisteredOn)
	set(&d.SignOn, u.SignOn)
	set(&d.MicrochipOn, u.MicrochipOn)
	set(&d.SterilisedOn, u.SterilisedOn)
	set(&d.PhotoOn, u.PhotoOn)
	set(&d.InsuredOn, u.InsuredOn)
	set(&d.InsuranceExpires, u.InsuranceExpires)
	set(&d.RescindedOn, u.RescindedOn)
	set(&d.RegistrationNumber, u.RegistrationNumber)
	set(&d.Conditions, u.Conditions)
	set(&d.InsuranceCents, u.InsuranceCents)
	return d.Validate()
}

// DangerousService manages dangerous-animal designations.
type DangerousService interface {
	CreateDesignation(ctx context.Context, d *DangerousDesignation) error
	UpdateDesignation(ctx context.Context, id int64, u DesignationUpdate) (*DangerousDesignation, error)
	// FindDesignations lists an animal's designations, newest first;
	// animalID 0 lists every animal's (the dangerous-animal register).
	FindDesignations(ctx context.Context, animalID int64) ([]*DangerousDesignation, error)
	// FindDesignationsIn returns the designations of jurisdiction (a
	// profile id) not rescinded, the earliest declared first.
	FindDesignationsIn(ctx context.Context, jurisdiction string) ([]*DangerousDesignation, error)
}
