package service

import (
	"cmp"
	"context"
	"slices"
)

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
	// Permits are the permits held for the animal (an off-leash permit,
	// 64.55) and Agreements its open shelter sterilisation agreements
	// (64.140), in id order; permit.go.
	Permits    []Permit            `json:"permits,omitempty"`
	Agreements []AdoptionAgreement `json:"agreements,omitempty"`

	// MatchedLicence is the licence a tag lookup found (it may be revoked
	// or replaced: a stolen tag), nil for other lookups.
	MatchedLicence *Licence `json:"matched_licence,omitempty"`
	// MatchedChip is the chip a chip lookup found.
	MatchedChip *Chip `json:"matched_chip,omitempty"`
}

// Sort puts the record's lists in the order documented on Record:
// chips oldest first (by id); licences, quarantines, impoundments and
// bites newest first by their date, ties newest id first. A store calls
// it after gathering the rows, in whatever order its query gave them.
func (r *Record) Sort() {
	slices.SortFunc(r.Chips, func(a, b Chip) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(r.Licences, func(a, b Licence) int {
		return cmp.Or(cmp.Compare(b.IssuedOn, a.IssuedOn), cmp.Compare(b.ID, a.ID))
	})
	slices.SortFunc(r.Quarantines, func(a, b Quarantine) int {
		return cmp.Or(cmp.Compare(b.Start, a.Start), cmp.Compare(b.ID, a.ID))
	})
	slices.SortFunc(r.Impounds, func(a, b Impoundment) int {
		return cmp.Or(cmp.Compare(b.IntakeOn, a.IntakeOn), cmp.Compare(b.ID, a.ID))
	})
	slices.SortFunc(r.Bites, func(a, b BiteIncident) int {
		return cmp.Or(cmp.Compare(b.Date, a.Date), cmp.Compare(b.ID, a.ID))
	})
}

// MatchChip sets MatchedChip to a copy of the record's chip with code,
// and leaves it nil when the record has none.
func (r *Record) MatchChip(code string) {
	r.MatchedChip = nil
	for i := range r.Chips {
		if r.Chips[i].Code == code {
			c := r.Chips[i]
			r.MatchedChip = &c
		}
	}
}

// DropLicencesExpiredBefore removes from Licences those that expired
// before since (a year before today: Licences holds the last year's).
// A tag lookup gathers the matched licence however old it is; once
// MatchedLicence holds it, the list is cut back to the window.
func (r *Record) DropLicencesExpiredBefore(since Date) {
	r.Licences = slices.DeleteFunc(r.Licences, func(l Licence) bool { return l.ExpiresOn < since })
}

// DropHistoryBefore removes the impoundments that began before since and
// are closed, and the bites before since (since is a year before today:
// a lookup shows the last twelve months' impoundments and bites, and any
// impoundment still open, however old). A store may gather more and
// call this; one whose query windows them already may skip it.
func (r *Record) DropHistoryBefore(since Date) {
	r.Impounds = slices.DeleteFunc(r.Impounds, func(i Impoundment) bool { return i.IntakeOn < since && i.Disposition != Held })
	r.Bites = slices.DeleteFunc(r.Bites, func(b BiteIncident) bool { return b.Date < since })
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

// RecordStreamer is a store that builds every animal's record in one
// pass: EachRecord calls fn with the record FindRecordByAnimal gives of
// each animal, in animal id order, all of one snapshot, stopping at fn's
// first error. A handheld's first pull reads it (service/offline); a
// store without it is read one animal at a time.
type RecordStreamer interface {
	EachRecord(ctx context.Context, fn func(*Record) error) error
}
