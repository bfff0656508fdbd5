package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// migrateClock is a fixed clock; instants in microseconds survive
// PostgreSQL unchanged.
func migrateClock() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 123456000, time.UTC) }

// fillAllTables writes at least one row into every table and returns a
// token secret.
func fillAllTables(t *testing.T, s service.Store) string {
	t.Helper()
	ctx := context.Background()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	o := &service.Owner{Name: "Ada Lund", Address: "12 Lake St", City: "Minneapolis", Phone: "612-555-0101"}
	must("CreateOwner", s.CreateOwner(ctx, o))
	a := &service.Animal{OwnerID: o.ID, Name: "Rex", Species: service.Dog, Altered: true, BirthDate: service.MustDate("2021-05-01")}
	must("CreateAnimal", s.CreateAnimal(ctx, a))
	stray := &service.Animal{Species: service.Cat, Colour: "tabby"}
	must("CreateAnimal", s.CreateAnimal(ctx, stray))
	must("AddChip", s.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: "985141000123456", Kind: chipid.KindISO, ImplantDate: service.MustDate("2021-07-01")}))
	must("AddChip", s.AddChip(ctx, &service.Chip{AnimalID: stray.ID, Code: "0A1B2C3D4E", Kind: chipid.KindFECAVA}))
	l := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-02-01"),
		ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 1500, Site: "clinic-north", IssuedBy: service.IssuerClinic, Clinic: "North Vet"}
	must("CreateLicence", s.CreateLicence(ctx, l))
	dup := &service.Licence{AnimalID: a.ID, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-03-01"),
		ExpiresOn: l.ExpiresOn, Replaces: l.ID, ReplaceReason: service.TagLost, FeeCents: 500}
	must("CreateLicence(duplicate)", s.CreateLicence(ctx, dup))
	must("CreateVaccination", s.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2025-05-01"),
		Type: service.VaccineKilled, DurationMonths: 36, ExtendedCertified: true, Lot: "A1", LotExpires: service.MustDate("2026-01-01")}))
	must("CreateDesignation", s.CreateDesignation(ctx, &service.DangerousDesignation{AnimalID: a.ID, Level: service.Dangerous,
		Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-01-20"), InsuranceCents: 30000000}))
	b := &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2026-03-09"), Victim: service.VictimPerson, SkinBroken: true}
	must("CreateBite", s.CreateBite(ctx, b))
	must("CreateQuarantine", s.CreateQuarantine(ctx, &service.Quarantine{AnimalID: a.ID, BiteID: b.ID, Kind: service.QuarantineBite,
		Place: service.AtHome, Start: b.Date, End: b.Date.AddDays(10)}))
	must("CreateImpoundment", s.CreateImpoundment(ctx, &service.Impoundment{AnimalID: stray.ID, Jurisdiction: "minneapolis",
		IntakeOn: service.MustDate("2026-03-14"), Site: "shelter-east", BiteCase: true}))
	must("CreateScan", s.CreateScan(ctx, &service.Scan{Reader: "wl134", ChipCode: "0A1B2C3D4E", Site: "shelter-east", AnimalID: stray.ID}))
	must("CreateAuditEvent", s.CreateAuditEvent(ctx, &service.AuditEvent{Actor: "officer-7", Site: "shelter-east", Action: "record.view", Entity: "animal", EntityID: stray.ID}))
	// A lookup's event compacted into its count, which a copy keeps too.
	must("CreateAuditEvent", s.CreateAuditEvent(ctx, &service.AuditEvent{At: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC), Actor: "officer-7",
		Site: "shelter-east", Action: "lookup.chip", Entity: "animal", EntityID: stray.ID, Detail: "0A1B2C3D4E"}))
	_, err := service.CompactAuditLog(ctx, s, time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), nil)
	must("CompactAudit", err)
	secret, err := s.CreateToken(ctx, &service.Token{Name: "officer-7", Role: service.RoleOfficer, Site: "shelter-east"})
	must("CreateToken", err)
	must("CreateUser", s.(service.UserService).CreateUser(ctx, &service.User{Name: "Dana Ortiz", Role: service.RoleIntake, Site: "shelter-east", Hash: "$2a$11$hash"}))
	_, err = s.CreateJob(ctx, &service.Job{Kind: service.JobEngrave, LicenceID: dup.ID, Reason: "duplicate"})
	must("CreateJob", err)
	tb, ok := s.(service.TagBatchService)
	if !ok {
		t.Fatalf("%T does not keep tag batches", s)
	}
	_, err = tb.CreateTagBatch(ctx, &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Key: "office/2026/1"}, 10)
	must("CreateTagBatch", err)
	_, _, err = s.(service.DeviceEventService).ApplyDeviceEvent(ctx, &service.DeviceEvent{ID: "e1", Device: "handheld-3",
		Kind: service.DeviceScan, At: migrateClock().Add(-time.Hour), Scan: &service.Scan{ChipCode: "985141000123456"}})
	must("ApplyDeviceEvent", err)
	// service/permits' tables.
	must("CreatePermit", s.CreatePermit(ctx, &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID,
		State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31")}))
	must("CreateAdoptionAgreement", s.CreateAdoptionAgreement(ctx, &service.AdoptionAgreement{AnimalID: stray.ID, Jurisdiction: "minneapolis",
		Adopter: "Per Holm", AdoptedOn: service.MustDate("2026-03-01"), DueOn: service.MustDate("2026-03-31"), DueSource: "64.140(a)(1)"}))
	must("CreateAnimalReport", s.CreateAnimalReport(ctx, &service.AnimalReport{Kind: service.ReportBite, Jurisdiction: "minneapolis",
		ReportedOn: service.MustDate("2026-03-14"), Reporter: service.Person{Name: "Dr. Aho"}, ReporterRole: "physician", Open: true}))
	return secret
}

// snapshot is everything a store holds, read through the service API.
type snapshot struct {
	Owners       []*service.Owner
	Animals      []*service.Animal
	Chips        []*service.Chip
	Licences     []*service.Licence
	Vaccinations []*service.RabiesVaccination
	Records      []*service.Record
	Bites        [][]*service.BiteIncident
	Quarantines  [][]*service.Quarantine
	Designations [][]*service.DangerousDesignation
	Impounds     []*service.Impoundment
	Scans        []*service.Scan
	Audit        []*service.AuditEvent
	AuditCounts  []*service.AuditCount
	Tokens       []*service.Token
	Jobs         []*service.Job
	Batches      []*service.TagBatch
	Permits      []*service.Permit
	Agreements   []*service.AdoptionAgreement
	Reports      []*service.AnimalReport
}

func takeSnapshot(t *testing.T, s service.Store) *snapshot {
	t.Helper()
	ctx := context.Background()
	var sn snapshot
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(s.EachOwner(ctx, func(o *service.Owner) error { sn.Owners = append(sn.Owners, o); return nil }))
	check(s.EachAnimal(ctx, func(a *service.Animal) error { sn.Animals = append(sn.Animals, a); return nil }))
	check(s.EachChip(ctx, func(c *service.Chip) error { sn.Chips = append(sn.Chips, c); return nil }))
	check(s.EachLicence(ctx, func(l *service.Licence) error { sn.Licences = append(sn.Licences, l); return nil }))
	check(s.EachVaccination(ctx, func(v *service.RabiesVaccination) error { sn.Vaccinations = append(sn.Vaccinations, v); return nil }))
	for _, a := range sn.Animals {
		r, err := s.FindRecordByAnimal(ctx, a.ID)
		check(err)
		sn.Records = append(sn.Records, r)
		bites, err := s.FindBites(ctx, a.ID)
		check(err)
		sn.Bites = append(sn.Bites, bites)
		qs, err := s.FindQuarantines(ctx, a.ID)
		check(err)
		sn.Quarantines = append(sn.Quarantines, qs)
		ds, err := s.FindDesignations(ctx, a.ID)
		check(err)
		sn.Designations = append(sn.Designations, ds)
	}
	var err error
	sn.Impounds, _, err = s.FindImpoundments(ctx, service.ImpoundFilter{})
	check(err)
	sn.Scans, _, err = s.FindScans(ctx, service.ScanFilter{})
	check(err)
	sn.Audit, _, err = s.FindAuditEvents(ctx, service.AuditFilter{})
	check(err)
	sn.AuditCounts, _, err = s.FindAuditCounts(ctx, service.AuditFilter{})
	check(err)
	if len(sn.AuditCounts) != 1 {
		t.Fatalf("%d audit counts, want the one of the compacted lookup", len(sn.AuditCounts))
	}
	sn.Tokens, err = s.FindTokens(ctx)
	check(err)
	sn.Jobs, _, err = s.FindJobs(ctx, service.JobFilter{})
	check(err)
	sn.Batches, _, err = s.(service.TagBatchService).FindTagBatches(ctx, service.TagBatchFilter{})
	check(err)
	sn.Permits, _, err = s.FindPermits(ctx, service.PermitFilter{})
	check(err)
	sn.Agreements, err = s.FindAdoptionAgreements(ctx, false, 0)
	check(err)
	sn.Reports, err = s.FindAnimalReports(ctx, false)
	check(err)
	return &sn
}

func compareSnapshots(t *testing.T, what string, got, want *snapshot) {
	t.Helper()
	g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("%s: %s differ:\n got %s\nwant %s", what, g.Type().Field(i).Name, dump(g.Field(i).Interface()), dump(w.Field(i).Interface()))
		}
	}
}

func dump(v any) string {
	rv := reflect.ValueOf(v)
	var b strings.Builder
	for i := range rv.Len() {
		e := rv.Index(i)
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		fmt.Fprintf(&b, "%+v ", e.Interface())
	}
	return b.String()
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	e := &cmdline.Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), Now: migrateClock}
	code = run(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

// TestMigrateRoundTrip copies an SQLite database into PostgreSQL and back
// into a new SQLite file; all three read the same through the service
// API, and numbering and ids go on where they stopped.
func TestMigrateRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.db"), filepath.Join(dir, "second.db")

	src, err := sqlite.Open(ctx, first, &sqlite.Opts{Now: migrateClock})
	if err != nil {
		t.Fatal(err)
	}
	secret := fillAllTables(t, src)
	want := takeSnapshot(t, src)
	src.Close()

	code, out, errOut := runCLI("migrate", first, dsn)
	if code != 0 {
		t.Fatalf("migrate sqlite→postgres: exit %d: %s", code, errOut)
	}
	for _, line := range []string{"owners", "licences", "tag_counters", "tokens", "jobs", "device_events", "total"} {
		if !strings.Contains(out, line) {
			t.Errorf("migrate output lacks %q:\n%s", line, out)
		}
	}
	pg, err := postgres.Open(ctx, dsn, &postgres.Opts{Now: migrateClock})
	if err != nil {
		t.Fatal(err)
	}
	compareSnapshots(t, "postgres after migrate", takeSnapshot(t, pg), want)
	pg.Close()

	code, _, errOut = runCLI("migrate", dsn, second)
	if code != 0 {
		t.Fatalf("migrate postgres→sqlite: exit %d: %s", code, errOut)
	}
	back, err := sqlite.Open(ctx, second, &sqlite.Opts{Now: migrateClock})
	if err != nil {
		t.Fatal(err)
	}
	defer back.Close()
	compareSnapshots(t, "sqlite after the round trip", takeSnapshot(t, back), want)

	// Both ends go on numbering where the source stopped.
	for name, open := range map[string]func() (service.Store, error){
		"postgres": func() (service.Store, error) { return postgres.Open(ctx, dsn, &postgres.Opts{Now: migrateClock}) },
		"sqlite":   func() (service.Store, error) { return back, nil },
	} {
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		o := &service.Owner{Name: "New"}
		if err := s.CreateOwner(ctx, o); err != nil {
			t.Fatalf("%s: CreateOwner after migrate: %v", name, err)
		}
		if o.ID != int64(len(want.Owners))+1 {
			t.Errorf("%s: new owner id %d, want %d", name, o.ID, len(want.Owners)+1)
		}
		fresh := &service.Animal{Name: "New", Species: service.Dog, OwnerID: o.ID}
		if err := s.CreateAnimal(ctx, fresh); err != nil {
			t.Fatalf("%s: CreateAnimal after migrate: %v", name, err)
		}
		l := &service.Licence{AnimalID: fresh.ID, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-03-15"),
			ExpiresOn: service.MustDate("2027-01-31")}
		if err := s.CreateLicence(ctx, l); err != nil {
			t.Fatalf("%s: CreateLicence after migrate: %v", name, err)
		}
		if l.TagNumber != 13 {
			t.Errorf("%s: tag after migrate %d, want 13, after two licences and a batch of 10 (64.30 register goes on)", name, l.TagNumber)
		}
		if _, err := s.Authenticate(ctx, secret); err != nil {
			t.Errorf("%s: Authenticate with the token made on the first SQLite: %v", name, err)
		}
		if u, err := s.(service.UserService).FindUserByName(ctx, "Dana Ortiz"); err != nil || u.Hash != "$2a$11$hash" || u.Site != "shelter-east" {
			t.Errorf("%s: the staff account after migrate: %+v %v", name, u, err)
		}
		if name == "postgres" {
			s.Close()
		}
	}
}

func TestMigrateRefuses(t *testing.T) {
	t.Parallel()
	dsn := pgtest.DSN(t)
	dir := t.TempDir()
	full := filepath.Join(dir, "full.db")
	s, err := sqlite.Open(context.Background(), full, nil)
	if err != nil {
		t.Fatal(err)
	}
	fillAllTables(t, s)
	s.Close()
	if code, _, errOut := runCLI("migrate", full, dsn); code != 0 {
		t.Fatalf("first migrate: exit %d: %s", code, errOut)
	}
	for _, tt := range []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"destination not empty", []string{"migrate", full, dsn}, 1, "empty database only"},
		{"sqlite destination not empty", []string{"migrate", dsn, full}, 1, "empty database only"},
		{"missing source", []string{"migrate", filepath.Join(dir, "nope.db"), dsn}, 1, "no such file"},
		{"two sqlite files", []string{"migrate", full, filepath.Join(dir, "b.db")}, 2, "one SQLite file and one postgres"},
		{"one argument", []string{"migrate", full}, 2, "want FROM and TO"},
	} {
		code, _, errOut := runCLI(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.inStderr) {
			t.Errorf("%s: run(%q) = exit %d, stderr %q; want exit %d, stderr with %q", tt.name, tt.args, code, errOut, tt.code, tt.inStderr)
		}
	}
}
