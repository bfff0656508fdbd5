package bench

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
	"github.com/chipdesk/chipdesk/service/rules"
)

// DatasetOpts shape a data set.
type DatasetOpts struct {
	// Animals is the number of animals (one licence each); 0 means
	// 1,000,000.
	Animals int
	// Dir receives the CSV files; it must exist.
	Dir string
	// Seed makes the data reproducible; 0 means 11.
	Seed uint64
	// DangerousPerMille and QuarantinedPerMille are the shares of dogs
	// declared dangerous and of animals under a bite quarantine; zero
	// means 4 and 2 (a large city declares a few thousand dogs, and
	// a few hundred animals are in quarantine at any time).
	DangerousPerMille, QuarantinedPerMille int
	// On is the date the data describe (licences issued in the year
	// before, vaccinations before those); zero means csvio's default.
	On service.Date
}

// Dataset is a generated data set: the CSV files and what is in them.
type Dataset struct {
	// Files are the CSV files, one per table.
	Files map[csvio.Table]string
	// Chips are the ISO chip codes, in animal order.
	Chips []string
	// Animals counts animals (and licences).
	Animals int
	// Dangerous and Quarantined list the animals given a designation
	// and a bite quarantine by Load.
	Dangerous, Quarantined []int64
	// Species is each animal's species, by id-1.
	species []service.Species
}

// Generate writes a data set's CSV files with package csvio's
// generator, licence terms (expiry, fees) from package rules, and picks
// the dangerous and quarantined animals, which Load records.
func Generate(o *DatasetOpts) (*Dataset, error) {
	if o == nil || o.Dir == "" {
		return nil, errors.New("bench: data set needs a directory")
	}
	n := o.Animals
	if n <= 0 {
		n = 1_000_000
	}
	seed := o.Seed
	if seed == 0 {
		seed = 11
	}
	rs, err := rules.Embedded()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	ds := &Dataset{Files: map[csvio.Table]string{}, Animals: n}
	w := map[csvio.Table]io.Writer{}
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, t := range csvio.Tables {
		p := filepath.Join(o.Dir, string(t)+".csv")
		f, err := os.Create(p)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		files = append(files, f)
		ds.Files[t] = p
		w[t] = f
	}
	terms := func(a *service.Animal, v *service.RabiesVaccination, jur string, issued service.Date, by service.Issuer) csvio.Terms {
		q := rs.Profile(jur).LicenceQuote(a, v, issued, rules.QuoteOpts{Issuer: by})
		return csvio.Terms{ExpiresOn: q.ExpiresOn, FeeCents: q.Fees.TotalCents, FeeCode: q.FeeCode, ClinicPayCents: q.ClinicPayCents}
	}
	if err := csvio.Generate(w, csvio.GenOpts{Animals: n, Seed: seed, On: o.On, Terms: terms}); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	for _, f := range files {
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	files = nil
	if err := ds.readBack(); err != nil {
		return nil, err
	}
	dangerous, quarantined := o.DangerousPerMille, o.QuarantinedPerMille
	if dangerous == 0 {
		dangerous = 4
	}
	if quarantined == 0 {
		quarantined = 2
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	for i, sp := range ds.species {
		id := int64(i + 1)
		if sp == service.Dog && rng.IntN(1000) < dangerous {
			ds.Dangerous = append(ds.Dangerous, id)
		}
		if rng.IntN(1000) < quarantined {
			ds.Quarantined = append(ds.Quarantined, id)
		}
	}
	return ds, nil
}

// readBack reads the chip codes and species from the CSV files.
func (ds *Dataset) readBack() error {
	err := eachRow(ds.Files[csvio.Chips], "code", func(v string) error {
		id, err := chipid.Parse(v, nil)
		if err != nil {
			return fmt.Errorf("bench: generated chip %q: %w", v, err)
		}
		if id.Kind == chipid.KindISO {
			ds.Chips = append(ds.Chips, id.Code)
		}
		return nil
	})
	if err != nil {
		return err
	}
	ds.species = make([]service.Species, 0, ds.Animals)
	return eachRow(ds.Files[csvio.Animals], "species", func(v string) error {
		ds.species = append(ds.species, service.Species(v))
		return nil
	})
}

// eachRow calls fn with the value of column col of every row of a CSV
// file with a header.
func eachRow(path, col string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return fmt.Errorf("bench: %s: %w", path, err)
	}
	i := slices.Index(head, col)
	if i < 0 {
		return fmt.Errorf("bench: %s has no column %q", path, col)
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("bench: %s: %w", path, err)
		}
		if err := fn(rec[i]); err != nil {
			return err
		}
	}
}

// ImportTimes are the two steps of a data set's import.
type ImportTimes struct {
	// Others is the import of the owners, animals, chips and
	// vaccinations files, into an empty store.
	Others time.Duration
	// Licences is the import of the licences file alone, into the store
	// that holds the rest: what the target (20 s for 1,000,000 licences)
	// is about.
	Licences time.Duration
}

// Import imports the CSV files into st (package csvio) in two imports
// of one transaction each, timed apart: first the owners, animals, chips
// and vaccinations, then the licences.
func (ds *Dataset) Import(ctx context.Context, st csvio.Store) (*ImportTimes, error) {
	open := func(tables ...csvio.Table) (map[csvio.Table]io.Reader, func(), error) {
		r := map[csvio.Table]io.Reader{}
		var files []*os.File
		done := func() {
			for _, f := range files {
				f.Close()
			}
		}
		for _, t := range tables {
			p, ok := ds.Files[t]
			if !ok {
				continue
			}
			f, err := os.Open(p)
			if err != nil {
				done()
				return nil, nil, fmt.Errorf("bench: %w", err)
			}
			files = append(files, f)
			r[t] = f
		}
		return r, done, nil
	}
	step := func(tables ...csvio.Table) (time.Duration, error) {
		r, done, err := open(tables...)
		if err != nil {
			return 0, err
		}
		defer done()
		start := time.Now()
		if _, err := csvio.Import(ctx, st, r); err != nil {
			return 0, fmt.Errorf("bench: import: %w", err)
		}
		return time.Since(start), nil
	}
	var it ImportTimes
	var err error
	if it.Others, err = step(csvio.Owners, csvio.Animals, csvio.Chips, csvio.Vaccinations); err != nil {
		return nil, err
	}
	if it.Licences, err = step(csvio.Licences); err != nil {
		return nil, err
	}
	return &it, nil
}

// Mark records the dangerous-dog designations and the bite quarantines
// (with their bites) in st: designations declared in the last year, the
// quarantine's end from the jurisdiction's rules (66.40, 5-39(a)).
func (ds *Dataset) Mark(ctx context.Context, st service.Store, now func() time.Time) error {
	if now == nil {
		now = time.Now
	}
	rs, err := rules.Embedded()
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	p := rs.Profile("minneapolis")
	today := p.Today(now())
	for i, id := range ds.Dangerous {
		d := &service.DangerousDesignation{AnimalID: id, Level: service.Dangerous, Jurisdiction: "minneapolis",
			DeclaredOn: today.AddDays(-(i % 365)), Authority: "Animal Care and Control"}
		if i%3 == 0 {
			d.Level = service.PotentiallyDangerous
		}
		if err := st.CreateDesignation(ctx, d); err != nil {
			return fmt.Errorf("bench: designation of animal %d: %w", id, err)
		}
	}
	for i, id := range ds.Quarantined {
		on := today.AddDays(-(i % 8))
		b := &service.BiteIncident{AnimalID: id, Date: on, Victim: service.VictimPerson, SkinBroken: true}
		if err := st.CreateBite(ctx, b); err != nil {
			return fmt.Errorf("bench: bite by animal %d: %w", id, err)
		}
		a, err := st.FindAnimalByID(ctx, id)
		if err != nil {
			return fmt.Errorf("bench: animal %d: %w", id, err)
		}
		vs, err := st.FindVaccinations(ctx, id)
		if err != nil {
			return fmt.Errorf("bench: vaccinations of %d: %w", id, err)
		}
		var v *service.RabiesVaccination
		if len(vs) > 0 {
			v = vs[0]
		}
		plan := p.BiteQuarantine(a, v, on)
		q := &service.Quarantine{AnimalID: id, BiteID: b.ID, Kind: plan.Kind, Place: plan.Place, Start: plan.Start, End: plan.End,
			Notes: "bench " + strconv.Itoa(i)}
		if err := st.CreateQuarantine(ctx, q); err != nil {
			return fmt.Errorf("bench: quarantine of animal %d: %w", id, err)
		}
	}
	return nil
}
