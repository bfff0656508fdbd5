package httpapi

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// batchAuditor is implemented by stores that can write many audit events
// in one transaction; the audit writer uses it when present.
type batchAuditor interface {
	CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error
}

// auditWriter writes audit events in the order they are logged, from one
// goroutine, so that a lookup never waits for the database.
//
// Ordering and durability: every event goes through one FIFO queue and
// one writer, so the stored order is the order of logging. A change
// (logged with wait) returns only after its event — and so every event
// queued before it — is stored. A lookup's event is stored within one
// batch (auditLinger, a second) after the answer; events still
// queued when the process dies without Close are lost (at most the queue
// length), and Close writes everything queued. When the queue is full, logging
// blocks: back-pressure, never loss.
type auditWriter struct {
	store service.AuditService
	log   *slog.Logger
	q     chan auditItem
	done  chan struct{}

	mu     sync.RWMutex // held for reading while queueing, for writing by close
	closed bool
}

type auditItem struct {
	ev   *service.AuditEvent
	sync chan struct{} // closed once ev is written; nil for async
}

const (
	auditQueue = 16384
	// auditBatch bounds a batch's transaction, about 20 µs an event,
	// which a change's event may wait behind.
	auditBatch = 1024
	// auditLinger is how long the writer waits for more lookup events
	// before committing a batch (group commit): one commit per batch
	// instead of one per lookup. A change's event is written at once.
	// Commits are kept rare on purpose: each one writes every index page
	// its events touched (the entity index's are all over the file). The
	// SQLite store keeps the log in a file of its own, so these commits
	// no longer empty the records' read caches, as they did when they
	// went to the records' file; a batch of 8192 events instead of 1024
	// measured no faster at a million animals and cost 8 MB resident.
	auditLinger = time.Second
)

func newAuditWriter(store service.AuditService, log *slog.Logger) *auditWriter {
	a := &auditWriter{store: store, log: log, q: make(chan auditItem, auditQueue), done: make(chan struct{})}
	go a.run()
	return a
}

// add queues ev. When wait is set it returns after ev is stored, or when
// ctx is done.
func (a *auditWriter) add(ctx context.Context, ev *service.AuditEvent, wait bool) {
	enrich(ctx, ev)
	it := auditItem{ev: ev}
	if wait {
		it.sync = make(chan struct{})
	}
	a.mu.RLock()
	if a.closed {
		a.mu.RUnlock()
		return
	}
	select {
	case a.q <- it:
	case <-ctx.Done():
		a.mu.RUnlock()
		return
	}
	a.mu.RUnlock()
	if wait {
		select {
		case <-it.sync:
		case <-ctx.Done():
		}
	}
}

// enrich completes ev from the request it was logged in: the caller's
// token id (one per entry: two tokens may share a name) and, for a
// PATCH, the fields it changed.
func enrich(ctx context.Context, ev *service.AuditEvent) {
	if ev == nil {
		return // a flush's marker
	}
	if t := callerOf(ctx); t != nil && ev.TokenID == 0 {
		ev.TokenID = t.ID
	}
	if f := fieldsOf(ctx); len(f) > 0 && strings.HasSuffix(ev.Action, ".update") && !strings.Contains(ev.Detail, "fields: ") {
		d := "fields: " + strings.Join(f, ",")
		if ev.Detail != "" {
			d = ev.Detail + "; " + d
		}
		ev.Detail = d
	}
}

func (a *auditWriter) run() {
	batch := make([]auditItem, 0, auditBatch)
	for {
		it, ok := <-a.q
		if !ok {
			close(a.done)
			return
		}
		batch = append(batch[:0], it)
		waiting := it.sync != nil
		linger := time.NewTimer(auditLinger)
	fill:
		for len(batch) < auditBatch {
			if waiting {
				// A change waits: take only what is queued already.
				select {
				case it, ok := <-a.q:
					if !ok {
						break fill
					}
					batch = append(batch, it)
				default:
					break fill
				}
				continue
			}
			select {
			case it, ok := <-a.q:
				if !ok {
					break fill
				}
				batch = append(batch, it)
				waiting = it.sync != nil
			case <-linger.C:
				break fill
			}
		}
		linger.Stop()
		a.write(batch)
	}
}

func (a *auditWriter) write(batch []auditItem) {
	// The request that logged an event may be gone; the write must not
	// depend on its context.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if ba, ok := a.store.(batchAuditor); ok && len(batch) > 1 {
		evs := make([]*service.AuditEvent, 0, len(batch))
		for _, it := range batch {
			if it.ev != nil {
				evs = append(evs, it.ev)
			}
		}
		if len(evs) > 0 {
			if err := ba.CreateAuditEvents(ctx, evs); err != nil {
				// One bad event must not lose the batch: store them singly.
				a.log.Warn("httpapi: audit batch refused, writing one by one", "events", len(evs), "err", err)
				a.writeEach(ctx, batch)
			}
		}
	} else {
		a.writeEach(ctx, batch)
	}
	for _, it := range batch {
		if it.sync != nil {
			close(it.sync)
		}
	}
}

// writeEach stores the events one by one, logging those refused.
func (a *auditWriter) writeEach(ctx context.Context, batch []auditItem) {
	for _, it := range batch {
		if it.ev == nil {
			continue // a flush's mark
		}
		it.ev.ID = 0 // an id from a rolled-back batch is not taken
		if err := a.store.CreateAuditEvent(ctx, it.ev); err != nil {
			a.log.Error("httpapi: audit write failed", "action", it.ev.Action, "err", err)
		}
	}
}

// flush returns once every event queued before it is stored, or when
// ctx is done: a change whose event its store writes (Server.changing)
// flushes first, so that the stored order stays the order of logging.
func (a *auditWriter) flush(ctx context.Context) { a.add(ctx, nil, true) }

// close writes everything queued and stops the writer. Events logged
// after close are dropped.
func (a *auditWriter) close() {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.q)
	}
	a.mu.Unlock()
	<-a.done
}
