// Package apptest gives the tests of the application layer (licensing,
// custody, incidents) their fixtures: the same test on a real SQLite
// database and on a real PostgreSQL schema, the embedded jurisdiction
// profiles, a fixed clock, and the records a case starts from.
package apptest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// Now is the fixed clock of the tests: Wednesday 10 June 2026, 10:00 in
// Minneapolis and Chanhassen.
var Now = time.Date(2026, 6, 10, 15, 0, 0, 0, time.UTC)

// Clock returns Now.
func Clock() time.Time { return Now }

// Today is Now's date in the profiles' zone.
var Today = service.MustDate("2026-06-10")

// Rules returns the embedded profiles.
func Rules(t testing.TB) *rules.Set {
	t.Helper()
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatalf("rules.Embedded: %v", err)
	}
	return rs
}

// SQLite opens a store in a temporary directory, closed at the end.
func SQLite(t testing.TB) service.Store {
	t.Helper()
	loc, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "case.db"), &sqlite.Opts{Now: Clock, Location: loc})
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Backends runs test on SQLite and on PostgreSQL (skipped, or failed in
// CI, without a test server; see pgtest).
func Backends(t *testing.T, test func(t *testing.T, st service.Store)) {
	t.Run("sqlite", func(t *testing.T) { test(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { test(t, pgtest.Open(t, Clock)) })
}

// Animal stores an owner in city and a, and returns a's id.
func Animal(t testing.TB, st service.Store, city string, a service.Animal) int64 {
	t.Helper()
	ctx := context.Background()
	o := &service.Owner{Name: "Ada Lund", City: city, State: "MN"}
	if err := st.CreateOwner(ctx, o); err != nil {
		t.Fatalf("CreateOwner: %v", err)
	}
	a.OwnerID = o.ID
	if a.Name == "" {
		a.Name = "Rex"
	}
	if a.Species == "" {
		a.Species = service.Dog
	}
	if err := st.CreateAnimal(ctx, &a); err != nil {
		t.Fatalf("CreateAnimal: %v", err)
	}
	return a.ID
}

// Dog stores an altered adult dog of an owner in city, vaccinated on
// 2026-05-01 (Vaccinate), and returns its id.
func Dog(t testing.TB, st service.Store, city string) int64 {
	t.Helper()
	id := Animal(t, st, city, service.Animal{Altered: true, BirthDate: service.MustDate("2021-05-01")})
	Vaccinate(t, st, id, "2026-05-01")
	return id
}

// Vaccinate records a one-year modified-live rabies vaccination on date,
// current in both cities (66.10; Chanhassen 5-37(a) sets no period for a
// killed vaccine), with the certificate number and the veterinarian both
// cities ask of the certificate a licence relies on (5-37(b), 66.10).
func Vaccinate(t testing.TB, st service.Store, id int64, date string) {
	t.Helper()
	v := &service.RabiesVaccination{AnimalID: id, Date: service.MustDate(date), Type: service.VaccineModifiedLive, DurationMonths: 12,
		Certificate: "RV-" + date, Veterinarian: "Dr. A. Hale"}
	if err := st.CreateVaccination(context.Background(), v); err != nil {
		t.Fatalf("CreateVaccination: %v", err)
	}
}

// Refused fails t unless err is a service.Error with code and, when
// field is not empty, that field.
func Refused(t testing.TB, what string, err error, code, field string) {
	t.Helper()
	if service.ErrorCode(err) != code || field != "" && service.ErrorField(err) != field {
		t.Errorf("%s = %v (field %q), want %s on field %q", what, err, service.ErrorField(err), code, field)
	}
}
