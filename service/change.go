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
	Event  *AuditEvent
	stored atomic.Bool
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
	if c == nil || c.Event.EntityID != 0 {
		return
	}
	entity := strings.TrimSuffix(table, "s")
	if c.Event.Entity == entity || c.Event.Entity == table {
		c.Event.EntityID = id
	}
}

// MarkStored is called by the store once the transaction holding the
// event has committed.
func (c *Change) MarkStored() { c.stored.Store(true) }

// Stored reports whether a store wrote the event with its change.
func (c *Change) Stored() bool { return c != nil && c.stored.Load() }
