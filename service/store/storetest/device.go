package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

func scanEvent(id, chip string, at time.Time) *service.DeviceEvent {
	return &service.DeviceEvent{ID: id, Device: "handheld-3", Kind: service.DeviceScan, At: at, User: "officer-7", Site: "field",
		Scan: &service.Scan{Reader: "handheld-3", ChipCode: chip, ChipKind: chipid.KindISO, AnimalID: 999}}
}

func testDeviceEventOnce(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	must(t, "AddChip", s.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: "985141000123456", Kind: chipid.KindISO}))
	at := Start.Add(-3 * time.Hour) // recorded offline, earlier
	applied, id, err := s.ApplyDeviceEvent(ctx, scanEvent("0b9f6c1e-scan-1", "985141000123456", at))
	must(t, "ApplyDeviceEvent", err)
	if !applied || id == 0 {
		t.Fatalf("ApplyDeviceEvent = applied %v id %d, want a new scan", applied, id)
	}
	c.Set(Start.Add(time.Hour))
	again, id2, err := s.ApplyDeviceEvent(ctx, scanEvent("0b9f6c1e-scan-1", "985141000123456", at))
	must(t, "ApplyDeviceEvent(again)", err)
	if again || id2 != id {
		t.Fatalf("ApplyDeviceEvent(same id) = applied %v id %d, want not applied, id %d", again, id2, id)
	}
	scans, n, err := s.FindScans(ctx, service.ScanFilter{})
	must(t, "FindScans", err)
	if n != 1 {
		t.Fatalf("FindScans = %d scans, want 1", n)
	}
	if sc := scans[0]; sc.ID != id || sc.AnimalID != a.ID || !sc.At.Equal(at) || sc.User != "officer-7" || sc.Site != "field" {
		t.Fatalf("scan = %+v, want id %d, animal %d (the store's, not the device's 999), at %v, officer-7 at field", sc, id, a.ID, at)
	}
	// A chip the store does not know is still a scan, of no animal.
	_, id3, err := s.ApplyDeviceEvent(ctx, scanEvent("0b9f6c1e-scan-2", "900000000000001", at))
	must(t, "ApplyDeviceEvent(unknown chip)", err)
	code := "900000000000001"
	scans, _, err = s.FindScans(ctx, service.ScanFilter{ChipCode: &code})
	must(t, "FindScans", err)
	if len(scans) != 1 || scans[0].ID != id3 || scans[0].AnimalID != 0 {
		t.Fatalf("unknown chip scan = %+v, want animal 0", scans)
	}
	bite := &service.DeviceEvent{ID: "0b9f6c1e-bite-1", Device: "handheld-3", Kind: service.DeviceBite, At: at, User: "officer-7", Site: "north",
		Bite: &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2026-03-15"), Victim: service.VictimPerson, SkinBroken: true}}
	applied, bid, err := s.ApplyDeviceEvent(ctx, bite)
	must(t, "ApplyDeviceEvent(bite)", err)
	if !applied {
		t.Fatal("bite not applied")
	}
	applied, bid2, err := s.ApplyDeviceEvent(ctx, bite)
	must(t, "ApplyDeviceEvent(bite again)", err)
	bites, err := s.FindBites(ctx, a.ID)
	must(t, "FindBites", err)
	if applied || bid2 != bid || len(bites) != 1 || bites[0].ID != bid || !bites[0].SkinBroken {
		t.Fatalf("bite pushed twice: applied %v ids %d %d, bites %+v; want one bite %d", applied, bid, bid2, bites, bid)
	}
	site, entity := "north", "bite"
	evs, n, err := s.FindAuditEvents(ctx, service.AuditFilter{Site: &site, Entity: &entity})
	must(t, "FindAuditEvents", err)
	if n != 1 || evs[0].EntityID != bid || evs[0].Actor != "officer-7" || evs[0].Action != "bite.create" {
		t.Fatalf("audit of the pushed bite = %+v (total %d), want one bite.create by officer-7 at north", evs, n)
	}
}

func testDeviceEventConcurrent(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	applied := make([]bool, n)
	ids := make([]int64, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			applied[i], ids[i], errs[i] = s.ApplyDeviceEvent(ctx, scanEvent("retry-storm", "985141000000001", Start))
		}()
	}
	wg.Wait()
	count := 0
	for i := range n {
		must(t, "ApplyDeviceEvent", errs[i])
		if applied[i] {
			count++
		}
		if ids[i] != ids[0] {
			t.Fatalf("pushes of one event returned records %d and %d", ids[0], ids[i])
		}
	}
	_, total, err := s.FindScans(ctx, service.ScanFilter{})
	must(t, "FindScans", err)
	if count != 1 || total != 1 {
		t.Fatalf("%d concurrent pushes of one event: applied %d times, %d scans; want 1 and 1", n, count, total)
	}
}

func testDeviceEventRejected(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	bad := &service.DeviceEvent{ID: "bite-of-nobody", Device: "handheld-3", Kind: service.DeviceBite, At: Start,
		Bite: &service.BiteIncident{AnimalID: a.ID + 99, Date: service.MustDate("2026-03-15"), Victim: service.VictimPerson}}
	_, _, err := s.ApplyDeviceEvent(ctx, bad)
	wantCode(t, "ApplyDeviceEvent(unknown animal)", err, service.EINVALID)
	// The failed event left no ledger row: fixed, it applies.
	bad.Bite.AnimalID = a.ID
	applied, _, err := s.ApplyDeviceEvent(ctx, bad)
	must(t, "ApplyDeviceEvent(fixed)", err)
	if !applied {
		t.Fatal("a corrected event was taken for a duplicate of a failed one")
	}
	_, _, err = s.ApplyDeviceEvent(ctx, scanEvent("bite-of-nobody", "985141000000001", Start))
	wantCode(t, "ApplyDeviceEvent(id reused for a scan)", err, service.ECONFLICT)
	_, _, err = s.ApplyDeviceEvent(ctx, scanEvent("", "985141000000001", Start))
	wantCode(t, "ApplyDeviceEvent(no id)", err, service.EINVALID)
	_, n, err := s.FindScans(ctx, service.ScanFilter{})
	must(t, "FindScans", err)
	if n != 0 {
		t.Fatalf("rejected scans left %d scans", n)
	}
}
