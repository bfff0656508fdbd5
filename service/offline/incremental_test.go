package offline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

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
