package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// targetGrowthP99 bounds the lookup p99 of the growth run against the
// full run's, same machine, same load (issue 25).
const targetGrowthP99 = 1.5

// growthFigures is the growth run: a data set of o.Growth animals,
// imported into an SQLite database of its own and looked up by the same
// load as the full run, whose figures r already holds. It adds the
// import times, the file size, the lookup rate and p99, the p99 beside
// the full run's, and the service's peak resident memory, each named
// for its size ("10 M").
func growthFigures(ctx context.Context, r *Report, o *Opts, now func() time.Time, dir string, step func(string, ...any)) error {
	n, base := o.Growth, r.Animals
	size, baseSize := millions(n), millions(base)
	gdir := filepath.Join(dir, "growth")
	csvDir := filepath.Join(gdir, "csv")
	if err := os.MkdirAll(csvDir, 0o755); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	step("growth run: generating %s animals", thousands(float64(n)))
	t0 := time.Now()
	ds, err := Generate(&DatasetOpts{Animals: n, Dir: csvDir, On: service.DateIn(now(), time.UTC)})
	if err != nil {
		return err
	}
	step("generated in %s", time.Since(t0).Round(time.Millisecond))
	dbPath := filepath.Join(gdir, "chipdesk.db")
	os.Remove(dbPath)
	st, err := sqlite.Open(ctx, dbPath, &sqlite.Opts{Now: now})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	step("growth run: importing %s animals into SQLite", thousands(float64(n)))
	imp, err := ds.Import(ctx, st)
	if err != nil {
		st.Close()
		return err
	}
	step("imported in %s (licences %s)", (imp.Others + imp.Licences).Round(time.Millisecond), imp.Licences.Round(time.Millisecond))
	r.add(Figure{Name: "CSV import, SQLite, " + size, Value: imp.Licences.Seconds(), Unit: "s",
		Note: fmt.Sprintf("%s licences alone; %.2f × the %s import, %.2f × its size", thousands(float64(n)),
			imp.Licences.Seconds()/figure(r, "CSV import, SQLite"), baseSize, float64(n)/float64(base))})
	r.add(Figure{Name: "CSV import of all five files, SQLite, " + size, Value: (imp.Others + imp.Licences).Seconds(), Unit: "s",
		Note: fmt.Sprintf("%.2f × the %s import", (imp.Others+imp.Licences).Seconds()/figure(r, "CSV import of all five files, SQLite"), baseSize)})
	token, err := st.CreateToken(ctx, &service.Token{Name: "bench", Role: service.RoleIntake})
	st.Close()
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := growthFileSize(r, ds, dbPath, size); err != nil {
		return err
	}
	step("growth run: starting chipdesk serve on SQLite, %s", size)
	srv, err := startServe(ctx, o.Binary, dbPath)
	if err != nil {
		return err
	}
	defer srv.Stop(15 * time.Second)
	g := &Report{Animals: n}
	if err := lookupFigures(ctx, g, o, srv, token, ds, "SQLite", "", step); err != nil {
		return err
	}
	for _, f := range g.Figures {
		f.Name += ", " + size
		f.Target, f.Better = 0, "" // the targets are for 1 M; the ratio below is this run's
		r.add(f)
	}
	p99, baseP99 := figure(g, "  lookup p99, SQLite"), figure(r, "  lookup p99, SQLite")
	if baseP99 > 0 {
		r.add(Figure{Name: "lookup p99 ratio, " + size + " / " + baseSize, Value: p99 / baseP99, Unit: "×", Target: targetGrowthP99, Better: Lower,
			Note: fmt.Sprintf("p99 %s at %s, %s at %s; same load, same run", format(p99, "ms"), size, format(baseP99, "ms"), baseSize)})
	}
	if rate, baseRate := figure(g, "lookup by chip, SQLite, HTTP"), figure(r, "lookup by chip, SQLite, HTTP"); baseRate > 0 {
		r.add(Figure{Name: "lookup rate ratio, " + size + " / " + baseSize, Value: rate / baseRate, Unit: "×",
			Note: fmt.Sprintf("%s at %s, %s at %s", format(rate, "/s"), size, format(baseRate, "/s"), baseSize)})
	}
	rss, err := srv.PeakRSS()
	if err != nil {
		return err
	}
	r.add(Figure{Name: "peak resident memory (serve), " + size, Value: float64(rss) / 1e6, Unit: "MB", Target: targetRSS, Better: Lower,
		Note: fmt.Sprintf("VmHWM after the lookups (no reader, scans or pages); %s at %s after all of those", format(figure(r, "peak resident memory (serve)"), "MB"), baseSize)})
	if o.Dir == "" {
		// The CSV files are read; the temporary folder goes at the end,
		// but the disk they hold is better free for the lookups' sake.
		os.RemoveAll(csvDir)
	}
	return nil
}

// growthFileSize adds the growth run's SQLite file and audit log beside
// its CSV files.
func growthFileSize(r *Report, ds *Dataset, db, size string) error {
	var csvBytes, dbBytes int64
	for _, p := range ds.Files {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		csvBytes += fi.Size()
	}
	for _, p := range []string{db, db + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			dbBytes += fi.Size()
		}
	}
	r.add(Figure{Name: "SQLite file / CSV size, " + size, Value: float64(dbBytes) / float64(csvBytes), Unit: "×", Target: targetFileShare, Better: Lower,
		Note: fmt.Sprintf("SQLite file %s, CSV files %s", format(float64(dbBytes)/1e6, "MB"), format(float64(csvBytes)/1e6, "MB"))})
	return nil
}

// figure returns the value of the figure named name, 0 when r has none.
func figure(r *Report, name string) float64 {
	for _, f := range r.Figures {
		if f.Name == name && f.Skipped == "" {
			return f.Value
		}
	}
	return 0
}

// millions names a size in millions ("10 M", "1.5 M"), or in animals
// below a million.
func millions(n int) string {
	if n < 1_000_000 {
		return thousands(float64(n))
	}
	return strconv.FormatFloat(float64(n)/1e6, 'g', 4, 64) + " M"
}
