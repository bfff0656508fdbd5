package service

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Owner is a person who keeps animals.
type Owner struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Address  string `json:"address,omitempty"`
	City     string `json:"city,omitempty"`
	State    string `json:"state,omitempty"`
	Postcode string `json:"postcode,omitempty"`
	Phone    string `json:"phone,omitempty"`
	Email    string `json:"email,omitempty"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Validate reports an EINVALID error when o lacks required fields.
func (o *Owner) Validate() error {
	if o.Name == "" {
		return Invalidf("name", "Owner name required.")
	}
	return checkFields(MaxNameLen, map[string]string{"name": o.Name, "address": o.Address, "city": o.City,
		"state": o.State, "postcode": o.Postcode, "phone": o.Phone, "email": o.Email})
}

// checkFields runs CheckName on each named field, in name order so the
// error is the same every time.
func checkFields(max int, fields map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if err := CheckName(k, fields[k], max); err != nil {
			return err
		}
	}
	return nil
}

// OwnerFilter selects owners. Nil fields do not filter.
type OwnerFilter struct {
	ID   *int64
	Name *string // case-insensitive substring
	// Offset and Limit page the result; Limit 0 means no limit.
	Offset, Limit int
}

// OwnerUpdate holds the fields to change; nil fields stay. It is the
// body of PATCH /api/v1/owners/{id}: a field absent (or null) stays as it is.
type OwnerUpdate struct {
	Name     *string `json:"name,omitempty"`
	Address  *string `json:"address,omitempty"`
	City     *string `json:"city,omitempty"`
	State    *string `json:"state,omitempty"`
	Postcode *string `json:"postcode,omitempty"`
	Phone    *string `json:"phone,omitempty"`
	Email    *string `json:"email,omitempty"`
}

// Apply changes o as u says (nil fields stay) and validates the
// result.
func (o *Owner) Apply(u OwnerUpdate) error {
	set(&o.Name, u.Name)
	set(&o.Address, u.Address)
	set(&o.City, u.City)
	set(&o.State, u.State)
	set(&o.Postcode, u.Postcode)
	set(&o.Phone, u.Phone)
	set(&o.Email, u.Email)
	return o.Validate()
}

// OwnerService manages owners.
type OwnerService interface {
	FindOwnerByID(ctx context.Context, id int64) (*Owner, error)
	// FindOwners returns the matching owners and the total count before
	// paging.
	FindOwners(ctx context.Context, f OwnerFilter) ([]*Owner, int, error)
	CreateOwner(ctx context.Context, o *Owner) error
	UpdateOwner(ctx context.Context, id int64, u OwnerUpdate) (*Owner, error)
}

// Species of animal the ordinances distinguish.
type Species string

// Species values.
const (
	Dog    Species = "dog"
	Cat    Species = "cat"
	Ferret Species = "ferret"
	Other  Species = "other"
)

// Valid reports whether s is one of the four species values.
func (s Species) Valid() bool {
	return s == Dog || s == Cat || s == Ferret || s == Other
}

// Sex of an animal.
type Sex string

// Sex values.
const (
	SexUnknown Sex = ""
	Male       Sex = "male"
	Female     Sex = "female"
)

// Valid reports whether s is a known value.
func (s Sex) Valid() bool { return s == SexUnknown || s == Male || s == Female }

// Programme names a programme that exempts an animal from licence fees
// (Minneapolis 64.30: service dogs in training or trained, foster animals
// awaiting adoption).
type Programme string

// Fee-exempt programmes.
const (
	NoProgramme     Programme = ""
	ServiceDog      Programme = "service-dog"
	FosterProgramme Programme = "foster"
)

// Valid reports whether p is a known programme.
func (p Programme) Valid() bool {
	return p == NoProgramme || p == ServiceDog || p == FosterProgramme
}

// Animal is one kept animal.
type Animal struct {
	ID      int64   `json:"id"`
	OwnerID int64   `json:"owner_id,omitempty"` // 0: no known owner (stray)
	Name    string  `json:"name,omitempty"`
	Species Species `json:"species"`
	Breed   string  `json:"breed,omitempty"`
	Colour  string  `json:"colour,omitempty"`
	Sex     Sex     `json:"sex,omitempty"`
	// Altered is true when the animal is spayed or neutered.
	Altered   bool `json:"altered"`
	BirthDate Date `json:"birth_date,omitzero"`
	// Description holds markings and other identifying traits.
	Description string `json:"description,omitempty"`
	// Photo is the id of the animal's photograph (ValidPhotoID), as the
	// server issued it when the image was uploaded.
	Photo     string    `json:"photo,omitempty"`
	Programme Programme `json:"programme,omitempty"`
	// DiedOn is the date of death, when known.
	DiedOn Date `json:"died_on,omitzero"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Validate reports an EINVALID error for a bad species, sex or programme.
func (a *Animal) Validate() error {
	switch {
	case !a.Species.Valid():
		return Invalidf("species", "Species must be dog, cat, ferret or other.")
	case !a.Sex.Valid():
		return Invalidf("sex", "Sex must be male, female or empty.")
	case !a.Programme.Valid():
		return Invalidf("programme", "Programme must be service-dog, foster or empty.")
	case a.Photo != "" && !ValidPhotoID(a.Photo):
		return Invalidf("photo", "Photo must be the id of an uploaded photograph.")
	}
	if err := CheckText("description", a.Description, MaxTextLen); err != nil {
		return err
	}
	return checkFields(MaxNameLen, map[string]string{"name": a.Name, "breed": a.Breed, "colour": a.Colour})
}

// AnimalFilter selects animals. Nil fields do not filter.
type AnimalFilter struct {
	ID            *int64
	OwnerID       *int64
	Species       *Species
	Name          *string // case-insensitive substring
	Offset, Limit int
}

// AnimalUpdate holds the fields to change; nil fields stay. It is the
// body of PATCH /api/v1/animals/{id}: a field absent (or null) stays as it is.
type AnimalUpdate struct {
	OwnerID     *int64     `json:"owner_id,omitempty"`
	Name        *string    `json:"name,omitempty"`
	Breed       *string    `json:"breed,omitempty"`
	Colour      *string    `json:"colour,omitempty"`
	Description *string    `json:"description,omitempty"`
	Photo       *string    `json:"photo,omitempty"`
	Species     *Species   `json:"species,omitempty"`
	Sex         *Sex       `json:"sex,omitempty"`
	Altered     *bool      `json:"altered,omitempty"`
	BirthDate   *Date      `json:"birth_date,omitempty"`
	DiedOn      *Date      `json:"died_on,omitempty"`
	Programme   *Programme `json:"programme,omitempty"`
}

// Apply changes a as u says (nil fields stay) and validates the
// result.
func (a *Animal) Apply(u AnimalUpdate) error {
	set(&a.OwnerID, u.OwnerID)
	set(&a.Name, u.Name)
	set(&a.Breed, u.Breed)
	set(&a.Colour, u.Colour)
	set(&a.Description, u.Description)
	set(&a.Photo, u.Photo)
	set(&a.Species, u.Species)
	set(&a.Sex, u.Sex)
	set(&a.Altered, u.Altered)
	set(&a.BirthDate, u.BirthDate)
	set(&a.DiedOn, u.DiedOn)
	set(&a.Programme, u.Programme)
	return a.Validate()
}

// Chip is one microchip implanted in an animal. An animal may carry
// several (double chipping happens).
type Chip struct {
	ID       int64 `json:"id"`
	AnimalID int64 `json:"animal_id"`
	// Code is the normalised chip id (chipid.ID.Code); unique across
	// all animals.
	Code         string      `json:"code"`
	Kind         chipid.Kind `json:"kind"`
	Manufacturer string      `json:"manufacturer,omitempty"`
	ImplantDate  Date        `json:"implant_date,omitzero"`

	CreatedAt time.Time `json:"created_at"`
}

// Validate checks what a store needs to keep the chip.
func (c *Chip) Validate() error {
	switch {
	case c.AnimalID == 0:
		return Errorf(EINVALID, "Chip animal required.")
	case c.Code == "":
		return Errorf(EINVALID, "Chip code required.")
	}
	return nil
}

// AnimalService manages animals and their chips.
type AnimalService interface {
	FindAnimalByID(ctx context.Context, id int64) (*Animal, error)
	FindAnimals(ctx context.Context, f AnimalFilter) ([]*Animal, int, error)
	CreateAnimal(ctx context.Context, a *Animal) error
	UpdateAnimal(ctx context.Context, id int64, u AnimalUpdate) (*Animal, error)

	// AddChip records a chip on an animal. It returns ECONFLICT when the
	// code is already on any animal.
	AddChip(ctx context.Context, c *Chip) error
	// RemoveChip deletes a chip record (entered in error).
	RemoveChip(ctx context.Context, id int64) error
	FindChipsByAnimal(ctx context.Context, animalID int64) ([]*Chip, error)
}

// set stores *v in *dst when v is not nil: one field of an update.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}
