package storetest

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// testChangeAudit: a change made under service.WithChange is stored with
// its audit event, which names the record it created; a change refused
// leaves no event, and the event goes with the next write that commits.
func testChangeAudit(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	ev := &service.AuditEvent{Actor: "counter-1", Role: service.RoleIntake, Site: "north", Action: "licence.create", Entity: "licence", Detail: "minneapolis"}
	cctx, ch := service.WithChange(ctx, ev)

	// Refused (a tag number taken): no event, the change still pending.
	first := newLicence(a.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(ctx, first))
	taken := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	taken.TagNumber = first.TagNumber
	wantCode(t, "CreateLicence(tag taken)", s.CreateLicence(cctx, taken), service.ECONFLICT)
	if ch.Stored() || service.PendingChange(cctx) != ch {
		t.Fatalf("a refused change's event is stored (%v) or no longer pending", ch.Stored())
	}

	l := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(cctx, l))
	if !ch.Stored() || service.PendingChange(cctx) != nil {
		t.Fatalf("Stored = %v after the change, want true and nothing pending", ch.Stored())
	}
	// A second write under the same context writes no second event.
	must(t, "RevokeLicence", s.RevokeLicence(cctx, first.ID))

	ent := "licence"
	list, n, err := s.FindAuditEvents(ctx, service.AuditFilter{Entity: &ent})
	must(t, "FindAuditEvents", err)
	if n != 1 {
		t.Fatalf("FindAuditEvents(licence) = %d events %+v, want the one change's", n, list)
	}
	got := list[0]
	if got.EntityID != l.ID || got.Action != "licence.create" || got.Actor != "counter-1" || got.Role != service.RoleIntake ||
		got.Site != "north" || got.Detail != "minneapolis" || !got.At.Equal(Start) {
		t.Fatalf("event = %+v, want licence.create of licence %d by counter-1 at north, at %v", got, l.ID, Start)
	}

	// An event stored on its own does not take a pending change's.
	ev2 := &service.AuditEvent{Actor: "counter-1", Action: "animal.update", Entity: "animal", EntityID: a.ID}
	cctx2, ch2 := service.WithChange(ctx, ev2)
	must(t, "CreateAuditEvent", s.CreateAuditEvent(cctx2, &service.AuditEvent{Actor: "counter-1", Action: "record.view", Entity: "animal", EntityID: a.ID}))
	if ch2.Stored() {
		t.Fatalf("CreateAuditEvent stored the pending change's event")
	}
}

// testAuditBatch: a store's batch of audit events (the audit queue's
// write) stores every event, in order, and a bad event stores none.
func testAuditBatch(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	ba, ok := s.(interface {
		CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error
	})
	if !ok {
		t.Skip("the store has no CreateAuditEvents")
	}
	var evs []*service.AuditEvent
	for i := range 250 {
		evs = append(evs, &service.AuditEvent{Actor: "officer-1", Role: service.RoleOfficer, Action: "lookup.chip",
			Entity: "animal", EntityID: int64(i + 1), Site: "north"})
	}
	must(t, "CreateAuditEvents", ba.CreateAuditEvents(ctx, evs))
	list, n, err := s.FindAuditEvents(ctx, service.AuditFilter{Limit: 300})
	must(t, "FindAuditEvents", err)
	if n != 250 || len(list) != 250 {
		t.Fatalf("FindAuditEvents = %d events, want 250", n)
	}
	for i, e := range list { // newest first: the last stored first
		if e.EntityID != int64(250-i) || e.Role != service.RoleOfficer || e.Site != "north" || !e.At.Equal(Start) {
			t.Fatalf("event %d = %+v, want animal %d at %v", i, e, 250-i, Start)
		}
	}
	bad := []*service.AuditEvent{{Actor: "a", Action: "x"}, {Action: "no actor"}}
	wantCode(t, "CreateAuditEvents(bad)", ba.CreateAuditEvents(ctx, bad), service.EINVALID)
	if _, n, _ := s.FindAuditEvents(ctx, service.AuditFilter{}); n != 250 {
		t.Errorf("a refused batch stored %d events", n-250)
	}
}
