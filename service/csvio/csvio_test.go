package csvio_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the rules' profiles name America/Chicago

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

func openDB(tb testing.TB) *sqlite.DB {
	tb.Helper()
	now := func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) }
	db, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "chipdesk.db"), &sqlite.Opts{Now: now})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// terms wires package rules into the generator, as the command does.
func terms(tb testing.TB) func(*service.Animal, *service.RabiesVaccination, string, service.Date, service.Issuer) csvio.Terms {
	set, err := rules.Embedded()
	if err != nil {
		tb.Fatal(err)
	}
	return func(a *service.Animal, v *service.RabiesVaccination, jur string, issued service.Date, by service.Issuer) csvio.Terms {
		q := set.Profile(jur).LicenceQuote(a, v, issued, rules.QuoteOpts{Issuer: by})
		return csvio.Terms{ExpiresOn: q.ExpiresOn, FeeCents: q.Fees.TotalCents, FeeCode: q.FeeCode, ClinicPayCents: q.ClinicPayCents}
	}
}

func generate(tb testing.TB, n int) map[csvio.Table]*bytes.Buffer {
	tb.Helper()
	bufs := map[csvio.Table]*bytes.Buffer{}
	w := map[csvio.Table]io.Writer{}
	for _, t := range csvio.Tables {
		bufs[t] = &bytes.Buffer{}
		w[t] = bufs[t]
	}
	if err := csvio.Generate(w, csvio.GenOpts{Animals: n, Seed: 7, Terms: terms(tb)}); err != nil {
		tb.Fatalf("Generate: %v", err)
	}
	return bufs
}

func readers(bufs map[csvio.Table]*bytes.Buffer) map[csvio.Table]io.Reader {
	r := map[csvio.Table]io.Reader{}
	for t, b := range bufs {
		r[t] = bytes.NewReader(b.Bytes())
	}
	return r
}

// Ensure a generated set imports and exports back byte for byte.
// eachStore runs fn on SQLite and on PostgreSQL (when reachable; see
// pgtest), each a subtest: the SQLite store takes the decoder's rows in
// chunks through its own writer, PostgreSQL by COPY.
func eachStore(t *testing.T, fn func(t *testing.T, db service.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		fn(t, openDB(t))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, pgtest.Open(t, func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) }))
	})
}

func TestImportExportRoundTrip(t *testing.T) {
	t.Parallel()
	eachStore(t, testImportExportRoundTrip)
}

func testImportExportRoundTrip(t *testing.T, db service.Store) {
	ctx := context.Background()
	bufs := generate(t, 300)
	rep, err := csvio.Import(ctx, db, readers(bufs))
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	if rep.Animals != 300 || rep.Licences != 300 || rep.Vaccinations != 300 || rep.Chips < 200 || rep.Owners < 150 {
		t.Fatalf("Import report %+v", rep)
	}
	for _, tb := range csvio.Tables {
		var out bytes.Buffer
		if err := csvio.Export(ctx, db, tb, &out); err != nil {
			t.Fatalf("Export(%s): %v", tb, err)
		}
		if !bytes.Equal(out.Bytes(), bufs[tb].Bytes()) {
			t.Errorf("Export(%s) differs from the imported file:\n%s\nwant\n%s", tb, head(out.String()), head(bufs[tb].String()))
		}
	}
	// Generated Minneapolis licences carry the 64.30 fees.
	ls, _, err := db.FindLicences(ctx, service.LicenceFilter{Jurisdiction: ptr("minneapolis")})
	if err != nil || len(ls) == 0 {
		t.Fatalf("FindLicences: %v", err)
	}
	for _, l := range ls {
		if a, err := db.FindAnimalByID(ctx, l.AnimalID); err != nil || a.Species == service.Ferret {
			continue // 65.30(b) is in conflict: no fee is charged until the city decides
		}
		if l.FeeCode == "altered" && l.FeeCents != 1500 || l.FeeCode == "unaltered" && l.FeeCents != 3000 {
			t.Fatalf("licence %+v: fee does not follow 64.30", l)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func head(s string) string {
	lines := strings.SplitN(s, "\n", 4)
	return strings.Join(lines[:min(3, len(lines))], "\n")
}

// Ensure malformed files are reported with line and column, and nothing
// is imported.
func TestImportMalformed(t *testing.T) {
	t.Parallel()
	const owners = "id,name\n1,Ada Lund\n2,Bo Berg\n"
	const animals = "id,owner_id,name,species,altered,birth_date\n10,1,Rex,dog,true,2021-05-01\n11,2,Mia,cat,false,\n"
	for _, tt := range []struct {
		name  string
		files map[csvio.Table]string
		want  []string // substrings of the row errors, in order
	}{
		{"bad species and date", map[csvio.Table]string{
			csvio.Owners:  owners,
			csvio.Animals: "id,owner_id,species,birth_date\n10,1,horse,2021-05-01\n11,2,cat,01/05/2021\n",
		}, []string{"animals.csv:2: species: \"horse\" is not one of dog, cat, ferret, other", "animals.csv:3: birth_date: \"01/05/2021\" is not a date"}},
		{"unknown owner", map[csvio.Table]string{
			csvio.Owners:  owners,
			csvio.Animals: "id,owner_id,species\n10,7,dog\n",
		}, []string{"animals.csv:2: owner_id: no owner 7 in the files or the store"}},
		{"bad chip numbers", map[csvio.Table]string{
			csvio.Owners: owners, csvio.Animals: animals,
			csvio.Chips: "animal_id,code\n10,985141000123456\n11,98514100012345X\n11,985 141 000 123 456\n10,12345\n",
		}, []string{"chips.csv:3: code:", "chips.csv:4: code: chip 985141000123456 already on line 2", "chips.csv:5: code:"}},
		{"duplicate tag and ids", map[csvio.Table]string{
			csvio.Owners: owners, csvio.Animals: animals,
			csvio.Licences: "id,animal_id,jurisdiction,tag_number,issued_on,expires_on\n" +
				"1,10,minneapolis,5,2026-02-01,2027-01-31\n1,11,minneapolis,5,2026-02-03,2027-01-31\n2,11,minneapolis,6,2026-02-03,2026-01-31\n",
		}, []string{"licences.csv:3: id: id 1 already used on line 2", "licences.csv:3: tag_number: tag 2026/5 in minneapolis already on line 2", "licences.csv:4: expires_on: expires before it is issued"}},
		{"missing required column", map[csvio.Table]string{
			csvio.Vaccinations: "animal_id,lot\n10,A1\n",
		}, []string{"vaccinations.csv:1: date: required column missing"}},
		{"unknown column", map[csvio.Table]string{
			csvio.Owners: "id,name,shoe_size\n1,Ada,9\n",
		}, []string{"owners.csv:1: shoe_size: unknown column"}},
		{"ragged row and bad quote", map[csvio.Table]string{
			csvio.Owners: "id,name\n1,Ada\n2\n3,\"Bo\"x\n4,Cy\n",
		}, []string{"owners.csv:3: 1 fields, the header has 2", "owners.csv:4:"}},
		{"empty file", map[csvio.Table]string{csvio.Owners: ""}, []string{"owners.csv:1: empty file"}},
		{"vaccination type and duration", map[csvio.Table]string{
			csvio.Owners: owners, csvio.Animals: animals,
			csvio.Vaccinations: "animal_id,date,type,duration_months,extended_certified\n10,2025-06-01,live,60,maybe\n",
		}, []string{"type: \"live\" is not one of killed, modified-live", "extended_certified: \"maybe\"", "duration_months: 60 months"}},
		{"duplicate tag without a reason", map[csvio.Table]string{
			csvio.Owners: owners, csvio.Animals: animals,
			csvio.Licences: "id,animal_id,jurisdiction,issued_on,expires_on,replaces\n1,10,minneapolis,2026-02-01,2027-01-31,\n2,10,minneapolis,2026-02-05,2027-01-31,1\n3,10,minneapolis,2026-02-05,2027-01-31,99\n",
		}, []string{"licences.csv:3: replace_reason:", "licences.csv:4: replace_reason:", "licences.csv:4: replaces: no licence 99"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := openDB(t)
			files := map[csvio.Table]io.Reader{}
			for tb, s := range tt.files {
				files[tb] = strings.NewReader(s)
			}
			_, err := csvio.Import(ctx, db, files)
			var ie *csvio.ImportError
			if !errors.As(err, &ie) {
				t.Fatalf("Import = %v, want an *ImportError", err)
			}
			if service.ErrorCode(err) != service.EINVALID {
				t.Errorf("ErrorCode = %q, want EINVALID", service.ErrorCode(err))
			}
			var got []string
			for _, r := range ie.Rows {
				got = append(got, r.String())
			}
			all := strings.Join(got, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("errors lack %q; got:\n%s", w, all)
				}
			}
			_, n, err := db.FindOwners(ctx, service.OwnerFilter{})
			if err != nil || n != 0 {
				t.Errorf("after a failed import the store holds %d owners (%v), want 0", n, err)
			}
		})
	}
}

// Ensure rows may refer to records already in the store, and a chip
// number is stored in chipid's normal form with its kind.
func TestImportAgainstStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	o := &service.Owner{Name: "Ada"}
	if err := db.CreateOwner(ctx, o); err != nil {
		t.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Species: service.Dog}
	if err := db.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	files := map[csvio.Table]io.Reader{
		csvio.Chips: strings.NewReader("animal_id,code,kind\n" +
			"1,985.141000123456,\n" +
			"1,AVID*012*345*678,\n" +
			"1,4A3D5C1B2E,trovan\n"),
	}
	if _, err := csvio.Import(ctx, db, files); err != nil {
		t.Fatalf("Import: %v", err)
	}
	chips, err := db.FindChipsByAnimal(ctx, a.ID)
	if err != nil || len(chips) != 3 {
		t.Fatalf("FindChipsByAnimal = %v, %v", chips, err)
	}
	for i, want := range []struct{ code, kind string }{{"985141000123456", "iso11784"}, {"012345678", "avid"}, {"4A3D5C1B2E", "trovan"}} {
		if chips[i].Code != want.code || string(chips[i].Kind) != want.kind {
			t.Errorf("chip %d = %s %s, want %s %s", i, chips[i].Code, chips[i].Kind, want.code, want.kind)
		}
	}
	if chips[0].Manufacturer != "HomeAgain" {
		t.Errorf("manufacturer = %q, want HomeAgain from chipid", chips[0].Manufacturer)
	}
	// The same chip again conflicts with the store: nothing is added.
	_, err = csvio.Import(ctx, db, map[csvio.Table]io.Reader{csvio.Chips: strings.NewReader("animal_id,code\n1,985141000999999\n1,985141000123456\n")})
	if service.ErrorCode(err) != service.ECONFLICT {
		t.Errorf("Import(chip already stored) = %v, want ECONFLICT", err)
	}
	if chips, _ := db.FindChipsByAnimal(ctx, a.ID); len(chips) != 3 {
		t.Errorf("a failed import added chips: %d, want 3", len(chips))
	}
}

// FuzzDecodeOwners checks Decode never panics and that what it accepts
// survives an export and a second decode unchanged.
func FuzzDecodeOwners(f *testing.F) {
	f.Add("id,name,city\n1,Ada,Minneapolis\n")
	f.Add("name,id\n\"Lund, Ada\",7\n")
	f.Add("id,name\n1,\"Ada\nLund\"\n2,Bo\n")
	f.Add("\ufeffid,name,email\n3,Cy,cy@example.com\n")
	f.Fuzz(func(t *testing.T, in string) {
		ctx := context.Background()
		b, err := csvio.Decode(ctx, nil, map[csvio.Table]io.Reader{csvio.Owners: strings.NewReader(in)})
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := csvio.Export(ctx, batchStore{b}, csvio.Owners, &out); err != nil {
			t.Fatalf("Export: %v", err)
		}
		b2, err := csvio.Decode(ctx, nil, map[csvio.Table]io.Reader{csvio.Owners: &out})
		if err != nil {
			t.Fatalf("Decode(Export(Decode(%q))) = %v", in, err)
		}
		if len(b2.Owners) != len(b.Owners) {
			t.Fatalf("round trip: %d owners, want %d", len(b2.Owners), len(b.Owners))
		}
		for i := range b.Owners {
			if *b.Owners[i] != *b2.Owners[i] {
				t.Fatalf("round trip: %+v, want %+v", *b2.Owners[i], *b.Owners[i])
			}
		}
	})
}

// batchStore exports a decoded batch, as a store would.
type batchStore struct{ b *service.Batch }

func (s batchStore) Import(context.Context, *service.Batch) error { return nil }
func (s batchStore) EachOwner(_ context.Context, fn func(*service.Owner) error) error {
	for _, o := range s.b.Owners {
		if err := fn(o); err != nil {
			return err
		}
	}
	return nil
}
func (s batchStore) EachAnimal(context.Context, func(*service.Animal) error) error { return nil }
func (s batchStore) EachChip(context.Context, func(*service.Chip) error) error     { return nil }
func (s batchStore) EachLicence(context.Context, func(*service.Licence) error) error {
	return nil
}
func (s batchStore) EachVaccination(context.Context, func(*service.RabiesVaccination) error) error {
	return nil
}

// Both stores check an import's references in bulk: without MissingIDs,
// a million licences meant a million look-ups, minutes on PostgreSQL.
var _ = []csvio.IDChecker{(*sqlite.DB)(nil), (*postgres.DB)(nil)}

// hideChecker hides the store's MissingIDs, so Import looks ids up one by
// one.
type hideChecker struct{ csvio.Store }

// Ensure references to stored records are checked through plain lookups
// when the store has no MissingIDs, with the same line numbers.
func TestImportRefsWithoutIDChecker(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	if err := db.CreateOwner(ctx, &service.Owner{Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []csvio.Store{db, hideChecker{db}} {
		_, err := csvio.Import(ctx, st, map[csvio.Table]io.Reader{csvio.Animals: strings.NewReader("id,owner_id,species\n5,1,dog\n6,2,cat\n7,2,cat\n")})
		var ie *csvio.ImportError
		if !errors.As(err, &ie) || len(ie.Rows) != 2 || ie.Rows[0].Line != 3 || ie.Rows[1].Line != 4 || ie.Rows[0].Column != "owner_id" {
			t.Errorf("%T: Import = %v, want owner 2 missing on lines 3 and 4", st, err)
		}
	}
}

// Ensure a bad row after thousands of good ones, when chunks have
// already gone to the store, still leaves the store unchanged.
func TestImportLateBadRowStoresNothing(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, db service.Store) {
		testImportLateBadRowStoresNothing(t, db)
	})
}

func testImportLateBadRowStoresNothing(t *testing.T, db service.Store) {
	ctx := context.Background()
	bufs := generate(t, 9000)
	bufs[csvio.Licences].WriteString("999999,1,licence,minneapolis,2026,,2026-02-01,2026-13-01,active,0,,office,,0,,,\n")
	lines := bytes.Count(bufs[csvio.Licences].Bytes(), []byte("\n"))
	_, err := csvio.Import(ctx, db, readers(bufs))
	var ie *csvio.ImportError
	if !errors.As(err, &ie) || len(ie.Rows) != 1 || ie.Rows[0].Line != lines || ie.Rows[0].Column != "expires_on" {
		t.Fatalf("Import = %v, want one bad expires_on on licences.csv line %d", err, lines)
	}
	for _, tb := range csvio.Tables {
		var out bytes.Buffer
		if err := csvio.Export(ctx, db, tb, &out); err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(out.Bytes(), []byte("\n")); n != 1 {
			t.Errorf("after a failed import %s holds %d rows, want none", tb, n-1)
		}
	}
}

// Ensure a licences file whose replaces refers to a licence neither in
// the file nor in the store is refused with its line, on both stores,
// and does not hang: the check reads the licences table while the
// import into it is under way. (An import into PostgreSQL that dropped
// that table's indexes for speed once locked it, and hung here.)
func TestImportDanglingReplaces(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, db service.Store) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		bufs := generate(t, 50)
		bufs[csvio.Licences].WriteString("999998,1,licence,minneapolis,2026,,2026-02-01,2027-01-31,active,0,,office,,0,424242,lost,\n")
		lines := bytes.Count(bufs[csvio.Licences].Bytes(), []byte("\n"))
		_, err := csvio.Import(ctx, db, readers(bufs))
		var ie *csvio.ImportError
		if !errors.As(err, &ie) || len(ie.Rows) != 1 || ie.Rows[0].Line != lines || ie.Rows[0].Column != "replaces" {
			t.Fatalf("Import = %v, want licence 424242 missing on licences.csv line %d", err, lines)
		}
	})
}
