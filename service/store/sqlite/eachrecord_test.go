package sqlite

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// checkEachRecord fails unless EachRecord gives every animal, in id
// order, the record FindRecordByAnimal gives it.
func checkEachRecord(t *testing.T, db *DB, step string) {
	t.Helper()
	ctx := context.Background()
	// The ids straight from the table: a step may leave a column text
	// that the Animal scanner refuses (TestLookupRowDates).
	var ids []int64
	rows, err := db.rdb.QueryContext(ctx, `SELECT id FROM animals ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	i := 0
	err = db.EachRecord(ctx, func(got *service.Record) error {
		if i >= len(ids) || got.Animal.ID != ids[i] {
			t.Errorf("%s: EachRecord's record %d is of animal %d, want the animals in id order %v", step, i, got.Animal.ID, ids)
			return nil
		}
		want, err := db.FindRecordByAnimal(ctx, ids[i])
		if err != nil {
			t.Fatalf("%s: FindRecordByAnimal(%d): %v", step, ids[i], err)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s: animal %d\nEachRecord:         %s\nFindRecordByAnimal: %s", step, ids[i], g, w)
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatalf("%s: EachRecord: %v", step, err)
	}
	if i != len(ids) {
		t.Errorf("%s: EachRecord gave %d records, want %d", step, i, len(ids))
	}
}

// TestEachRecordAsFindRecordByAnimal: the one-pass read of every record
// answers what the point lookup answers, for an animal with a lookup
// row and live parts (licences in and out of the twelve months, a
// permit, an open agreement), one without a chip (no lookup row), and
// one marked for rebuild by a change made outside the store.
func TestEachRecordAsFindRecordByAnimal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, &Opts{Now: func() time.Time { return time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) }})
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	ada := &service.Owner{Name: "Ada Lund", Address: "12 Lake St", City: "Minneapolis", Phone: "612-555-0101"}
	must("CreateOwner", db.CreateOwner(ctx, ada))
	rex := &service.Animal{OwnerID: ada.ID, Name: "Rex", Species: service.Dog}
	tom := &service.Animal{OwnerID: ada.ID, Name: "Tom", Species: service.Cat}
	stray := &service.Animal{Name: "Stray", Species: service.Dog}
	bo := &service.Animal{OwnerID: ada.ID, Name: "Bo", Species: service.Dog}
	for _, a := range []*service.Animal{rex, tom, stray, bo} {
		must("CreateAnimal", db.CreateAnimal(ctx, a))
	}
	checkEachRecord(t, db, "no chips")
	must("AddChip", db.AddChip(ctx, &service.Chip{AnimalID: rex.ID, Code: "985141000000001", Kind: chipid.KindISO}))
	must("AddChip", db.AddChip(ctx, &service.Chip{AnimalID: rex.ID, Code: "012345678", Kind: chipid.KindAVID}))
	must("AddChip", db.AddChip(ctx, &service.Chip{AnimalID: stray.ID, Code: "985141000000003", Kind: chipid.KindISO}))
	must("AddChip", db.AddChip(ctx, &service.Chip{AnimalID: bo.ID, Code: "985141000000004", Kind: chipid.KindISO}))
	for _, l := range []*service.Licence{
		{AnimalID: rex.ID, Jurisdiction: "minneapolis", Year: 2026, TagNumber: 7, IssuedOn: service.MustDate("2026-02-01"), ExpiresOn: service.MustDate("2027-01-31")},
		{AnimalID: rex.ID, Jurisdiction: "minneapolis", Year: 2024, TagNumber: 3, IssuedOn: service.MustDate("2024-02-01"), ExpiresOn: service.MustDate("2025-01-31")},
		{AnimalID: tom.ID, Jurisdiction: "minneapolis", Year: 2026, TagNumber: 8, IssuedOn: service.MustDate("2026-02-01"), ExpiresOn: service.MustDate("2027-01-31")},
		{AnimalID: bo.ID, Jurisdiction: "chanhassen", Year: 2026, TagNumber: 9, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-03-01")},
	} {
		must("CreateLicence", db.CreateLicence(ctx, l))
	}
	must("CreatePermit", db.CreatePermit(ctx, &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", OwnerID: ada.ID, AnimalID: rex.ID,
		Holder: "Ada Lund", State: service.PermitPending, AppliedOn: service.MustDate("2026-04-01")}))
	checkEachRecord(t, db, "chips, licences, a permit")
	// Another program renames the owner: the trigger marks Rex, Tom and
	// Bo for rebuild, and their lookup rows are not read.
	if _, err := db.ckdb.ExecContext(ctx, `UPDATE owners SET name = 'Ada Lund-Berg' WHERE id = ?`, ada.ID); err != nil {
		t.Fatal(err)
	}
	checkEachRecord(t, db, "marked for rebuild")
}
