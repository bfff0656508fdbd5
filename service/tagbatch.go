package service

import (
	"context"
	"time"
)

// TagBatch is a run of pre-numbered tags for one jurisdiction and year,
// made ahead of sale (a licensing office engraves a year's tags on a
// laser). Its numbers First..Last are reserved from the same counter
// that numbers licences, so no licence is later given one of them
// automatically; a licence sold with one of these tags names the number
// (Licence.TagNumber). Minneapolis 64.30: the tag carries the register
// number and the year.
type TagBatch struct {
	ID           int64   `json:"id"`
	Kind         JobKind `json:"kind"`
	Jurisdiction string  `json:"jurisdiction"` // profile id, "minneapolis"
	Year         int     `json:"year"`
	First        int     `json:"first"`
	Last         int     `json:"last"`
	// Species is the species line of the tags ("dog"); empty means the
	// design's first.
	Species string `json:"species,omitempty"`
	// Key makes creation idempotent: a batch whose key exists is returned
	// instead of reserving another range.
	Key    string   `json:"key"`
	Device string   `json:"device,omitempty"`
	State  JobState `json:"state"`
	// Done counts the tags made, from First: the next tag to make is
	// First+Done.
	Done     int    `json:"done"`
	Error    string `json:"error,omitempty"`
	Attempts int    `json:"attempts"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Count is the number of tags in the batch.
func (b *TagBatch) Count() int { return b.Last - b.First + 1 }

// MaxTagBatch is the most tags one batch may reserve.
const MaxTagBatch = 100000

// Validate checks a batch to be created with count tags: a print or
// engrave run for a jurisdiction and year, 1 to MaxTagBatch tags, with a
// key.
func (b *TagBatch) Validate(count int) error {
	switch {
	case b.Kind != JobPrint && b.Kind != JobEngrave:
		return Errorf(EINVALID, "Batch kind must be print or engrave.")
	case b.Jurisdiction == "" || b.Year < 1 || b.Year > 9999:
		return Errorf(EINVALID, "Batch needs a jurisdiction and a year.")
	case count < 1 || count > MaxTagBatch:
		return Errorf(EINVALID, "A batch has 1 to %d tags.", MaxTagBatch)
	case b.Key == "":
		return Errorf(EINVALID, "Batch key required.")
	}
	return nil
}

// TagBatchUpdate changes a batch; nil fields stay.
type TagBatchUpdate struct {
	State  *JobState
	Device *string
	Error  *string
	Done   *int
}

// Apply changes b as u says (nil fields stay) and checks the done count
// fits the batch. u's state is checked by its Validate.
func (b *TagBatch) Apply(u TagBatchUpdate) error {
	set(&b.State, u.State)
	set(&b.Device, u.Device)
	set(&b.Error, u.Error)
	set(&b.Done, u.Done)
	if b.Done < 0 || b.Done > b.Count() {
		return Errorf(EINVALID, "Batch done count must be 0 to %d.", b.Count())
	}
	return nil
}

// Validate checks the new state, if any. The done count is checked
// against the stored batch.
func (u *TagBatchUpdate) Validate() error {
	if u.State != nil && !u.State.Valid() {
		return Errorf(EINVALID, "Batch state must be queued, sent, done, failed, unconfirmed or check.")
	}
	return nil
}

// TagBatchFilter selects batches.
type TagBatchFilter struct {
	State         *JobState
	Jurisdiction  *string
	Year          *int
	Offset, Limit int
}

// TagBatchService persists batches of pre-numbered tags.
type TagBatchService interface {
	// CreateTagBatch reserves count consecutive tag numbers for b's
	// jurisdiction and year, atomically with licence numbering, fills
	// First and Last, and stores b as queued. When a batch with the same
	// Key exists, b is filled with it instead, nothing is reserved and
	// created is false.
	CreateTagBatch(ctx context.Context, b *TagBatch, count int) (created bool, err error)
	FindTagBatchByID(ctx context.Context, id int64) (*TagBatch, error)
	FindTagBatches(ctx context.Context, f TagBatchFilter) ([]*TagBatch, int, error)
	// ClaimTagBatch marks the oldest queued batch of kind as sent to
	// device and returns it, counting an attempt; ENOTFOUND when none.
	ClaimTagBatch(ctx context.Context, kind JobKind, device string) (*TagBatch, error)
	UpdateTagBatch(ctx context.Context, id int64, u TagBatchUpdate) (*TagBatch, error)
}
