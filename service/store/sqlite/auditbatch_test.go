package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

func TestCreateAuditEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "a.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	evs := []*service.AuditEvent{
		{At: at, Actor: "desk", Action: "lookup.chip", Detail: "985121004515220"},
		{At: at.Add(time.Second), Actor: "desk", Action: "owner.update", Entity: "owner", EntityID: 4, Site: "shelter"},
	}
	if err := db.CreateAuditEvents(ctx, evs); err != nil {
		t.Fatalf("CreateAuditEvents: %v", err)
	}
	got, n, err := db.FindAuditEvents(ctx, service.AuditFilter{})
	if err != nil || n != 2 || got[0].Action != "owner.update" || got[0].Site != "shelter" || got[1].Detail != "985121004515220" {
		t.Errorf("FindAuditEvents = %+v, %d, %v; want both, newest first", got, n, err)
	}
	if n == 2 && got[0].ID <= got[1].ID {
		t.Errorf("ids %d, %d: want them in batch order", got[1].ID, got[0].ID)
	}
	// More than one INSERT's worth, in order.
	many := make([]*service.AuditEvent, 250)
	for i := range many {
		many[i] = &service.AuditEvent{At: at.Add(time.Duration(i+2) * time.Second), Actor: "desk", Action: "lookup.chip", EntityID: int64(i)}
	}
	if err := db.CreateAuditEvents(ctx, many); err != nil {
		t.Fatalf("CreateAuditEvents(250): %v", err)
	}
	got, n, err = db.FindAuditEvents(ctx, service.AuditFilter{Limit: 1})
	if err != nil || n != 252 || got[0].EntityID != 249 {
		t.Errorf("after 250 more: %d events, newest %+v, %v; want 252, newest entity 249", n, got, err)
	}
	// All or nothing: a bad event stores none of the batch.
	bad := []*service.AuditEvent{{Actor: "desk", Action: "lookup.chip"}, {Actor: "", Action: "x"}}
	if err := db.CreateAuditEvents(ctx, bad); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("batch with a bad event: err = %v, want EINVALID", err)
	}
	if _, n, _ := db.FindAuditEvents(ctx, service.AuditFilter{}); n != 252 {
		t.Errorf("after a refused batch %d events, want 252", n)
	}
}
