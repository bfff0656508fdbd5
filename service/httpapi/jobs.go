package httpapi

import (
	"context"
	"net/http"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
)

// jobRoutes are the print and engrave endpoints (package service/jobs).
// A licensing office (intake) makes batches of pre-numbered tags; the
// counter (clinic, intake) queues one licence's tag and reprints it.
func (s *Server) jobRoutes() []route {
	office := []service.Role{service.RoleIntake}
	return []route{
		{"POST /api/v1/licences/{id}/tag", counter, s.handleQueueTag},
		{"GET /api/v1/jobs", staff, s.handleFindJobs},
		{"GET /api/v1/jobs/{id}", staff, s.handleGetJob},
		{"POST /api/v1/jobs/{id}/reprint", counter, s.handleReprint},
		{"POST /api/v1/tag-batches", office, s.handleCreateBatch},
		{"GET /api/v1/tag-batches", office, s.handleFindBatches},
		{"GET /api/v1/tag-batches/{id}", office, s.handleGetBatch},
		{"POST /api/v1/tag-batches/{id}/resume", office, s.handleResumeBatch},
		{"GET /api/v1/devices", staff, s.handleDevices},
	}
}

// tagRequest asks for a licence's tag.
type tagRequest struct {
	// Kind is "print" (a label, while the owner waits) or "engrave".
	Kind service.JobKind `json:"kind"`
}

// issuer returns the job issuer, or answers 404 when the server has none.
func (s *Server) issuer(w http.ResponseWriter, r *http.Request) *jobs.Orders {
	if s.jobs == nil {
		s.writeError(w, r, service.Errorf(service.ENOTFOUND, "No printers or engravers on this server."))
	}
	return s.jobs
}

// wake tells the worker work was queued.
func (s *Server) wake() {
	if s.worker != nil {
		s.worker.Wake()
	}
}

// handleQueueTag queues the tag of a licence: 201 with the new job, or
// 200 with the licence's existing job (one tag per licence; a lost or
// stolen tag is replaced by a duplicate licence, 64.40).
func (s *Server) handleQueueTag(w http.ResponseWriter, r *http.Request) {
	is := s.issuer(w, r)
	if is == nil {
		return
	}
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req tagRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Kind == "" {
		req.Kind = service.JobPrint
	}
	ctx, ch := s.changing(r, "job.create", "job", 0, string(req.Kind)+" licence "+strconv.FormatInt(id, 10))
	j, created, err := is.Queue(ctx, id, req.Kind)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.queued(w, r, ch, created, j.ID, j)
}

func (s *Server) handleFindJobs(w http.ResponseWriter, r *http.Request) {
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f := service.JobFilter{Offset: off, Limit: lim}
	if f.State, err = queryState(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	if l := r.URL.Query().Get("licence"); l != "" {
		id, err := queryInt(r, "licence", 0)
		if err != nil || id <= 0 {
			s.writeError(w, r, service.Errorf(service.EINVALID, "licence must be an id."))
			return
		}
		lid := int64(id)
		f.LicenceID = &lid
	}
	js, total, err := s.store.FindJobs(r.Context(), f)
	writeList(s, w, r, js, total, err)
}

func (s *Server) handleGetJob(w http.ResponseWriter, r *http.Request) {
	getByID(s, w, r, s.store.FindJobByID)
}

// handleReprint queues a failed job again; it makes the same tag number.
func (s *Server) handleReprint(w http.ResponseWriter, r *http.Request) {
	requeue(s, w, r, "job.reprint", "job", (*jobs.Orders).Reprint, func(j *service.Job) int64 { return j.ID })
}

// handleCreateBatch reserves a run of pre-numbered tags for a year and
// queues them: 201 with the batch, or 200 with the batch of the same key.
func (s *Server) handleCreateBatch(w http.ResponseWriter, r *http.Request) {
	is := s.issuer(w, r)
	if is == nil {
		return
	}
	var req jobs.BatchRequest
	if err := decodeJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Kind == "" {
		req.Kind = service.JobEngrave
	}
	ctx, ch := s.changing(r, "batch.create", "tag-batch", 0, req.Jurisdiction)
	b, created, err := is.QueueBatch(ctx, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.queued(w, r, ch, created, b.ID, b)
}

func (s *Server) handleFindBatches(w http.ResponseWriter, r *http.Request) {
	off, lim, err := page(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	f := service.TagBatchFilter{Offset: off, Limit: lim}
	if f.State, err = queryState(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	if y := r.URL.Query().Get("year"); y != "" {
		year, err := queryInt(r, "year", 0)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		f.Year = &year
	}
	list0, total, err := s.store.FindTagBatches(r.Context(), f)
	writeList(s, w, r, list0, total, err)
}

func (s *Server) handleGetBatch(w http.ResponseWriter, r *http.Request) {
	getByID(s, w, r, s.store.FindTagBatchByID)
}

// handleResumeBatch queues a failed batch again from its next tag.
func (s *Server) handleResumeBatch(w http.ResponseWriter, r *http.Request) {
	requeue(s, w, r, "batch.resume", "tag-batch", (*jobs.Orders).ResumeBatch, func(b *service.TagBatch) int64 { return b.ID })
}

// handleDevices reports every printer and engraver now.
func (s *Server) handleDevices(w http.ResponseWriter, r *http.Request) {
	var st []jobs.Status
	if s.worker != nil {
		st = s.worker.Statuses(r.Context())
	}
	s.writeJSON(w, r, http.StatusOK, list[jobs.Status]{Items: nonNil(st), Total: len(st)})
}

// queryState reads the optional state filter of a job or batch list.
func queryState(r *http.Request) (*service.JobState, error) {
	st := service.JobState(r.URL.Query().Get("state"))
	if st == "" {
		return nil, nil
	}
	if !st.Valid() {
		return nil, service.Errorf(service.EINVALID, "state must be queued, sent, done or failed.")
	}
	return &st, nil
}

// queued answers a queued job or batch v of id: 201 when created (its
// change ch recorded and the worker woken), 200 when it was queued
// before (the store wrote no event for it).
func (s *Server) queued(w http.ResponseWriter, r *http.Request, ch *service.Change, created bool, id int64, v any) {
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		s.changed(r, ch, id)
		s.wake()
	}
	s.writeJSON(w, r, status, v)
}

// getByID answers what find gives for the path's id.
func getByID[T any](s *Server, w http.ResponseWriter, r *http.Request, find func(context.Context, int64) (T, error)) {
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := find(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, r, http.StatusOK, v)
}

// requeue queues again, with run, the failed job or batch of the path's
// id, records the change as action on entity and wakes the worker.
func requeue[T any](s *Server, w http.ResponseWriter, r *http.Request, action, entity string,
	run func(*jobs.Orders, context.Context, int64) (T, error), idOf func(T) int64) {
	is := s.issuer(w, r)
	if is == nil {
		return
	}
	id, err := pathID(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, ch := s.changing(r, action, entity, id, "")
	v, err := run(is, ctx, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.changed(r, ch, idOf(v))
	s.wake()
	s.writeJSON(w, r, http.StatusOK, v)
}
