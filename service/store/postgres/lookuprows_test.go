package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// TestLookupRowsFollowEveryWrite: after each kind of change to an
// animal's record (owner, chips, vaccination, designation, quarantine,
// impoundment and bite, some outside the twelve-month window, permit
// and agreement) the
// lookup, read from the animal's lookup row, answers exactly what the
// full statement does.
func TestLookupRowsFollowEveryWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) }
	db := pgtest.Open(t, now)
	same := func(step string, a *service.Animal, chip string) {
		t.Helper()
		for _, by := range []struct {
			name string
			get  func() (*service.Record, error)
		}{
			{"animal", func() (*service.Record, error) { return db.FindRecordByAnimal(ctx, a.ID) }},
			{"chip", func() (*service.Record, error) { return db.FindRecordByChip(ctx, chip) }},
		} {
			got, err := by.get()
			if err != nil {
				t.Fatalf("%s: lookup by %s: %v", step, by.name, err)
			}
			want, err := postgres.FullRecordForTest(ctx, db, a.ID)
			if err != nil {
				t.Fatalf("%s: full record: %v", step, err)
			}
			if by.name == "chip" {
				want.MatchChip(chip)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Fatalf("%s: lookup by %s from the row\n%s\nwant the full record's\n%s", step, by.name, g, w)
			}
		}
	}
	o := &service.Owner{Name: "Jane Doe", Phone: "612-555-0101"}
	must(t, db.CreateOwner(ctx, o))
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog}
	must(t, db.CreateAnimal(ctx, a))
	chip := "985141000000001"
	must(t, db.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: chip, Kind: chipid.KindISO}))
	c2 := &service.Chip{AnimalID: a.ID, Code: "985141000000002", Kind: chipid.KindISO}
	must(t, db.AddChip(ctx, c2))
	same("chips", a, chip)
	phone := "612-555-0199"
	_, err := db.UpdateOwner(ctx, o.ID, service.OwnerUpdate{Phone: &phone})
	must(t, err)
	same("owner update", a, chip)
	must(t, db.RemoveChip(ctx, c2.ID))
	same("chip removed", a, chip)
	must(t, db.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2025-06-01"), DurationMonths: 36}))
	must(t, db.CreateLicence(ctx, &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-02-01"),
		ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 3000}))
	same("vaccination and licence", a, chip)
	must(t, db.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: a.ID, Level: service.Dangerous, Jurisdiction: "minneapolis",
		DeclaredOn: service.MustDate("2026-01-10")}))
	old := &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2024-05-01"), Victim: service.VictimPerson}
	must(t, db.CreateBite(ctx, old))
	recent := &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2026-03-01"), Victim: service.VictimPerson}
	must(t, db.CreateBite(ctx, recent))
	q := &service.Quarantine{AnimalID: a.ID, BiteID: recent.ID, Kind: service.QuarantineBite, Place: "home",
		Start: service.MustDate("2026-03-01"), End: service.MustDate("2026-03-11")}
	must(t, db.CreateQuarantine(ctx, q))
	same("designation, bites, quarantine", a, chip)
	must(t, db.ReleaseQuarantine(ctx, q.ID, service.MustDate("2026-03-11")))
	gone := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeAt: now().AddDate(-2, 0, 0), IntakeOn: service.MustDate("2024-03-15"),
		HoldUntil: service.MustDate("2024-03-20")}
	must(t, db.CreateImpoundment(ctx, gone))
	redeemed := service.Redeemed
	_, err = db.UpdateImpoundment(ctx, gone.ID, service.ImpoundUpdate{Disposition: &redeemed, DispositionOn: ptr(service.MustDate("2024-03-18"))})
	must(t, err)
	open := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeAt: now().AddDate(-2, 0, 0), IntakeOn: service.MustDate("2024-04-01"),
		HoldUntil: service.MustDate("2024-04-06")}
	must(t, db.CreateImpoundment(ctx, open))
	same("impoundments, quarantine released", a, chip)
	must(t, db.CreatePermit(ctx, &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID,
		State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31")}))
	ag := &service.AdoptionAgreement{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "Per Holm", AdoptedOn: service.MustDate("2026-03-01"),
		DueOn: service.MustDate("2026-03-31"), DueSource: "64.140(a)(1)"}
	must(t, db.CreateAdoptionAgreement(ctx, ag))
	same("permit and agreement", a, chip)
	ag.SterilisedOn = service.MustDate("2026-03-20")
	must(t, db.UpdateAdoptionAgreement(ctx, ag))
	same("agreement fulfilled", a, chip)
	// A bulk load builds its rows set-wise at the end (rebuildSQL):
	// the same rows.
	b := &service.Batch{
		Owners:       []*service.Owner{{ID: 100, Name: "Ann Lee"}},
		Animals:      []*service.Animal{{ID: 100, OwnerID: 100, Name: "Tom", Species: service.Cat}, {ID: 101, Name: "Stray", Species: service.Dog}},
		Chips:        []*service.Chip{{ID: 100, AnimalID: 100, Code: "985141000000100", Kind: chipid.KindISO}, {ID: 101, AnimalID: 101, Code: "985141000000101", Kind: chipid.KindISO}},
		Vaccinations: []*service.RabiesVaccination{{ID: 100, AnimalID: 100, Date: service.MustDate("2025-01-01"), DurationMonths: 12}, {ID: 101, AnimalID: 100, Date: service.MustDate("2026-01-01"), DurationMonths: 12}},
	}
	must(t, db.Import(ctx, b))
	same("imported", b.Animals[0], "985141000000100")
	same("imported, no owner", b.Animals[1], "985141000000101")
	if rec, _ := db.FindRecordByAnimal(ctx, a.ID); len(rec.Bites) != 1 || len(rec.Impounds) != 1 || len(rec.Quarantines) != 0 {
		t.Errorf("record has %d bites, %d impoundments, %d quarantines; want the window's 1, the open 1 and 0", len(rec.Bites), len(rec.Impounds), len(rec.Quarantines))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestLookupRowsTypedOnOpen: a store whose lookup rows are of an older
// layout (the JSON body of migration 0030, lookup_store unwritten) gets
// the typed rows of this build when it opens, built for every animal by
// the set-wise statement, and its lookups answer what the full record
// does, permits in their order.
func TestLookupRowsTypedOnOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) }
	dsn := pgtest.DSN(t)
	db, err := postgres.Open(ctx, dsn, &postgres.Opts{Now: now, MaxConns: 2})
	must(t, err)
	o := &service.Owner{Name: "Jane Doe"}
	must(t, db.CreateOwner(ctx, o))
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog}
	must(t, db.CreateAnimal(ctx, a))
	chip := "985141000000007"
	must(t, db.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: chip, Kind: chipid.KindISO}))
	must(t, db.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2025-06-01"), DurationMonths: 36}))
	for range 2 {
		must(t, db.CreatePermit(ctx, &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID,
			State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31")}))
	}
	db.Close()

	conn, err := pgx.Connect(ctx, dsn)
	must(t, err)
	_, err = conn.Exec(ctx, `DROP FUNCTION lookup_store(BIGINT); DROP TABLE lookup_rows;
		CREATE TABLE lookup_rows (animal_id BIGINT PRIMARY KEY, body TEXT NOT NULL);
		INSERT INTO lookup_rows VALUES (1, '[]')`)
	conn.Close(ctx)
	must(t, err)

	db, err = postgres.Open(ctx, dsn, &postgres.Opts{Now: now, MaxConns: 2})
	must(t, err)
	defer db.Close()
	got, err := db.FindRecordByChip(ctx, chip)
	must(t, err)
	want, err := postgres.FullRecordForTest(ctx, db, a.ID)
	must(t, err)
	want.MatchChip(chip)
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) || got.Owner == nil || got.Rabies == nil || len(got.Permits) != 2 {
		t.Fatalf("lookup after the layout changed\n%s\nwant the full record's\n%s", g, w)
	}
	conn, err = pgx.Connect(ctx, dsn)
	must(t, err)
	defer conn.Close(ctx)
	var name string
	var n int
	must(t, conn.QueryRow(ctx, `SELECT (SELECT a_name FROM lookup_rows WHERE animal_id = $1), (SELECT COUNT(*) FROM lookup_rows)`, a.ID).Scan(&name, &n))
	if name != "Rex" || n != 1 {
		t.Errorf("lookup rows after open: name %q of %d rows; want Rex, the one animal's", name, n)
	}
}
