package service

import (
	"context"
	"strings"
	"sync/atomic"
)

// Change is the audit event of a change, carried in the context of the
// store call that makes the change (WithChange). The store writes the
// event in the transaction that commits the change, so that a crash
// leaves both or neither: this is how a change and its audit event are
// one. Lookups and views are not changes; their events go to
// AuditService as before.
//
// The event is written by the first store write under the context that
// commits; a write that fails leaves it for the next. A create fills
// in Event.EntityID with the new record's id (Created) when the event
// names that kind of record and no id yet.
type Change struct {
	Event *AuditEvent
	// More are the events of further records the same transaction
	// makes (the certificate stored with a licence), written with Event.
	More     []*AuditEvent
	stored   atomic.Bool
	replayed atomic.Bool
}

type changeKey struct{}

// WithChange returns ctx carrying ev as the audit event of the change
// about to be made under it, and the Change to ask afterwards whether
// the store wrote it.
func WithChange(ctx context.Context, ev *AuditEvent) (context.Context, *Change) {
	c := &Change{Event: ev}
	return context.WithValue(ctx, changeKey{}, c), c
}

// PendingChange returns the Change ctx carries that no store has
// written yet, or nil.
func PendingChange(ctx context.Context) *Change {
	c, _ := ctx.Value(changeKey{}).(*Change)
	if c == nil || c.stored.Load() {
		return nil
	}
	return c
}

// Created records that the change under ctx created the record id of
// table (a store's table name, "licences"): the pending event that
// names that entity ("licence") without an id gets this one.
func Created(ctx context.Context, table string, id int64) {
	c := PendingChange(ctx)
	if c == nil {
		return
	}
	for _, ev := range c.Events() {
		entity := strings.ReplaceAll(ev.Entity, "-", "_")
		if ev.EntityID == 0 && (table == entity || table == entity+"s" || table == entity+"es") {
			ev.EntityID = id
			return
		}
	}
}

// Attempt is called by a store before a transaction that may write the
// change: the function it returns, called when that transaction does not
// commit, takes back what it recorded (the ids Created filled in, a
// replay), so that the next attempt starts clean.
func (c *Change) Attempt() (undo func()) {
	if c == nil {
		return func() {}
	}
	evs := c.Events()
	ids := make([]int64, len(evs))
	for i, ev := range evs {
		ids[i] = ev.EntityID
	}
	return func() {
		for i, ev := range evs {
			ev.EntityID = ids[i]
		}
		c.replayed.Store(false)
	}
}

// Unstored returns the events a door must log itself after the change
// of the record id because no store wrote them with it (nil when one
// did); an event without an id gets id.
func (c *Change) Unstored(id int64) []*AuditEvent {
	if c.Stored() {
		return nil
	}
	if c.Event.EntityID == 0 {
		c.Event.EntityID = id
	}
	return c.Events()
}

// Events are the change's events: Event, then More.
func (c *Change) Events() []*AuditEvent {
	return append([]*AuditEvent{c.Event}, c.More...)
}

// And adds to the change the event of a further record its transaction
// makes, by the same caller (an id of 0 is filled in by the store).
func (c *Change) And(action, entity string, id int64, detail string) {
	ev := *c.Event
	ev.ID, ev.Action, ev.Entity, ev.EntityID, ev.Detail = 0, action, entity, id, detail
	c.More = append(c.More, &ev)
}

// Also returns ctx carrying the audit event of a further change made
// under the change ctx carries, by the same caller (its time, actor,
// role, site and token): an application function that writes a second
// record in a transaction of its own (the quarantine a bite orders)
// audits it this way, so that each record commits with its own event.
// The id of 0 is filled in by the store for the record created. Without
// a change in ctx, ctx is returned as it is (the caller audits nothing).
func Also(ctx context.Context, action, entity string, id int64, detail string) context.Context {
	c, _ := ctx.Value(changeKey{}).(*Change)
	if c == nil {
		return ctx
	}
	ev := *c.Event
	ev.ID, ev.Action, ev.Entity, ev.EntityID, ev.Detail = 0, action, entity, id, detail
	ctx, _ = WithChange(ctx, &ev)
	return ctx
}

// For returns ctx for the store write of a record the change action
// makes: ctx itself when the change it carries, still pending, is that
// action (the door's own), else ctx carrying a further change of the
// same caller (Also), so that an application function called inside
// another change (a bite recorded for a report) audits its record in
// its own transaction without taking the outer change's event.
func For(ctx context.Context, action, entity string, id int64, detail string) context.Context {
	if c := PendingChange(ctx); c != nil && c.Event.Action == action {
		return ctx
	}
	return Also(ctx, action, entity, id, detail)
}

// Replayed records that the store call under ctx found its change made
// before (an idempotent request repeated, a device event pushed again):
// the store writes no event for it, and the change counts as stored, so
// that no door logs it a second time.
func Replayed(ctx context.Context) {
	if c := PendingChange(ctx); c != nil {
		c.replayed.Store(true)
	}
}

// Replay reports whether the store found the change made before
// (Replayed): its event is not written again.
func (c *Change) Replay() bool { return c.replayed.Load() }

// MarkStored is called by the store once the transaction holding the
// event has committed.
func (c *Change) MarkStored() { c.stored.Store(true) }

// Stored reports whether a store wrote the event with its change.
func (c *Change) Stored() bool { return c != nil && c.stored.Load() }
