package jobs

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// Job reasons.
const (
	ReasonNew       = "new"       // the tag of a licence as sold
	ReasonDuplicate = "duplicate" // the tag of a licence replacing a lost or stolen one (64.40)
)

// Orders are the tag work orders: they decide which tag a job makes and
// queue jobs. Tag numbers come only from the store: a licence's number
// when it was issued, a batch's range when it was created. Nothing here ever allocates a number, so a
// retried, reprinted or recovered job makes the same tag again.
type Orders struct {
	Store service.Store
	// Rules names the jurisdictions: a licence's profile id
	// ("minneapolis") is matched to the tag design whose city name its
	// profile name contains ("City of Minneapolis" has "Minneapolis").
	Rules   *rules.Set
	Designs *tags.Designs
	Keys    *check.Keyring
}

// ErrNoDesign: no valid tag design fits the jurisdiction and year.
var ErrNoDesign = errors.New("jobs: no tag design")

// Design returns the valid licence tag design of jurisdiction profile id
// for year.
func (is *Orders) Design(jurisdiction string, year int) (*tags.Design, error) {
	name := jurisdiction
	if is.Rules != nil {
		// The one resolver: "minneapolis", "Minneapolis" and "MPLS" alike.
		p, err := is.Rules.Resolve(jurisdiction)
		if err != nil {
			return nil, fmt.Errorf("%w: %s", ErrNoDesign, service.ErrorMessage(err))
		}
		name = p.Name
	}
	name = strings.ToLower(name)
	for _, d := range is.Designs.All() {
		if d.Kind != "licence" || d.Name == "" || !strings.Contains(name, strings.ToLower(d.Name)) {
			continue
		}
		if d.Year != year && d.Year != 0 {
			continue
		}
		if err := is.Designs.Err(d); err != nil {
			return nil, fmt.Errorf("%w for %s %d: %w", ErrNoDesign, jurisdiction, year, err)
		}
		return d, nil
	}
	return nil, fmt.Errorf("%w for %s %d", ErrNoDesign, jurisdiction, year)
}

// Approved returns nil when the design of jurisdiction's tags for year
// was approved (licensing.DesignApproved), else the error to show.
func (is *Orders) Approved(ctx context.Context, jurisdiction string, year int) error {
	d, err := is.Design(jurisdiction, year)
	if err != nil {
		return service.Errorf(service.EINVALID, "No tag can be made: %v", err)
	}
	return licensing.DesignApproved(ctx, is.Store, d, year)
}

// LicenceTag returns the tag of licence l: its design, year, number and
// its animal's species.
func (is *Orders) LicenceTag(ctx context.Context, l *service.Licence) (*tags.Tag, error) {
	a, err := is.Store.FindAnimalByID(ctx, l.AnimalID)
	if err != nil {
		return nil, err
	}
	d, err := is.Design(l.Jurisdiction, l.Year)
	if err != nil {
		return nil, err
	}
	t, err := d.Issue(is.Keys, l.Year, l.TagNumber, string(a.Species))
	if err != nil {
		return nil, fmt.Errorf("jobs: licence %d: %w", l.ID, err)
	}
	return t, nil
}

// BatchTag returns tag number n of batch b.
func (is *Orders) BatchTag(b *service.TagBatch, n int) (*tags.Tag, error) {
	if n < b.First || n > b.Last {
		return nil, fmt.Errorf("jobs: tag %d is not in batch %d (%d-%d)", n, b.ID, b.First, b.Last)
	}
	d, err := is.Design(b.Jurisdiction, b.Year)
	if err != nil {
		return nil, err
	}
	t, err := d.Issue(is.Keys, b.Year, n, b.Species)
	if err != nil {
		return nil, fmt.Errorf("jobs: batch %d: %w", b.ID, err)
	}
	return t, nil
}

// Queue asks for the tag of a licence to be printed or engraved. It is
// idempotent: a licence gets one job (one tag) whatever the kind and
// however often it is asked; created is false when the job existed. The
// tag of a licence that replaces a lost or stolen one (64.40) is queued
// with reason "duplicate"; a licence that was replaced or revoked gets
// none.
func (is *Orders) Queue(ctx context.Context, licenceID int64, kind service.JobKind) (*service.Job, bool, error) {
	if kind != service.JobPrint && kind != service.JobEngrave {
		return nil, false, service.Errorf(service.EINVALID, "Job kind must be print or engrave.")
	}
	l, err := is.Store.FindLicenceByID(ctx, licenceID)
	if err != nil {
		return nil, false, err
	}
	switch l.Status {
	case service.LicenceReplaced:
		return nil, false, service.Errorf(service.ECONFLICT,
			"Licence %d was replaced by a duplicate (64.40); make the duplicate's tag.", l.ID)
	case service.LicenceRevoked:
		return nil, false, service.Errorf(service.ECONFLICT, "Licence %d is revoked; no tag is made.", l.ID)
	}
	if _, err := is.LicenceTag(ctx, l); err != nil {
		if service.ErrorCode(err) != service.EINTERNAL {
			return nil, false, err
		}
		// The cause names the tag library's layers ("jobs: licence 5:
		// tags: ..."): the client gets only what it can act on.
		return nil, false, service.Errorf(service.EINVALID, "No tag can be made for licence %d: the %s %d tag design cannot make tag number %d for this animal.",
			l.ID, l.Jurisdiction, l.Year, l.TagNumber)
	}
	if err := is.Approved(ctx, l.Jurisdiction, l.Year); err != nil {
		return nil, false, err
	}
	reason := ReasonNew
	if l.Replaces != 0 {
		reason = ReasonDuplicate
	}
	j := &service.Job{Kind: kind, LicenceID: l.ID, Reason: reason}
	created, err := is.Store.CreateJob(ctx, j)
	if err != nil {
		return nil, false, err
	}
	return j, created, nil
}

// Reprint queues a failed job again. The job keeps its licence, so the
// tag made has the same number: a reprint after a fault never takes a
// new one. A job that is done is refused (ECONFLICT): its tag exists,
// and a lost or stolen tag is replaced by a duplicate licence (64.40).
func (is *Orders) Reprint(ctx context.Context, jobID int64) (*service.Job, error) {
	j, err := is.Store.FindJobByID(ctx, jobID)
	if err != nil {
		return nil, err
	}
	switch j.State {
	case service.JobQueued:
		return j, nil
	case service.JobSent:
		return nil, service.Errorf(service.ECONFLICT, "Job %d is at %s now.", j.ID, j.Device)
	case service.JobDone:
		return nil, service.Errorf(service.ECONFLICT,
			"Job %d made its tag; a lost or stolen tag needs a duplicate licence (64.40).", j.ID)
	}
	st, none := service.JobQueued, ""
	return is.Store.UpdateJob(ctx, j.ID, service.JobUpdate{State: &st, Error: &none})
}

// BatchRequest asks for Count pre-numbered tags of one jurisdiction and
// year.
type BatchRequest struct {
	Kind         service.JobKind `json:"kind"`
	Jurisdiction string          `json:"jurisdiction"`
	Year         int             `json:"year"`
	Count        int             `json:"count"`
	Species      string          `json:"species,omitempty"`
	// Key makes the request idempotent (a form posted twice); empty
	// makes every request a new batch.
	Key string `json:"key,omitempty"`
}

// QueueBatch reserves Count consecutive tag numbers for the year and
// queues them to be made. The numbers come from the licence counter in
// one transaction, so licences sold meanwhile never take one of them;
// a request with a Key that exists returns that batch and reserves
// nothing (created false).
func (is *Orders) QueueBatch(ctx context.Context, r BatchRequest) (*service.TagBatch, bool, error) {
	if is.Rules != nil {
		p, err := is.Rules.Resolve(r.Jurisdiction)
		if err != nil {
			return nil, false, err
		}
		r.Jurisdiction = p.ID
	}
	d, err := is.Design(r.Jurisdiction, r.Year)
	if err != nil {
		return nil, false, service.Errorf(service.EINVALID, "No tag design for %s %d.", r.Jurisdiction, r.Year)
	}
	if err := licensing.DesignApproved(ctx, is.Store, d, r.Year); err != nil {
		return nil, false, err
	}
	if r.Count < 1 || r.Count > d.MaxNumber() {
		return nil, false, service.Errorf(service.EINVALID, "A batch has 1 to %d tags.", d.MaxNumber())
	}
	if r.Species != "" {
		if _, err := d.Issue(is.Keys, r.Year, 1, r.Species); err != nil {
			return nil, false, service.Errorf(service.EINVALID, "The %d design has no %s tag.", r.Year, r.Species)
		}
	}
	key := r.Key
	if key == "" {
		key = "batch/" + rand.Text()
	}
	b := &service.TagBatch{Kind: r.Kind, Jurisdiction: r.Jurisdiction, Year: r.Year, Species: r.Species, Key: key}
	created, err := is.Store.CreateTagBatch(ctx, b, r.Count)
	if err != nil {
		return nil, false, err
	}
	if created && b.Last > d.MaxNumber() {
		// The numbers are reserved; they just do not fit the design.
		st, msg := service.JobFailed, fmt.Sprintf("tags %d-%d do not fit the %d-digit numbers of %v", b.First, b.Last, d.Digits, d)
		if b, err = is.Store.UpdateTagBatch(ctx, b.ID, service.TagBatchUpdate{State: &st, Error: &msg}); err != nil {
			return nil, false, err
		}
	}
	return b, created, nil
}

// ResumeBatch queues a failed batch again; it goes on from its first
// tag not made, with the numbers it reserved.
func (is *Orders) ResumeBatch(ctx context.Context, id int64) (*service.TagBatch, error) {
	b, err := is.Store.FindTagBatchByID(ctx, id)
	if err != nil {
		return nil, err
	}
	switch b.State {
	case service.JobQueued:
		return b, nil
	case service.JobSent:
		return nil, service.Errorf(service.ECONFLICT, "Batch %d is at %s now.", b.ID, b.Device)
	case service.JobDone:
		return nil, service.Errorf(service.ECONFLICT, "Batch %d is done.", b.ID)
	}
	st, none := service.JobQueued, ""
	return is.Store.UpdateTagBatch(ctx, b.ID, service.TagBatchUpdate{State: &st, Error: &none})
}
