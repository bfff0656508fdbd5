package httpapi

import (
	"context"
	"log/slog"
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
// batch (milliseconds) after the answer; events still queued when the
// process dies without Close are lost (at most the queue length), and
// Close writes everything queued. When the queue is full, logging
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
	auditQueue = 8192
	auditBatch = 512
)

func newAuditWriter(store service.AuditService, log *slog.Logger) *auditWriter {
	a := &auditWriter{store: store, log: log, q: make(chan auditItem, auditQueue), done: make(chan struct{})}
	go a.run()
	return a
}

// add queues ev. When wait is set it returns after ev is stored, or when
// ctx is done.
func (a *auditWriter) add(ctx context.Context, ev *service.AuditEvent, wait bool) {
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

func (a *auditWriter) run() {
	batch := make([]auditItem, 0, auditBatch)
	for {
		it, ok := <-a.q
		if !ok {
			close(a.done)
			return
		}
		batch = append(batch[:0], it)
	fill:
		for len(batch) < auditBatch {
			select {
			case it, ok := <-a.q:
				if !ok {
					break fill
				}
				batch = append(batch, it)
			default:
				break fill
			}
		}
		a.write(batch)
	}
}

func (a *auditWriter) write(batch []auditItem) {
	// The request that logged an event may be gone; the write must not
	// depend on its context.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if ba, ok := a.store.(batchAuditor); ok && len(batch) > 1 {
		evs := make([]*service.AuditEvent, len(batch))
		for i, it := range batch {
			evs[i] = it.ev
		}
		if err := ba.CreateAuditEvents(ctx, evs); err != nil {
			a.log.Error("httpapi: audit write failed", "events", len(evs), "err", err)
		}
	} else {
		for _, it := range batch {
			if err := a.store.CreateAuditEvent(ctx, it.ev); err != nil {
				a.log.Error("httpapi: audit write failed", "action", it.ev.Action, "err", err)
			}
		}
	}
	for _, it := range batch {
		if it.sync != nil {
			close(it.sync)
		}
	}
}

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
