package sqlite_test

import (
	"context"
	"path/filepath"
	"strconv"
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

// TestCreateAuditEventsSizes stores batches around the chunk sizes (one
// INSERT, several, the prepared statement and a rest) and reads every
// event back in batch order; a batch refused by the database in a later
// chunk stores nothing.
func TestCreateAuditEventsSizes(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	batch := func(n int) []*service.AuditEvent {
		evs := make([]*service.AuditEvent, n)
		for i := range evs {
			evs[i] = &service.AuditEvent{At: at, Actor: "desk", Role: service.RoleOfficer, Action: "lookup.chip",
				Entity: "animal", EntityID: int64(i), Detail: "985121004515220", Site: "shelter"}
		}
		return evs
	}
	for _, n := range []int{1, 99, 100, 101, 199, 200, 201, 1024} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "a.db"), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.CreateAuditEvents(ctx, batch(n)); err != nil {
				t.Fatalf("CreateAuditEvents(%d) = %v", n, err)
			}
			var got []*service.AuditEvent
			for {
				page, total, err := db.FindAuditEvents(ctx, service.AuditFilter{Offset: len(got), Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				if len(page) == 0 {
					break
				}
				if total != n {
					t.Fatalf("FindAuditEvents: %d events, want %d", total, n)
				}
				got = append(got, page...)
			}
			if len(got) != n {
				t.Fatalf("read %d events back, want %d", len(got), n)
			}
			for i, e := range got {
				// Newest first: the last of the batch comes first.
				want := int64(n - 1 - i)
				if e.EntityID != want || e.Role != service.RoleOfficer || e.Site != "shelter" || !e.At.Equal(at) {
					t.Fatalf("event %d of %d read back = %+v, want entity %d of the batch", i, n, e, want)
				}
			}
			// All or nothing: a taken id conflicts, in a chunk after the
			// first ones, and the whole batch is rolled back.
			for _, bad := range []int{n + 49, n + 149} {
				more := batch(n + 150)
				more[bad].ID = got[0].ID
				if err := db.CreateAuditEvents(ctx, more); service.ErrorCode(err) != service.ECONFLICT {
					t.Errorf("batch with a taken id at %d: err = %v, want ECONFLICT", bad, err)
				}
				if _, total, _ := db.FindAuditEvents(ctx, service.AuditFilter{}); total != n {
					t.Errorf("after a refused batch %d events, want %d", total, n)
				}
			}
			// Events with ids of their own keep them.
			own := batch(n + 150)
			for i, e := range own {
				e.ID = int64(1_000_000 + i)
			}
			if err := db.CreateAuditEvents(ctx, own); err != nil {
				t.Fatalf("batch with ids: %v", err)
			}
			last, total, err := db.FindAuditEvents(ctx, service.AuditFilter{Limit: 1})
			if err != nil || total != 2*n+150 || last[0].ID != int64(1_000_000+n+149) {
				t.Errorf("after a batch with ids: %d events, newest %+v, %v; want %d, id %d", total, last, err, 2*n+150, 1_000_000+n+149)
			}
		})
	}
}

// BenchmarkCreateAuditEvents stores batches of 1,024 lookup events, the
// HTTP layer's audit batch; it reports the cost of one event.
func BenchmarkCreateAuditEvents(b *testing.B) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "a.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	evs := make([]*service.AuditEvent, 1024)
	b.ReportAllocs()
	for b.Loop() {
		for i := range evs {
			evs[i] = &service.AuditEvent{At: at, Actor: "desk-3", Role: service.RoleOfficer, Action: "lookup.chip",
				Entity: "animal", EntityID: int64(100000 + i), Detail: "985121004515220", Site: "shelter"}
		}
		if err := db.CreateAuditEvents(ctx, evs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
