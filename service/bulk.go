package service

import "context"

// Batch is a set of records imported together: all of them or none.
// Records keep the IDs they carry, so that references between them
// (Animal.OwnerID, Chip.AnimalID, ...) hold; an ID already used in the
// store is a conflict. Licences with TagNumber 0 are numbered as by
// CreateLicence.
type Batch struct {
	Owners       []*Owner
	Animals      []*Animal
	Chips        []*Chip
	Licences     []*Licence
	Vaccinations []*RabiesVaccination
}

// Len returns the number of records in b.
func (b *Batch) Len() int {
	return len(b.Owners) + len(b.Animals) + len(b.Chips) + len(b.Licences) + len(b.Vaccinations)
}

// Prepare validates every record of b before a store writes any, and
// prepares its licences (Licence.Prepare).
func (b *Batch) Prepare() error {
	for _, o := range b.Owners {
		if err := o.Validate(); err != nil {
			return err
		}
	}
	for _, a := range b.Animals {
		if err := a.Validate(); err != nil {
			return err
		}
	}
	for _, c := range b.Chips {
		if err := c.Validate(); err != nil {
			return err
		}
	}
	for _, l := range b.Licences {
		if err := l.Prepare(); err != nil {
			return err
		}
	}
	for _, v := range b.Vaccinations {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// BulkService moves whole tables in and out, for CSV import and export.
type BulkService interface {
	// Import stores b in one transaction. An error (ECONFLICT for a
	// duplicate id, chip or tag; EINVALID for a dangling reference)
	// leaves the store unchanged.
	Import(ctx context.Context, b *Batch) error

	// The Each functions call fn for every record in id order, stopping
	// at fn's first error.
	EachOwner(ctx context.Context, fn func(*Owner) error) error
	EachAnimal(ctx context.Context, fn func(*Animal) error) error
	EachChip(ctx context.Context, fn func(*Chip) error) error
	EachLicence(ctx context.Context, fn func(*Licence) error) error
	EachVaccination(ctx context.Context, fn func(*RabiesVaccination) error) error
}
