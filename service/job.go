package service

import (
	"context"
	"fmt"
	"time"
)

// JobKind says which device makes the tag.
type JobKind string

// Job kinds.
const (
	JobPrint   JobKind = "print"
	JobEngrave JobKind = "engrave"
)

// JobState is where a job is.
type JobState string

// Job states: queued → sent → done, or failed (with the device's error).
// Two ends need a person to look at the tag: unconfirmed (sent, not
// confirmed: the printer's link gives no status back, as a Brother QL
// on the network) and check (an engraving whose end could not be
// confirmed; the tag may be complete). A failed, unconfirmed or check
// job may be queued again, with the same number.
const (
	JobQueued      JobState = "queued"
	JobSent        JobState = "sent"
	JobDone        JobState = "done"
	JobFailed      JobState = "failed"
	JobUnconfirmed JobState = "unconfirmed"
	JobCheck       JobState = "check"
)

// Valid reports whether s is a known state.
func (s JobState) Valid() bool {
	switch s {
	case JobQueued, JobSent, JobDone, JobFailed, JobUnconfirmed, JobCheck:
		return true
	}
	return false
}

// Job is one print or engrave order for a licence tag.
type Job struct {
	ID        int64   `json:"id"`
	Kind      JobKind `json:"kind"`
	LicenceID int64   `json:"licence_id"`
	// Reason is why the tag is made: "new", "duplicate", "reprint".
	Reason string `json:"reason"`
	// Key makes creation idempotent; it defaults to JobKey(LicenceID,
	// Reason). Creating a job whose key exists returns the existing job.
	Key      string   `json:"key"`
	Device   string   `json:"device,omitempty"`
	State    JobState `json:"state"`
	Error    string   `json:"error,omitempty"` // the device's last error
	Attempts int      `json:"attempts"`

	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Validate checks a job to be created: a print or engrave order for a
// licence, with a reason.
func (j *Job) Validate() error {
	switch {
	case j.Kind != JobPrint && j.Kind != JobEngrave:
		return Errorf(EINVALID, "Job kind must be print or engrave.")
	case j.LicenceID == 0 || j.Reason == "":
		return Errorf(EINVALID, "Job needs a licence and a reason.")
	}
	return nil
}

// JobKey is the default idempotency key of a job.
func JobKey(licenceID int64, reason string) string {
	return fmt.Sprintf("licence/%d/%s", licenceID, reason)
}

// JobUpdate changes a job; nil fields stay.
type JobUpdate struct {
	State  *JobState
	Device *string
	Error  *string
}

// Apply changes j as u says. u is checked by its Validate.
func (j *Job) Apply(u JobUpdate) {
	set(&j.State, u.State)
	set(&j.Device, u.Device)
	set(&j.Error, u.Error)
}

// Validate checks the new state, if any.
func (u *JobUpdate) Validate() error {
	if u.State != nil && !u.State.Valid() {
		return Errorf(EINVALID, "Job state must be queued, sent, done, failed, unconfirmed or check.")
	}
	return nil
}

// JobFilter selects jobs.
type JobFilter struct {
	State         *JobState
	LicenceID     *int64
	Offset, Limit int
}

// JobService persists print and engrave jobs.
type JobService interface {
	// CreateJob stores j as queued. When a job with the same Key exists,
	// j is filled with it instead and created is false.
	CreateJob(ctx context.Context, j *Job) (created bool, err error)
	FindJobByID(ctx context.Context, id int64) (*Job, error)
	FindJobs(ctx context.Context, f JobFilter) ([]*Job, int, error)
	// ClaimJob marks the oldest queued job of kind as sent to device and
	// returns it, counting an attempt; ENOTFOUND when none is queued.
	ClaimJob(ctx context.Context, kind JobKind, device string) (*Job, error)
	UpdateJob(ctx context.Context, id int64, u JobUpdate) (*Job, error)
}
