package storetest

import (
	"context"
	"sync"

	"github.com/chipdesk/chipdesk/service"
)

// Afterwards is a store that records the actions of the audit events
// written on their own (CreateAuditEvent), after a change rather than in
// its transaction: a door's test makes its changes through it and checks
// that none of theirs is among Actions.
type Afterwards struct {
	service.Store
	mu      sync.Mutex
	actions []string
}

// CreateAuditEvent records e's action and stores it.
func (a *Afterwards) CreateAuditEvent(ctx context.Context, e *service.AuditEvent) error {
	a.mu.Lock()
	a.actions = append(a.actions, e.Action)
	a.mu.Unlock()
	return a.Store.CreateAuditEvent(ctx, e)
}

// Actions are the actions recorded so far.
func (a *Afterwards) Actions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.actions...)
}
