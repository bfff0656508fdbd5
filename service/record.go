package service

import "context"

// Record is everything an officer or the counter needs when a chip or a
// tag is read: the animal, its owner and chips, its current licences, the
// latest rabies vaccination, an open dangerous designation, open
// quarantines and the impoundments of the last twelve months. Package
// rules turns a Record and a date into statuses, alerts and fees.
type Record struct {
	Animal Animal `json:"animal"`
	// Owner is nil for an animal with no known owner.
	Owner *Owner `json:"owner,omitempty"`
	Chips []Chip `json:"chips"`
	// Licences holds the animal's licences that are still in force or
	// expired within the last year, newest first.
	Licences []Licence `json:"licences"`
	// Rabies is the latest vaccination, nil when none is recorded.
	Rabies *RabiesVaccination `json:"rabies,omitempty"`
	// Dangerous is the latest designation not rescinded, or nil.
	Dangerous *DangerousDesignation `json:"dangerous,omitempty"`
	// Quarantines holds those not released.
	Quarantines []Quarantine `json:"quarantines"`
	// Impounds holds those with intake in the last twelve months, and any
	// still open, newest first.
	Impounds []Impoundment `json:"impounds"`
	// Bites holds bites in the last twelve months, newest first.
	Bites []BiteIncident `json:"bites"`

	// MatchedLicence is the licence a tag lookup found (it may be revoked
	// or replaced: a stolen tag), nil for other lookups.
	MatchedLicence *Licence `json:"matchedLicence,omitempty"`
	// MatchedChip is the chip a chip lookup found.
	MatchedChip *Chip `json:"matchedChip,omitempty"`
}

// RecordService resolves an identifier to a Record in one query path.
type RecordService interface {
	// FindRecordByChip finds the animal carrying the normalised chip
	// code (chipid.ID.Code). ENOTFOUND when no animal has it.
	FindRecordByChip(ctx context.Context, code string) (*Record, error)
	// FindRecordByTag finds the animal by licence tag number.
	FindRecordByTag(ctx context.Context, jurisdiction string, year, tag int) (*Record, error)
	// FindRecordByAnimal builds the record of an animal by id.
	FindRecordByAnimal(ctx context.Context, animalID int64) (*Record, error)
}
