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
	taken := newLicence(a.ID, "minneapolis", "2026-03-15")
	taken.TagNumber = first.TagNumber
	wantCode(t, "CreateLicence(tag taken)", s.CreateLicence(cctx, taken), service.ECONFLICT)
	if ch.Stored() || service.PendingChange(cctx) != ch {
		t.Fatalf("a refused change's event is stored (%v) or no longer pending", ch.Stored())
	}

	l := newLicence(a.ID, "minneapolis", "2026-03-15")
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
