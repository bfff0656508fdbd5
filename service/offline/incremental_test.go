package offline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
)

// contents is everything a replica holds that a lookup reads: every
// record's JSON and every chip and tag key.
func contents(t *testing.T, r *offline.Replica) (records []string, keys []string) {
	t.Helper()
	ctx := context.Background()
	if err := r.EachRecord(ctx, func(rec *service.Record) error {
		b, err := json.Marshal(rec)
		records = append(records, string(b))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	keys, err := r.Keys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return records, keys
}

// TestIncrementalEqualsFull: after changes of every kind on the central
// store (an owner's phone, a new chip, a chip moved to another animal, a
// chip removed so an animal has nothing left to look it up by, a new
// licence, a revoked one, a designation, a quarantine, a new animal), a
// replica pulled incrementally holds exactly what a fresh full pull
// holds, on both stores and both transports; and a second pull with
// nothing changed sends nothing.
func TestIncrementalEqualsFull(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		for _, tr := range transports {
			t.Run(be.name+"/"+tr.name, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				s := be.open(t)
				sd := seed(t, s)
				c := tr.wrap(t, s)
				r := openReplica(t)
				if rep := syncOK(t, r, c); !rep.Full || rep.Records != 2 {
					t.Fatalf("first pull = %+v, want full with 2 records", rep)
				}
				if rep := syncOK(t, r, c); rep.Full || rep.Pulled != 0 || rep.Dropped != 0 || rep.Records != 2 {
					t.Fatalf("pull with nothing changed = %+v, want nothing sent", rep)
				}
				must := func(what string, err error) {
					t.Helper()
					if err != nil {
						t.Fatalf("%s: %v", what, err)
					}
				}
				phone := "612-555-0199"
				_, err := s.UpdateOwner(ctx, sd.dog.OwnerID, service.OwnerUpdate{Phone: &phone})
				must("UpdateOwner", err)
				must("AddChip", s.AddChip(ctx, &service.Chip{AnimalID: sd.dog.ID, Code: "985141000999999", Kind: chipid.KindISO}))
				chips, err := s.FindChipsByAnimal(ctx, sd.cat.ID)
				must("FindChipsByAnimal", err)
				for _, ch := range chips {
					must("RemoveChip", s.RemoveChip(ctx, ch.ID)) // the cat has nothing left to look it up by
				}
				bird := &service.Animal{Species: service.Other, Name: "Kiwi"}
				must("CreateAnimal", s.CreateAnimal(ctx, bird))
				must("AddChip", s.AddChip(ctx, &service.Chip{AnimalID: bird.ID, Code: "985141000777777", Kind: chipid.KindISO}))
				must("CreateQuarantine", s.CreateQuarantine(ctx, &service.Quarantine{AnimalID: bird.ID, Kind: service.QuarantineBite,
					Place: service.AtHome, Start: service.MustDate("2026-03-14"), End: service.MustDate("2026-03-24")}))
				l, err := s.FindLicenceByTag(ctx, "minneapolis", 2026, sd.tag)
				must("FindLicenceByTag", err)
				must("RevokeLicence", s.RevokeLicence(ctx, l.ID))

				rep := syncOK(t, r, c)
				if rep.Full || rep.Pulled != 2 || rep.Dropped != 1 || rep.Records != 2 {
					t.Fatalf("incremental pull = %+v, want the dog and the bird sent, the cat dropped", rep)
				}
				fresh := openReplica(t)
				syncOK(t, fresh, c)
				gotR, gotK := contents(t, r)
				wantR, wantK := contents(t, fresh)
				if !reflect.DeepEqual(gotR, wantR) || !reflect.DeepEqual(gotK, wantK) {
					t.Fatalf("incremental replica:\n%s\n%s\nfull replica:\n%s\n%s",
						strings.Join(gotR, "\n"), strings.Join(gotK, "\n"), strings.Join(wantR, "\n"), strings.Join(wantK, "\n"))
				}
				if !strings.Contains(fmt.Sprint(gotR), phone) {
					t.Errorf("the owner's new phone is not in the replica")
				}
			})
		}
	}
}

// TestForeignCursorPullsInFull: a cursor the store cannot answer (of
// another store, or ahead of a database restored from a backup) gets a
// full pull, which replaces the copy.
func TestForeignCursorPullsInFull(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := be.open(t)
			seed(t, s)
			for _, since := range []string{"sqlite:99999999", "postgres:99999999999:99999999999:", "garbage"} {
				var n int
				end, err := (&offline.StoreCentral{Store: s}).Pull(ctx, since, func(offline.Item) error { n++; return nil })
				if err != nil || !end.Full || n != 2 || end.Cursor == "" {
					t.Errorf("Pull(since %q) = %+v, %d items, %v; want a full pull of 2 with a cursor", since, end, n, err)
				}
			}
		})
	}
}

// TestEventIDReusedRefused: an event id pushed again with other content
// (another chip, another time) is rejected as a conflict, not answered
// "applied, duplicate" with the first event's record; the same event
// pushed again is a duplicate.
func TestEventIDReusedRefused(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := be.open(t)
			seed(t, s)
			c := &offline.StoreCentral{Store: s}
			e := service.DeviceEvent{ID: "5e0c6a1e-8d1f-4a57-9b1e-0d6f1a2b3c4d", Device: "handheld-3", Kind: service.DeviceScan, At: day,
				Scan: &service.Scan{Reader: "handheld-3", ChipCode: dogChip, ChipKind: chipid.KindISO, At: day}}
			again := e
			againScan := *e.Scan
			again.Scan = &againScan
			other := e
			otherScan := *e.Scan
			otherScan.ChipCode, otherScan.At = catChip, day.Add(time.Minute)
			other.Scan, other.At = &otherScan, day.Add(time.Minute)
			out, err := c.Push(ctx, []service.DeviceEvent{e, again, other})
			if err != nil {
				t.Fatal(err)
			}
			if out[0].State != offline.Applied || out[0].Duplicate || out[1].State != offline.Applied || !out[1].Duplicate ||
				out[2].State != offline.Rejected || out[2].Code != service.ECONFLICT {
				t.Fatalf("outcomes = %+v; want applied, duplicate, rejected as a conflict", out)
			}
			if _, n, _ := s.FindScans(ctx, service.ScanFilter{}); n != 1 {
				t.Fatalf("central has %d scans, want 1", n)
			}
		})
	}
}

// TestSalvageDamagedReplica: a replica whose records pages are damaged
// (the file overwritten in the middle) gives up its queue: Salvage
// copies every queued event, with its id, into a new replica, from which
// a sync applies each once.
func TestSalvageDamagedReplica(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	seed(t, s)
	dir := t.TempDir()
	path := dir + "/damaged.db"
	r, err := offline.Open(ctx, path, &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: func() time.Time { return day }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := offline.Sync(ctx, r, &many{Central: &offline.StoreCentral{Store: s}, n: 3000, hook: func(int) {}}, nil); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 5 {
		ev, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ev.ID)
	}
	r.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	junk := make([]byte, fi.Size()/3)
	for i := range junk {
		junk[i] = 0xA5
	}
	if _, err := f.WriteAt(junk, fi.Size()/3); err != nil {
		t.Fatal(err)
	}
	f.Close()

	got, err := offline.Salvage(ctx, path, dir+"/salvaged.db", &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: func() time.Time { return day }})
	if err != nil || got.Events[offline.Queued] != 5 {
		t.Fatalf("Salvage = %+v, %v; want the 5 queued events", got, err)
	}
	nr, err := offline.Open(ctx, dir+"/salvaged.db", &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: func() time.Time { return day }})
	if err != nil {
		t.Fatal(err)
	}
	defer nr.Close()
	queued, _ := nr.Events(ctx, offline.Queued)
	for i, q := range queued {
		if q.Event.ID != ids[i] {
			t.Fatalf("salvaged event %d is %s, want %s (same ids, same order)", i, q.Event.ID, ids[i])
		}
	}
	if rep := syncOK(t, nr, &offline.StoreCentral{Store: s}); rep.Applied != 5 {
		t.Fatalf("sync of the salvaged queue = %+v, want 5 applied", rep)
	}
}

// TestReplicaFileHoldsNoAddress: the replica file itself (and its
// write-ahead log), byte for byte, holds no owner's address or e-mail
// and no veterinarian, after a pull over HTTP on either store; and,
// sealed, no owner's name or phone either, which a lookup with the PIN
// still answers.
func TestReplicaFileHoldsNoAddress(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			s := be.open(t)
			seed(t, s)
			path := t.TempDir() + "/handheld.db"
			r, err := offline.Open(context.Background(), path, &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			syncOK(t, r, transports[1].wrap(t, s))
			rec, err := r.FindRecordByChip(context.Background(), dogChip)
			if err != nil || rec.Owner == nil || rec.Owner.Phone != "612-555-0101" {
				t.Fatalf("lookup with the PIN = %+v, %v; want the owner's phone", rec, err)
			}
			all := replicaBytes(t, path)
			r.Close()
			if !strings.Contains(string(all), dogChip) {
				t.Fatalf("the replica holds no chip: the check below would pass on an empty file")
			}
			for _, secret := range []string{"12 Lake St", "ada@example.org", "Dr. Vik", "Minneapolis\"", "Ada Lund", "612-555-0101", "Rex"} {
				if strings.Contains(string(all), secret) {
					t.Errorf("the replica file holds %q", secret)
				}
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("replica mode %v (%v), want 0600", fi.Mode().Perm(), err)
			}
		})
	}
}

// replicaBytes is the replica file at path and its write-ahead log, as
// a thief who copies the disk would read them.
func replicaBytes(t *testing.T, path string) []byte {
	t.Helper()
	var all []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// TestRevokedDeviceCannotSync: a handheld's device token, once revoked,
// neither pulls nor pushes; its queued events stay queued on the device.
func TestRevokedDeviceCannotSync(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := be.open(t)
			seed(t, s)
			srv := httptest.NewServer(offline.Handler(&offline.StoreCentral{Store: s}, &offline.HandlerOpts{Tokens: s, Audit: s}))
			defer srv.Close()
			secret, err := s.CreateToken(ctx, &service.Token{Name: "handheld-3", Role: service.RoleOfficer})
			if err != nil {
				t.Fatal(err)
			}
			c := &offline.HTTPClient{URL: srv.URL, Token: secret}
			r := openReplica(t)
			syncOK(t, r, c)
			if _, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3"); err != nil {
				t.Fatal(err)
			}
			toks, err := s.FindTokens(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, tk := range toks {
				if tk.Name == "handheld-3" {
					if err := s.RevokeToken(ctx, tk.ID); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, o := range []*offline.SyncOpts{{NoPull: true}, {NoPush: true}} {
				rep, err := offline.Sync(ctx, r, c, o)
				if err == nil || !strings.Contains(err.Error(), "401") || rep.Queued != 1 {
					t.Errorf("Sync %+v with a revoked token = %+v, %v; want 401 and the scan still queued", o, rep, err)
				}
			}
			if _, n, _ := s.FindScans(ctx, service.ScanFilter{}); n != 0 {
				t.Errorf("central has %d scans from a revoked device", n)
			}
		})
	}
}

// TestStaleCopyRefusesLookups: a copy pulled longer than MaxAge ago
// answers no lookup (by chip or tag) until it syncs, and still queues
// scans; a never-pulled copy answers none either.
func TestStaleCopyRefusesLookups(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	sd := seed(t, s)
	clock := day
	r, err := offline.Open(ctx, t.TempDir()+"/h.db", &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.FindRecordByChip(ctx, dogChip); service.ErrorCode(err) != service.ECONFLICT {
		t.Fatalf("lookup before any pull: %v, want a refusal", err)
	}
	syncOK(t, r, &offline.StoreCentral{Store: s})
	clock = day.Add(offline.DefaultMaxAge - time.Minute)
	if _, err := r.FindRecordByChip(ctx, dogChip); err != nil {
		t.Fatalf("lookup of a fresh copy: %v", err)
	}
	clock = day.Add(offline.DefaultMaxAge + time.Minute)
	if _, err := r.FindRecordByChip(ctx, dogChip); service.ErrorCode(err) != service.ECONFLICT || !strings.Contains(err.Error(), "sync") {
		t.Fatalf("lookup of a stale copy: %v, want a refusal that says to sync", err)
	}
	if _, err := r.FindRecordByTag(ctx, "minneapolis", 2026, sd.tag); service.ErrorCode(err) != service.ECONFLICT {
		t.Fatalf("tag lookup of a stale copy: %v, want a refusal", err)
	}
	if _, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3"); err != nil {
		t.Fatalf("a scan on a stale copy: %v, want it queued", err)
	}
	syncOK(t, r, &offline.StoreCentral{Store: s})
	if _, err := r.FindRecordByChip(ctx, dogChip); err != nil {
		t.Fatalf("lookup after the sync: %v", err)
	}
}

// TestFullPullCompacts: a second full pull leaves the file about the
// size of the first (the old tables' pages are given back), not double.
func TestFullPullCompacts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	path := t.TempDir() + "/h.db"
	r, err := offline.Open(ctx, path, &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c := &many{Central: &offline.StoreCentral{Store: s}, n: 3000, hook: func(int) {}}
	size := func() int64 {
		var n int64
		for _, p := range []string{path, path + "-wal"} {
			if fi, err := os.Stat(p); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	var sizes []int64
	for range 3 {
		if _, err := offline.Sync(ctx, r, c, &offline.SyncOpts{Full: true}); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, size())
	}
	if sizes[2] > sizes[0]*6/5 {
		t.Fatalf("replica sizes after three full pulls: %v bytes; want no growth beyond 20 %%", sizes)
	}
}
