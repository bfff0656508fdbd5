package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// openTemp opens a store in a fresh folder of t's, closed when t ends;
// the package's own tests use it (MustOpen is for the outside ones).
func openTemp(t testing.TB, o *Opts) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "chipdesk.db"), o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// viaRow and viaRecord answer a chip from its lookup row and from the
// full record statement; ok is false when the lookup row does not answer.
func viaRow(t *testing.T, db *DB, code string) (r *service.Record, ok bool) {
	t.Helper()
	r, err := db.runChipRow(context.Background(), code)
	if service.ErrorCode(err) == service.ENOTFOUND {
		return nil, false
	} else if err != nil {
		t.Fatalf("chipRow(%s): %v", code, err)
	}
	return r, true
}

func viaRecord(t *testing.T, db *DB, code string) *service.Record {
	t.Helper()
	r, err := db.runRecord(context.Background(), db.rec.chip, code, 0)
	if err != nil {
		t.Fatalf("chip(%s): %v", code, err)
	}
	return r
}

// checkRows fails unless every chip's lookup row answers exactly what the
// full record statement answers, and no chip without a row is left.
func checkRows(t *testing.T, db *DB, step string) {
	t.Helper()
	rows, err := db.rdb.Query(`SELECT code FROM chips ORDER BY code`)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for rows.Next() {
		var c string
		rows.Scan(&c)
		codes = append(codes, c)
	}
	rows.Close()
	for _, code := range codes {
		got, ok := viaRow(t, db, code)
		if !ok {
			t.Errorf("%s: chip %s has no lookup row", step, code)
			continue
		}
		if want := viaRecord(t, db, code); !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s: chip %s\nlookup row: %s\nrecord:     %s", step, code, g, w)
		}
	}
	keys, err := db.rdb.Query(`SELECT r.code, r.id, c.id FROM lookup_rows r JOIN chips c ON c.code = r.code`)
	if err != nil {
		t.Fatal(err)
	}
	for keys.Next() {
		var code string
		var id, chip int64
		if err := keys.Scan(&code, &id, &chip); err != nil {
			t.Fatal(err)
		}
		want, ok := lookupKey(code)
		if !ok {
			want = -chip
		}
		if id != want {
			t.Errorf("%s: chip %s's lookup row has id %d, lookupKey gives %d", step, code, id, want)
		}
	}
	keys.Close()
	var stale int
	db.rdb.QueryRow(`SELECT (SELECT COUNT(*) FROM lookup_rows WHERE code NOT IN (SELECT code FROM chips)) +
		(SELECT COUNT(*) FROM lookup_dirty)`).Scan(&stale)
	if stale != 0 {
		t.Errorf("%s: %d lookup rows of removed chips or marks left after the commit", step, stale)
	}
	checkEachRecord(t, db, step)
}

// TestLookupRowsFollowEveryWrite changes each part a lookup row holds,
// through the store's own methods, and compares every chip's row with the
// full record after each change.
func TestLookupRowsFollowEveryWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, &Opts{Now: func() time.Time { return time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) }})
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	ada := &service.Owner{Name: "Ada Lund", Address: "12 Lake St", City: "Minneapolis", State: "MN", Phone: "612-555-0101"}
	bo := &service.Owner{Name: "Bo \"Quote\" Berg\\", City: "Chanhassen", Email: "bo@example.org"}
	must("CreateOwner", db.CreateOwner(ctx, ada))
	must("CreateOwner", db.CreateOwner(ctx, bo))
	rex := &service.Animal{OwnerID: ada.ID, Name: "Rex", Species: service.Dog, Breed: "Labrador", Description: "white blaze,\nlimps\t\u00e9\U0001F415"}
	tom := &service.Animal{OwnerID: ada.ID, Name: "Tom", Species: service.Cat}
	stray := &service.Animal{Name: "Stray", Species: service.Dog}
	for _, a := range []*service.Animal{rex, tom, stray} {
		must("CreateAnimal", db.CreateAnimal(ctx, a))
	}
	chips := map[string]*service.Chip{}
	add := func(a *service.Animal, code string, kind chipid.Kind) {
		t.Helper()
		c := &service.Chip{AnimalID: a.ID, Code: code, Kind: kind, Manufacturer: "Datamars", ImplantDate: service.MustDate("2024-02-01")}
		must("AddChip "+code, db.AddChip(ctx, c))
		chips[code] = c
	}
	str := func(s string) *string { return &s }
	date := func(s string) *service.Date { d := service.MustDate(s); return &d }

	steps := []struct {
		name   string
		change func()
	}{
		{"chips added", func() {
			add(rex, "985141000000001", chipid.KindISO)
			add(rex, "0A1B2C3D4E", chipid.KindFECAVA)
			add(rex, "012345678", chipid.KindAVID)
			add(tom, "985141000000002", chipid.KindISO)
			add(stray, "985141000000003", chipid.KindISO)
		}},
		{"owner changed (both animals)", func() {
			_, err := db.UpdateOwner(ctx, ada.ID, service.OwnerUpdate{Phone: str("612-555-0199"), Address: str("1 New Rd")})
			must("UpdateOwner", err)
		}},
		{"animal changed", func() {
			_, err := db.UpdateAnimal(ctx, rex.ID, service.AnimalUpdate{Name: str("Rex II"), DiedOn: date("2026-04-30")})
			must("UpdateAnimal", err)
		}},
		{"animal given an owner", func() {
			_, err := db.UpdateAnimal(ctx, stray.ID, service.AnimalUpdate{OwnerID: &bo.ID})
			must("UpdateAnimal", err)
		}},
		{"vaccinations", func() {
			must("CreateVaccination", db.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: rex.ID, Date: service.MustDate("2024-05-01"),
				Type: service.VaccineKilled, DurationMonths: 12}))
			must("CreateVaccination", db.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: rex.ID, Date: service.MustDate("2025-05-01"),
				Type: service.VaccineModifiedLive, DurationMonths: 36, ExtendedCertified: true, Product: "Imrab 3", LotExpires: service.MustDate("2026-01-01")}))
		}},
		{"designation declared (Minneapolis 64.10)", func() {
			must("CreateDesignation", db.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: tom.ID, Level: service.Dangerous,
				Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-03-01"), Authority: "Animal Care and Control", Conditions: "muzzle"}))
		}},
		{"designation rescinded", func() {
			ds, err := db.FindDesignations(ctx, tom.ID)
			must("FindDesignations", err)
			_, err = db.UpdateDesignation(ctx, ds[0].ID, service.DesignationUpdate{RescindedOn: date("2026-04-01")})
			must("UpdateDesignation", err)
		}},
		{"chip removed", func() {
			must("RemoveChip", db.RemoveChip(ctx, chips["0A1B2C3D4E"].ID))
		}},
		{"licence, quarantine, impoundment, bite", func() {
			must("CreateLicence", db.CreateLicence(ctx, &service.Licence{AnimalID: rex.ID, Jurisdiction: "minneapolis", Year: 2026,
				TagNumber: 7, IssuedOn: service.MustDate("2026-02-01"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 3500}))
			b := &service.BiteIncident{AnimalID: tom.ID, Date: service.MustDate("2026-04-20"), Victim: "person", SkinBroken: true}
			must("CreateBite", db.CreateBite(ctx, b))
			must("CreateQuarantine", db.CreateQuarantine(ctx, &service.Quarantine{AnimalID: tom.ID, BiteID: b.ID, Kind: service.QuarantineBite,
				Place: service.AtHome, Start: service.MustDate("2026-04-20"), End: service.MustDate("2026-04-30")}))
			must("CreateImpoundment", db.CreateImpoundment(ctx, &service.Impoundment{AnimalID: stray.ID, Jurisdiction: "minneapolis",
				IntakeAt: time.Date(2026, 4, 28, 9, 0, 0, 0, time.UTC), IntakeOn: service.MustDate("2026-04-28")}))
		}},
	}
	steps = append(steps, []struct {
		name   string
		change func()
	}{
		{"quarantine released (Minneapolis 64.220)", func() {
			r, _ := viaRow(t, db, "985141000000002")
			must("ReleaseQuarantine", db.ReleaseQuarantine(ctx, r.Quarantines[0].ID, service.MustDate("2026-04-30")))
		}},
		{"impoundment disposed", func() {
			r, _ := viaRow(t, db, "985141000000003")
			d := service.Redeemed
			_, err := db.UpdateImpoundment(ctx, r.Impounds[0].ID, service.ImpoundUpdate{Disposition: &d, DispositionOn: date("2026-04-30")})
			must("UpdateImpoundment", err)
		}},
		{"permit granted (migration 0160)", func() {
			must("CreatePermit", db.CreatePermit(ctx, &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident",
				AnimalID: rex.ID, State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31")}))
		}},
		{"permit revoked", func() {
			ps, _, err := db.FindPermits(ctx, service.PermitFilter{AnimalID: rex.ID})
			must("FindPermits", err)
			if len(ps) != 1 {
				t.Fatalf("FindPermits = %d permits, want 1", len(ps))
			}
			ps[0].State = service.PermitRevoked
			must("UpdatePermit", db.UpdatePermit(ctx, ps[0]))
		}},
		{"adoption agreement open", func() {
			must("CreateAdoptionAgreement", db.CreateAdoptionAgreement(ctx, &service.AdoptionAgreement{AnimalID: tom.ID, Jurisdiction: "minneapolis",
				Adopter: "Per Holm", AdoptedOn: service.MustDate("2026-03-01"), DueOn: service.MustDate("2026-03-31"), DueSource: "64.140(a)(1)"}))
		}},
		{"adoption agreement fulfilled", func() {
			r, _ := viaRow(t, db, "985141000000002")
			if r == nil || len(r.Agreements) != 1 {
				t.Fatalf("lookup of Tom = %+v; want one open agreement", r)
			}
			ag := r.Agreements[0]
			ag.SterilisedOn = service.MustDate("2026-03-20")
			must("UpdateAdoptionAgreement", db.UpdateAdoptionAgreement(ctx, &ag))
		}},
		{"old bite and old closed impoundment (outside the twelve months)", func() {
			must("CreateBite", db.CreateBite(ctx, &service.BiteIncident{AnimalID: tom.ID, Date: service.MustDate("2025-04-30"), Victim: "animal"}))
			i := &service.Impoundment{AnimalID: tom.ID, Jurisdiction: "minneapolis", IntakeAt: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC),
				IntakeOn: service.MustDate("2025-03-01")}
			must("CreateImpoundment", db.CreateImpoundment(ctx, i))
			d := service.Redeemed
			_, err := db.UpdateImpoundment(ctx, i.ID, service.ImpoundUpdate{Disposition: &d, DispositionOn: date("2025-03-02")})
			must("UpdateImpoundment", err)
		}},
	}...)
	for _, s := range steps {
		s.change()
		checkRows(t, db, s.name)
	}
	// Twelve months before 2026-05-01: the 2025 bite and the closed
	// 2025 impoundment are not shown; the released quarantine neither.
	r, _ := viaRow(t, db, "985141000000002")
	if r == nil || len(r.Quarantines) != 0 || len(r.Bites) != 1 || len(r.Impounds) != 0 {
		t.Errorf("lookup of Tom = %d quarantines, %d bites, %d impoundments; want 0, 1, 0", len(r.Quarantines), len(r.Bites), len(r.Impounds))
	}
}

// TestLookupRowsMarkedElsewhere covers a change committed without the
// store (another program, a migration): the marked animal's row is not
// used, the full record answers, and the next write rebuilds the row.
func TestLookupRowsMarkedElsewhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "marked.db")
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	o := &service.Owner{Name: "Ada Lund"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog}
	if err := db.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := db.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: "985141000000001", Kind: chipid.KindISO}); err != nil {
		t.Fatal(err)
	}
	// Another program renames the owner: the trigger marks the animal.
	if _, err := db.ckdb.ExecContext(ctx, `UPDATE owners SET name = 'Ada Lund-Berg' WHERE id = ?`, o.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := viaRow(t, db, "985141000000001"); ok {
		t.Error("the lookup row of a marked animal answered")
	}
	r, err := db.FindRecordByChip(ctx, "985141000000001")
	if err != nil || r.Owner == nil || r.Owner.Name != "Ada Lund-Berg" {
		t.Fatalf("FindRecordByChip after an outside change = %+v, %v; want the new owner name", r, err)
	}
	if err := db.CreateScan(ctx, &service.Scan{At: time.Now(), Reader: "r1", ChipCode: "985141000000001"}); err != nil {
		t.Fatal(err)
	}
	checkRows(t, db, "after the next write")
}

// TestLookupRowsBuiltOnOpen opens a database whose rows were written for
// another layout, or never (a store from before migration 0007): Open
// builds them.
func TestLookupRowsBuiltOnOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := &service.Owner{Name: "Ada Lund"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	for i, code := range []string{"985141000000001", "985141000000002"} {
		a := &service.Animal{OwnerID: o.ID, Name: "Pet " + code[len(code)-1:], Species: service.Dog}
		if err := db.CreateAnimal(ctx, a); err != nil {
			t.Fatal(err)
		}
		if err := db.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: code, Kind: chipid.KindISO}); err != nil {
			t.Fatalf("AddChip %d: %v", i, err)
		}
	}
	for _, tc := range []struct {
		name   string
		break_ string
	}{
		{"another layout", `UPDATE lookup_shape SET shape = '0|old'; UPDATE lookup_rows SET body = '[]'`},
		{"before migration 0008", `DROP TABLE lookup_rows;
			CREATE TABLE lookup_rows (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, animal_id INTEGER NOT NULL, body TEXT NOT NULL);
			CREATE INDEX lookup_rows_animal ON lookup_rows (animal_id);
			INSERT INTO lookup_rows (code, animal_id, body) SELECT code, animal_id, '[]' FROM chips;
			UPDATE lookup_shape SET shape = '3|old';
			DELETE FROM migrations WHERE name LIKE '%0008_lookup_rows_keyed.sql' OR name LIKE '%0150_lookup_rows_lean.sql'`},
		{"before migration 0150", `DROP TABLE lookup_rows;
			CREATE TABLE lookup_rows (id INTEGER PRIMARY KEY, code TEXT NOT NULL, animal_id INTEGER NOT NULL, body TEXT NOT NULL);
			CREATE INDEX lookup_rows_animal ON lookup_rows (animal_id);
			INSERT INTO lookup_rows (id, code, animal_id, body) SELECT CAST(code AS INTEGER), code, animal_id, '[]' FROM chips;
			UPDATE lookup_shape SET shape = '5|old';
			DELETE FROM migrations WHERE name LIKE '%0150_lookup_rows_lean.sql'`},
		{"before migration 0007", `DROP TABLE lookup_rows; DROP TABLE lookup_dirty; DROP TABLE lookup_shape;
			DROP TRIGGER animals_lookup_update; DROP TRIGGER animals_lookup_delete; DROP TRIGGER owners_lookup_update;
			DROP TRIGGER owners_lookup_delete; DROP TRIGGER chips_lookup_insert; DROP TRIGGER chips_lookup_update;
			DROP TRIGGER chips_lookup_delete; DROP TRIGGER vaccinations_lookup_insert; DROP TRIGGER vaccinations_lookup_update;
			DROP TRIGGER vaccinations_lookup_delete; DROP TRIGGER designations_lookup_insert;
			DROP TRIGGER designations_lookup_update; DROP TRIGGER designations_lookup_delete;
			DROP TRIGGER quarantines_lookup_insert; DROP TRIGGER quarantines_lookup_update; DROP TRIGGER quarantines_lookup_delete;
			DROP TRIGGER impoundments_lookup_insert; DROP TRIGGER impoundments_lookup_update; DROP TRIGGER impoundments_lookup_delete;
			DROP TRIGGER bites_lookup_insert; DROP TRIGGER bites_lookup_update; DROP TRIGGER bites_lookup_delete;
			DELETE FROM migrations WHERE name LIKE '%0007_lookup_rows.sql' OR name LIKE '%0008_lookup_rows_keyed.sql'
				OR name LIKE '%0150_lookup_rows_lean.sql'`},
	} {
		if _, err := db.ckdb.ExecContext(ctx, tc.break_); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		db.Close()
		if db, err = Open(ctx, path, nil); err != nil {
			t.Fatalf("%s: Open: %v", tc.name, err)
		}
		checkRows(t, db, tc.name)
	}
	db.Close()
}

// TestLookupKey: fifteen digits, and only they, are a lookup row's key,
// read as the number they write.
func TestLookupKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		code string
		key  int64
		ok   bool
	}{
		{"985141000000001", 985141000000001, true},
		{"000000000000001", 1, true},
		{"999999999999999", 999999999999999, true},
		{"98514100000001", 0, false},   // 14 digits
		{"9851410000000011", 0, false}, // 16
		{"012345678", 0, false},        // AVID
		{"0A1B2C3D4E", 0, false},       // FDX-A
		{"98514100000000A", 0, false},
		{"-85141000000001", 0, false},
		{"98514100000000\u0661", 0, false}, // a digit, not an ASCII one
	} {
		if key, ok := lookupKey(tc.code); key != tc.key || ok != tc.ok {
			t.Errorf("lookupKey(%q) = %d, %v; want %d, %v", tc.code, key, ok, tc.key, tc.ok)
		}
	}
}

// TestLookupRowsImport checks the rows an import builds, in the one
// transaction of the import.
func TestLookupRowsImport(t *testing.T) {
	t.Parallel()
	db := openTemp(t, nil)
	if err := db.Import(context.Background(), benchBatchInternal(300)); err != nil {
		t.Fatal(err)
	}
	checkRows(t, db, "import")
	// The import suspended the marking triggers: they are back.
	if err := db.AddChip(context.Background(), &service.Chip{AnimalID: 1, Code: "985999000000001", Kind: chipid.KindISO}); err != nil {
		t.Fatal(err)
	}
	checkRows(t, db, "a chip added after the import")
	// A second import, onto animals already there.
	b := benchBatchInternal(0)
	// An id of its own, in a gap below the table's last one: its animal
	// must be marked although its rowid is not past where the table ended.
	b.Vaccinations = append(b.Vaccinations, &service.RabiesVaccination{ID: 15, AnimalID: 2, Date: service.MustDate("2026-01-15"), DurationMonths: 36})
	b.Chips = append(b.Chips, &service.Chip{AnimalID: 3, Code: "985999000000002", Kind: chipid.KindISO})
	if err := db.Import(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	checkRows(t, db, "second import")
	if r, _ := viaRow(t, db, "985000000000002"); r == nil || r.Rabies == nil || r.Rabies.Date != service.MustDate("2026-01-15") {
		t.Errorf("after the second import, animal 2's row has rabies %+v; want the 2026-01-15 vaccination", r)
	}
}

// benchBatchInternal is n owners, each with a chipped dog and a rabies
// vaccination (ids ten apart, leaving gaps).
func benchBatchInternal(n int) *service.Batch {
	b := &service.Batch{}
	for i := 1; i <= n; i++ {
		id := int64(i)
		b.Owners = append(b.Owners, &service.Owner{ID: id, Name: "Owner " + strings.Repeat("x", i%7), Address: "1 Main St"})
		b.Animals = append(b.Animals, &service.Animal{ID: id, OwnerID: id, Name: "Rex", Species: service.Dog, Altered: i%2 == 0})
		b.Chips = append(b.Chips, &service.Chip{ID: id, AnimalID: id, Code: fmt.Sprintf("985%012d", i), Kind: chipid.KindISO})
		b.Vaccinations = append(b.Vaccinations, &service.RabiesVaccination{ID: 10 * id, AnimalID: id, Date: service.MustDate("2025-06-01")})
	}
	return b
}

// TestLookupTriggersCoverRowParts: every table a lookup row's parts read
// (recordParts with inRow) has the triggers that mark its changes, so a
// part added to the rows without them fails here rather than leaving
// rows stale. A new animal has no chip and a new owner no animal yet:
// those two need no insert trigger (migration 0007).
func TestLookupTriggersCoverRowParts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	names := func(q string) map[string]bool {
		t.Helper()
		rows, err := db.rdb.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]bool{}
		for rows.Next() {
			var n string
			rows.Scan(&n)
			out[n] = true
		}
		return out
	}
	tables := names(`SELECT name FROM sqlite_schema WHERE type = 'table'`)
	triggers := names(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`)
	read := 0
	for _, p := range recordParts {
		if !p.inRow {
			continue
		}
		for _, word := range strings.FieldsFunc(p.from, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == '\t' || r == '\n' }) {
			if !tables[word] {
				continue
			}
			read++
			for _, event := range []string{"insert", "update", "delete"} {
				if event == "insert" && (word == "animals" || word == "owners") {
					continue
				}
				if name := word + "_lookup_" + event; !triggers[name] {
					t.Errorf("part %s reads %s, which has no trigger %s", p.kind, word, name)
				}
			}
		}
	}
	if read < 8 { // animals, owners, chips, vaccinations, designations, quarantines, impoundments, bites
		t.Errorf("found %d tables in the parts' sources, want at least 8: the check reads nothing", read)
	}
}

// TestLookupRowStamps: a lookup row keeps an instant as an integer
// (rowCols) and answers it as the full record does, whatever text the
// column holds: stampLayout's, another RFC 3339 form, a year past what
// nanoseconds since 1970 hold in an int64.
func TestLookupRowStamps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	o := &service.Owner{Name: "Ada Lund"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog}
	if err := db.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	const code = "985141000000001"
	if err := db.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: code, Kind: chipid.KindISO}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, at string }{
		{"layout", "2026-03-01T09:00:00.123456789Z"},
		{"first instant of 1678", "1678-01-01T00:00:00.000000000Z"},
		{"last year that fits", "2261-12-31T23:59:59.999999999Z"},
		{"past int64 nanoseconds", "2300-01-01T00:00:00.000000000Z"},
		{"before 1678", "1600-01-01T00:00:00.000000000Z"},
		{"no fraction", "2026-03-01T09:00:00Z"},
		{"millisecond fraction", "2026-03-01T09:00:00.123Z"},
	} {
		// Written by another program (the trigger marks the animal); the
		// next write rebuilds the row.
		if _, err := db.ckdb.ExecContext(ctx, `UPDATE animals SET created_at = ? WHERE id = ?`, tc.at, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateScan(ctx, &service.Scan{At: time.Now(), Reader: "r1", ChipCode: code}); err != nil {
			t.Fatal(err)
		}
		checkRows(t, db, tc.name)
		want, err := time.Parse(time.RFC3339Nano, tc.at)
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := viaRow(t, db, code); !ok || !r.Animal.CreatedAt.Equal(want) {
			t.Errorf("%s: the row's created_at = %v (answered %v); want %v", tc.name, r.Animal.CreatedAt, ok, want)
		}
	}
}

// TestPartTable: the table each part of a lookup row reads is a table of
// the schema (emptyParts asks whether it holds a row).
func TestPartTable(t *testing.T) {
	t.Parallel()
	db := openTemp(t, nil)
	for _, p := range recordParts {
		name := partTable(p.from)
		var n int
		if err := db.rdb.QueryRow(`SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&n); err != nil || n != 1 {
			t.Errorf("part %s: partTable(%q) = %q, not a table (%v)", p.kind, p.from, name, err)
		}
	}
}

// TestLookupRowsManyMarks: a rebuild of manyMarks animals or more leaves
// the parts of empty tables out of its statement (emptyParts), and its
// rows answer what the full record does, with a table of the parts empty
// and with each holding a row.
func TestLookupRowsManyMarks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	if err := db.Import(ctx, benchBatchInternal(manyMarks+10)); err != nil {
		t.Fatal(err)
	}
	checkRows(t, db, "import into an empty store")
	if err := db.CreateBite(ctx, &service.BiteIncident{AnimalID: 2, Date: service.MustDate("2026-02-01"), Victim: service.Victim("person")}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: 3, Level: service.DangerLevel("potentially-dangerous"),
		Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-02-02")}); err != nil {
		t.Fatal(err)
	}
	// Every animal marked by another program, rebuilt by the next write.
	if _, err := db.ckdb.ExecContext(ctx, `UPDATE owners SET name = name || ' Lund'`); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateScan(ctx, &service.Scan{At: time.Now(), Reader: "r1", ChipCode: "985000000000001"}); err != nil {
		t.Fatal(err)
	}
	checkRows(t, db, "every animal rebuilt, a bite and a designation stored")
	for code, what := range map[string]func(*service.Record) bool{
		"985000000000002": func(r *service.Record) bool { return len(r.Bites) == 1 },
		"985000000000003": func(r *service.Record) bool { return r.Dangerous != nil },
	} {
		if r, ok := viaRow(t, db, code); !ok || !what(r) {
			t.Errorf("chip %s: the row (answered %v) lacks its bite or designation: %+v", code, ok, r)
		}
	}
}

// TestLookupRowCodes: a row keyed by its code's fifteen digits keeps no
// code (they give it back); a row of another code keeps it; both answer.
func TestLookupRowCodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	o := &service.Owner{Name: "Ada Lund"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog}
	if err := db.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	chips := map[string]chipid.Kind{"985141000000001": chipid.KindISO, "0A1B2C3D4E": chipid.KindFECAVA, "012345678": chipid.KindAVID}
	for code, kind := range chips {
		if err := db.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: code, Kind: kind}); err != nil {
			t.Fatal(err)
		}
	}
	checkRows(t, db, "three kinds of chip")
	for code := range chips {
		var kept sql.NullString
		if err := db.rdb.QueryRow(`SELECT r.code FROM lookup_rows r JOIN chips c ON r.id = `+lookupKeySQL("c")+` WHERE c.code = ?`, code).Scan(&kept); err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		_, keyed := lookupKey(code)
		if want := !keyed; kept.Valid != want || (kept.Valid && kept.String != code) {
			t.Errorf("%s: the row keeps code %+v; want a code kept: %v", code, kept, want)
		}
		if r, ok := viaRow(t, db, code); !ok || r.Animal.ID != a.ID {
			t.Errorf("%s: the row answered %v, %+v", code, ok, r)
		}
	}
	// A code that differs from a row's only in what the row does not
	// keep finds nothing.
	if _, ok := viaRow(t, db, "985141000000002"); ok {
		t.Error("an unknown ISO code answered from a row")
	}
}

// TestRowDateColumns: every column a lookup row keeps as a date number
// (dateColumn) is one the record's decoder reads as a date: the text of
// a day and its number decode the same.
func TestRowDateColumns(t *testing.T) {
	t.Parallel()
	db := openTemp(t, nil)
	if got := service.DateOf(time.Unix(0, 0).UTC()); int(got) != dateOfUnixEpoch {
		t.Fatalf("1970-01-01 is Date %d; dateOfUnixEpoch is %d", got, dateOfUnixEpoch)
	}
	day := service.MustDate("2026-01-02")
	dates := 0
	for _, p := range recordParts {
		if !p.inRow {
			continue
		}
		names := strings.Split(p.cols, ",")
		for i, name := range names {
			if !dateColumn(strings.TrimSpace(name)) {
				continue
			}
			dates++
			var recs [2]service.Record
			for j, v := range []val{{s: day.String(), kind: valText}, {n: int64(day), kind: valInt}} {
				c := make(cols, len(names))
				for k := range c {
					c[k] = val{s: "x", kind: valText}
				}
				c[i] = v
				db.addPart(&recs[j], p.kind, c)
			}
			if !reflect.DeepEqual(recs[0], recs[1]) {
				t.Errorf("part %s, column %s: the date's text and number decode differently:\n%+v\n%+v", p.kind, name, recs[0], recs[1])
			}
		}
	}
	if dates < 20 {
		t.Errorf("%d date columns found in the rows' parts; want the twenty or more they have", dates)
	}
}

// TestLookupRowDates: a lookup row keeps a date as its number and
// answers it as the full record does, whatever text the column holds.
func TestLookupRowDates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	o := &service.Owner{Name: "Ada Lund"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog}
	if err := db.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	const code = "985141000000001"
	if err := db.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: code, Kind: chipid.KindISO}); err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"2026-03-01", "0001-01-01", "9999-12-31", "1969-12-31", "2024-02-29",
		"2026-02-30", "0000-01-01", "2026-1-2", "2026-03-01 ", "2026-03-01T00:00:00", ""} {
		if _, err := db.ckdb.ExecContext(ctx, `UPDATE animals SET birth_date = ? WHERE id = ?`, text, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.CreateScan(ctx, &service.Scan{At: time.Now(), Reader: "r1", ChipCode: code}); err != nil {
			t.Fatal(err)
		}
		checkRows(t, db, "birth_date "+text)
	}
}
