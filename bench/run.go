package bench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// Opts configure Run.
type Opts struct {
	// Animals is the size of the data set; 0 means 1,000,000.
	Animals int
	// Growth, when above Animals, is the size of a second data set,
	// imported and looked up after every other figure (growth.go): its
	// import times, file size, lookup rate and p99, and the service's
	// peak memory, beside the first's.
	Growth int
	// Binary is the chipdesk executable run as "chipdesk serve".
	Binary string
	// Dir holds the data set and the database; empty means a temporary
	// directory, removed at the end.
	Dir string
	// Postgres is a postgres:// URL; when set and reachable, the lookup
	// figures are measured on PostgreSQL too, in a schema of their own
	// dropped at the end.
	Postgres string
	// Clients and LookupTime shape the lookup load; 0 means 16 clients
	// for 10 s.
	Clients    int
	LookupTime time.Duration
	// Scans is the number of scan-to-event measurements; 0 means 200.
	Scans int
	// MicroTime is how long each in-process figure is timed; 0 means 1 s.
	MicroTime time.Duration
	// SMTP is the host:port of the SMTP server the reminder run sends
	// to (the local aiosmtpd of the test command); empty means the
	// in-process test server. SMTPMaildir is that server's Maildir, from
	// which the run's messages are removed afterwards.
	SMTP, SMTPMaildir string
	// Reminders is the number of licences of the reminder run; 0 means
	// a tenth of Animals (100,000 at the full size), at least 500.
	Reminders int
	// Progress receives a line per step; nil discards them.
	Progress io.Writer
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Targets from the issues; see the package documentation.
const (
	targetLookups    = 20_000 // lookups/s at 1,000,000 animals
	targetFloorShare = 0.6    // of the bare-stack floor, same run
	targetScanP99    = 5      // ms
	targetRSS        = 100    // MB
	targetImport     = 20     // s for 1,000,000 licences
	targetImportAll  = 60     // s for the five files of 1,000,000 animals
	targetFileShare  = 1.6    // SQLite file / CSV size
	targetEvaluate   = 20     // µs
	targetDemod      = 50     // M samples/s
	targetZPL        = 1      // ms
	targetPaths      = 20     // ms
	targetBatch      = 10     // s for 1,000 tags
	fullSize         = 1_000_000
	readerName       = "bench"
	postgresStartMax = 2 * time.Minute
)

// Run builds the data set, runs the service and measures every figure.
// A figure that cannot be measured (PostgreSQL unreachable) is reported
// as skipped; an error measuring one ends the run.
func Run(ctx context.Context, o *Opts) (*Report, error) {
	if o == nil || o.Binary == "" {
		return nil, errors.New("bench: no chipdesk binary to serve")
	}
	n := o.Animals
	if n <= 0 {
		n = fullSize
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	micro := o.MicroTime
	if micro <= 0 {
		micro = time.Second
	}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	step := func(format string, a ...any) {
		fmt.Fprintf(progress, "bench: "+format+"\n", a...)
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "chipdesk-bench-")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	csvDir := filepath.Join(dir, "csv")
	if err := os.MkdirAll(csvDir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	r := &Report{Animals: n, CPUs: runtime.NumCPU(), Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	at := ""
	if n != fullSize {
		at = "target is for 1,000,000; here " + thousands(float64(n))
	}

	step("generating %s animals", thousands(float64(n)))
	t0 := time.Now()
	ds, err := Generate(&DatasetOpts{Animals: n, Dir: csvDir, On: service.DateIn(now(), time.UTC)})
	if err != nil {
		return nil, err
	}
	step("generated in %s: %d ISO chips, %d dangerous, %d quarantined", time.Since(t0).Round(time.Millisecond),
		len(ds.Chips), len(ds.Dangerous), len(ds.Quarantined))
	if len(ds.Chips) == 0 {
		return nil, errors.New("bench: the data set has no ISO chips")
	}

	// SQLite: import, mark, token, record for the rules figure.
	dbPath := filepath.Join(dir, "chipdesk.db")
	os.Remove(dbPath)
	st, err := sqlite.Open(ctx, dbPath, &sqlite.Opts{Now: now})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	step("importing the CSV files into SQLite")
	imp, err := ds.Import(ctx, st)
	if err != nil {
		st.Close()
		return nil, err
	}
	addImport(r, "SQLite", n, imp)
	var token string
	var rec *service.Record
	var storeLookup time.Duration
	err = func() error {
		defer st.Close()
		if err := ds.Mark(ctx, st, now); err != nil {
			return err
		}
		if token, err = st.CreateToken(ctx, &service.Token{Name: "bench", Role: service.RoleIntake}); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		if rec, err = recordForRules(ctx, st, ds); err != nil {
			return err
		}
		storeLookup, err = StoreLookup(ctx, st, ds.Chips, micro)
		return err
	}()
	if err != nil {
		return nil, err
	}

	if err := addFileSize(r, ds, dbPath); err != nil {
		return nil, err
	}

	// The service, with a simulated WL-134 reader on a pseudo-terminal.
	// The service starts first and opens the reader's port when it
	// appears, so that it inherits no descriptor of the simulator.
	link := filepath.Join(dir, "ttyBENCH")
	os.Remove(link)
	step("starting chipdesk serve on SQLite")
	srv, err := startServe(ctx, o.Binary, dbPath, "--reader", "wl134:"+link+",name="+readerName+",debounce=1ms")
	if err != nil {
		return nil, err
	}
	defer srv.Stop(15 * time.Second)
	sim, err := readersim.Start(&readersim.Opts{Protocol: "wl134", Link: link})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer sim.Close()
	if err := floorAround(ctx, r, o, dbPath, token, ds, "SQLite", step, func() error {
		return lookupFigures(ctx, r, o, srv, token, ds, "SQLite", at, step)
	}); err != nil {
		return nil, err
	}
	r.add(Figure{Name: "  store lookup by chip, SQLite, in process", Value: us(storeLookup), Unit: "µs",
		Note: "FindRecordByChip of random chips, one goroutine: the store's part of a lookup"})
	floorAt := len(r.Figures) // measured after the scans, which it must not disturb
	step("scan to event through the pseudo-terminal")
	q, err := ScanToEvent(ctx, &ScanOpts{URL: srv.URL, Token: token, Reader: readerName, Sim: sim, Chips: ds.Chips, Scans: o.Scans})
	if err != nil {
		return nil, fmt.Errorf("%w\n%s", err, srv.Log())
	}
	note := fmt.Sprintf("p50 %s, %d scans, WL-134 frame on a pty to SSE event", ms(q.P50), q.N)
	r.add(Figure{Name: "scan to event p99", Value: msf(q.P99), Unit: "ms", Target: targetScanP99, Better: Lower, Note: note})
	if err := pixelFigure(ctx, r, o, srv.URL, token, sim, ds.Chips, step); err != nil { // pixels_run.go
		return nil, fmt.Errorf("%w\n%s", err, srv.Log())
	}
	floor, err := floorFigure(ctx, o, srv, token, "SQLite", step)
	if err != nil {
		return nil, err
	}
	r.Figures = slices.Insert(r.Figures, floorAt, floor)
	rss, err := srv.PeakRSS()
	if err != nil {
		return nil, err
	}
	r.add(Figure{Name: "peak resident memory (serve)", Value: float64(rss) / 1e6, Unit: "MB", Target: targetRSS, Better: Lower,
		Note: "VmHWM after the lookups and scans; " + cmpNote(at, "SQLite")})
	if err := srv.Stop(15 * time.Second); err != nil {
		step("serve did not stop cleanly: %v", err)
	}

	// PostgreSQL, when reachable.
	if err := postgresFigures(ctx, r, o, ds, now, at, step); err != nil {
		return nil, err
	}

	// In-process figures.
	step("rules, demodulation and tags in process")
	ev, err := Evaluate(ctx, rec, service.DateIn(now(), time.UTC), micro)
	if err != nil {
		return nil, err
	}
	r.add(Figure{Name: "rules evaluation of one record", Value: float64(ev.Nanoseconds()) / 1e3, Unit: "µs", Target: targetEvaluate, Better: Lower,
		Note: "a dangerous dog's record from the store"})
	sps, err := Demod(ctx, ds.Chips[0], micro)
	if err != nil {
		return nil, err
	}
	r.add(Figure{Name: "FDX-B demodulation", Value: sps / 1e6, Unit: "M samples/s", Target: targetDemod, Better: Higher,
		Note: "synthesised capture, noise 0.3, one core"})
	tt, err := Tags(ctx, micro)
	if err != nil {
		return nil, err
	}
	r.add(Figure{Name: "one tag to ZPL", Value: msf(tt.ZPL), Unit: "ms", Target: targetZPL, Better: Lower})
	r.add(Figure{Name: "one tag to engraving paths", Value: msf(tt.Paths), Unit: "ms", Target: targetPaths, Better: Lower})
	r.add(Figure{Name: "1,000-tag batch to paths", Value: tt.Batch.Seconds(), Unit: "s", Target: targetBatch, Better: Lower,
		Note: "issue, lay out on 300x200 mm plates, paths"})
	if err := reminderFigures(ctx, r, o, now, dir, n, step); err != nil { // remind.go
		return nil, err
	}
	if o.Growth > n {
		// The figures so far, in case the long growth run is stopped.
		r.WriteTable(progress)
		if err := growthFigures(ctx, r, o, now, dir, step); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// startServe runs chipdesk serve on db, on a free loopback port.
func startServe(ctx context.Context, bin, db string, args ...string) (*Server, error) {
	sctx, cancel := context.WithTimeout(ctx, postgresStartMax)
	defer cancel()
	return StartServer(sctx, bin, append([]string{"serve", "--dev-keys", "--db", db, "--listen", "127.0.0.1:0"}, args...)...)
}

// lookupFigures runs the lookup load and adds its figures.
func lookupFigures(ctx context.Context, r *Report, o *Opts, srv *Server, token string, ds *Dataset, backend, at string, step func(string, ...any)) error {
	step("lookup load on %s", backend)
	m, err := measureLoad(ctx, srv, &LoadOpts{URL: srv.URL, Token: token, Clients: o.Clients, Duration: o.LookupTime, Seed: 1,
		Path: func(rng *mrand.Rand) string { return "/api/v1/lookup?chip=" + ds.Chips[rng.IntN(len(ds.Chips))] }})
	if err != nil {
		return err
	}
	res := m.res
	if res.Errors > 0 {
		return fmt.Errorf("bench: %d of %d lookups on %s failed: %s", res.Errors, res.Requests, backend, res.FirstError)
	}
	note := fmt.Sprintf("%d clients, %s lookups in %s", res.Clients, thousands(float64(res.Requests)), res.Elapsed.Round(time.Millisecond))
	r.add(Figure{Name: "lookup by chip, " + backend + ", HTTP", Value: res.PerSecond(), Unit: "/s", Target: targetLookups, Better: Higher,
		Note: cmpNote(at, note)})
	r.add(Figure{Name: "  lookup p50, " + backend, Value: msf(res.Latency.P50), Unit: "ms"})
	r.add(Figure{Name: "  lookup p99, " + backend, Value: msf(res.Latency.P99), Unit: "ms", Note: "max " + ms(res.Latency.Max)})
	if m.server > 0 {
		// What the service itself costs: the load generator shares the
		// machine's cores, so the rate above measures the machine too.
		r.add(Figure{Name: "  server CPU per lookup, " + backend, Value: us(m.server), Unit: "µs",
			Note: fmt.Sprintf("%s lookups/s if the service had %d cores to itself", thousands(float64(runtime.NumCPU())*float64(time.Second)/float64(m.server)), runtime.NumCPU())})
	}
	if m.client > 0 {
		r.add(Figure{Name: "  load client CPU per lookup", Value: us(m.client), Unit: "µs",
			Note: "the HTTP clients of this process, on the same cores"})
	}
	return nil
}

// floorFigure measures the least a lookup request costs here: the same
// route, token and clients as the lookup load, with a chip text that
// does not parse, so that the service answers 400 after routing, the
// token check and the query, before its store, its rules and its audit
// log. Its rate is the most any lookup could reach on this machine with
// this load generator; the CPU figures split that ceiling between the
// service and the clients.
func floorFigure(ctx context.Context, o *Opts, srv *Server, token, backend string, step func(string, ...any)) (Figure, error) {
	step("HTTP floor on %s", backend)
	d := o.LookupTime / 2
	if d <= 0 {
		d = 5 * time.Second
	}
	m, err := measureLoad(ctx, srv, &LoadOpts{URL: srv.URL, Token: token, Clients: o.Clients, Duration: d, Seed: 2,
		Path: func(*mrand.Rand) string { return "/api/v1/lookup?chip=" + floorChip }})
	if err != nil {
		return Figure{}, err
	}
	if n := m.res.Status[http.StatusBadRequest]; n != m.res.Requests || n == 0 {
		return Figure{}, fmt.Errorf("bench: HTTP floor on %s: %d of %d requests answered 400 (chip=%s): %s", backend, n, m.res.Requests, floorChip, m.res.FirstError)
	}
	f := Figure{Name: "  HTTP floor, " + backend, Value: m.res.PerSecond(), Unit: "/s",
		Note: fmt.Sprintf("lookups refused before the store (400); CPU per request: service %.0f µs, clients %.0f µs", us(m.server), us(m.client))}
	f.judge()
	return f, nil
}

// floorChip is a chip text that no reader format parses.
const floorChip = "not-a-chip"

// measured is a load with the CPU that the service and this process
// spent on each of its requests (0 when unknown).
type measured struct {
	res            *LoadResult
	server, client time.Duration
}

// measureLoad runs a load against srv and reads both processes' CPU
// time around it.
func measureLoad(ctx context.Context, srv *Server, lo *LoadOpts) (*measured, error) {
	srv0, err := srv.CPU()
	if err != nil {
		return nil, err
	}
	self0, err := SelfCPU()
	if err != nil {
		return nil, err
	}
	res, err := Load(ctx, lo)
	if err != nil {
		return nil, err
	}
	srv1, err := srv.CPU()
	if err != nil {
		return nil, err
	}
	self1, err := SelfCPU()
	if err != nil {
		return nil, err
	}
	m := &measured{res: res}
	if n := time.Duration(res.Requests); n > 0 {
		m.server, m.client = (srv1-srv0)/n, (self1-self0)/n
	}
	return m, nil
}

// postgresFigures measures the lookups on PostgreSQL, or reports them
// skipped when no server is named or reachable.
func postgresFigures(ctx context.Context, r *Report, o *Opts, ds *Dataset, now func() time.Time, at string, step func(string, ...any)) error {
	skip := func(why string) {
		r.add(Figure{Name: "lookup by chip, PostgreSQL, HTTP", Unit: "/s", Target: targetLookups, Better: Higher, Skipped: why})
	}
	if o.Postgres == "" {
		skip("no PostgreSQL URL (--postgres, CHIPDESK_BENCH_POSTGRES)")
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	conn, err := pgx.Connect(cctx, o.Postgres)
	cancel()
	if err != nil {
		skip("PostgreSQL not reachable")
		step("PostgreSQL not reachable: %v", err)
		return nil
	}
	defer conn.Close(context.Background())
	var b [6]byte
	rand.Read(b[:])
	schema := "chipdesk_bench_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		return fmt.Errorf("bench: postgres: %w", err)
	}
	defer conn.Exec(context.Background(), "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	u, err := url.Parse(o.Postgres)
	if err != nil {
		return fmt.Errorf("bench: postgres URL: %w", err)
	}
	qv := u.Query()
	qv.Set("search_path", schema)
	u.RawQuery = qv.Encode()
	dsn := u.String()
	st, err := postgres.Open(ctx, dsn, &postgres.Opts{Now: now})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	step("importing the CSV files into PostgreSQL")
	imp, err := ds.Import(ctx, st)
	if err != nil {
		st.Close()
		return err
	}
	addImport(r, "PostgreSQL", ds.Animals, imp)
	token, err := st.CreateToken(ctx, &service.Token{Name: "bench", Role: service.RoleIntake})
	st.Close()
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	step("starting chipdesk serve on PostgreSQL")
	srv, err := startServe(ctx, o.Binary, dsn)
	if err != nil {
		return err
	}
	defer srv.Stop(15 * time.Second)
	return floorAround(ctx, r, o, dsn, token, ds, "PostgreSQL", step, func() error {
		return lookupFigures(ctx, r, o, srv, token, ds, "PostgreSQL", at, step)
	})
}

// floorAround builds the bare rows of db, runs the bare server on them
// and drives it with the lookup load for half the lookup time before
// lookups (which measures the lookups) and half after, so that a change
// of the machine's load during the run weighs on both alike; it adds
// the floor's rate and sets the lookup figure's ratio to it.
func floorAround(ctx context.Context, r *Report, o *Opts, db, token string, ds *Dataset, backend string, step func(string, ...any),
	lookups func() error) error {
	step("building the bare-stack rows on %s", backend)
	if err := BuildBare(ctx, db); err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(ctx, postgresStartMax)
	srv, err := StartServer(sctx, o.Binary, "bench", "--bare-serve", db, "--listen", "127.0.0.1:0")
	cancel()
	if err != nil {
		return err
	}
	defer srv.Stop(15 * time.Second)
	d := o.LookupTime / 2
	if d <= 0 {
		d = 5 * time.Second
	}
	var (
		reqs    int
		elapsed time.Duration
		cpu     time.Duration
		p99     time.Duration
	)
	half := func(seed uint64) error {
		step("bare-stack floor on %s", backend)
		m, err := measureLoad(ctx, srv, &LoadOpts{URL: srv.URL, Token: token, Clients: o.Clients, Duration: d, Seed: seed,
			Path: func(rng *mrand.Rand) string { return barePath + "?chip=" + ds.Chips[rng.IntN(len(ds.Chips))] }})
		if err != nil {
			return err
		}
		if m.res.Errors > 0 {
			return fmt.Errorf("bench: %d of %d bare-stack lookups on %s failed: %s", m.res.Errors, m.res.Requests, backend, m.res.FirstError)
		}
		reqs += m.res.Requests
		elapsed += m.res.Elapsed
		cpu += m.server * time.Duration(m.res.Requests)
		p99 = max(p99, m.res.Latency.P99)
		return nil
	}
	if err := half(3); err != nil {
		return err
	}
	if err := lookups(); err != nil {
		return err
	}
	if err := half(4); err != nil {
		return err
	}
	if reqs == 0 || elapsed <= 0 {
		return fmt.Errorf("bench: no bare-stack lookups on %s", backend)
	}
	floor := float64(reqs) / elapsed.Seconds()
	r.add(Figure{Name: "bare-stack floor, " + backend, Value: floor, Unit: "/s",
		Note: fmt.Sprintf("net/http + %s + encoding/json, one row per chip, no token, rules or audit; half before the lookups, half after; p99 %s; server CPU %.0f µs per lookup",
			bareDriver(backend), ms(p99), us(cpu/time.Duration(reqs)))})
	// The lookup's target is now its share of this floor, measured in
	// the same run on the same cores.
	for i := range r.Figures {
		f := &r.Figures[i]
		if f.Name != "lookup by chip, "+backend+", HTTP" || f.Skipped != "" || floor <= 0 {
			continue
		}
		f.Target = targetFloorShare * floor
		f.Note = fmt.Sprintf("%.2f × the bare-stack floor (target %.1f ×); %s", f.Value/floor, targetFloorShare, f.Note)
		f.judge()
		r.add(Figure{Name: "  lookup / bare-stack floor, " + backend, Value: f.Value / floor, Unit: "×",
			Target: targetFloorShare, Better: Higher, Note: "same load, same run"})
	}
	return nil
}

func bareDriver(backend string) string {
	if backend == "PostgreSQL" {
		return "pgx"
	}
	return "modernc SQLite"
}

// recordForRules returns the record of a dangerous dog (or of the
// first chip's animal), as the lookup reads it.
func recordForRules(ctx context.Context, st service.Store, ds *Dataset) (*service.Record, error) {
	id := int64(1)
	if len(ds.Dangerous) > 0 {
		id = ds.Dangerous[0]
	}
	rec, err := st.FindRecordByAnimal(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("bench: record of animal %d: %w", id, err)
	}
	return rec, nil
}

// addImport adds the import figures: the licences file alone, against
// the target (20 s for 1,000,000 licences, in proportion for other
// sizes), and the other four files, which have no target.
func addImport(r *Report, store string, n int, imp *ImportTimes) {
	note := thousands(float64(n)) + " licences alone, into a store holding their animals"
	if n != fullSize {
		note += "; target 20 s for 1,000,000, in proportion"
	}
	r.add(Figure{Name: "CSV import, " + store, Value: imp.Licences.Seconds(), Unit: "s",
		Target: targetImport * float64(n) / fullSize, Better: Lower, Note: note})
	r.add(Figure{Name: "CSV import of owners, animals, chips, vaccinations, " + store, Value: imp.Others.Seconds(), Unit: "s",
		Note: thousands(float64(n)) + " animals, into an empty store, before the licences"})
	note = "the two imports above: five files of " + thousands(float64(n)) + " animals into an empty store"
	if n != fullSize {
		note += "; target 60 s for 1,000,000, in proportion"
	}
	r.add(Figure{Name: "CSV import of all five files, " + store, Value: (imp.Others + imp.Licences).Seconds(), Unit: "s",
		Target: targetImportAll * float64(n) / fullSize, Better: Lower, Note: note})
}

// addFileSize adds the size of the SQLite database (its records' file
// with any write-ahead log, as the import and the marks left it, before
// the bare-stack rows are added) beside the CSV files it was imported
// from, and the audit log's size.
func addFileSize(r *Report, ds *Dataset, db string) error {
	size := func(p string) (int64, error) {
		fi, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			return 0, nil
		} else if err != nil {
			return 0, fmt.Errorf("bench: %w", err)
		}
		return fi.Size(), nil
	}
	var csvBytes, dbBytes int64
	for _, p := range ds.Files {
		n, err := size(p)
		if err != nil {
			return err
		}
		csvBytes += n
	}
	for _, p := range []string{db, db + "-wal"} {
		n, err := size(p)
		if err != nil {
			return err
		}
		dbBytes += n
	}
	audit, err := size(sqlite.AuditPath(db))
	if err != nil {
		return err
	}
	if csvBytes == 0 {
		return errors.New("bench: the data set's CSV files are empty")
	}
	r.add(Figure{Name: "SQLite file / CSV size", Value: float64(dbBytes) / float64(csvBytes), Unit: "×", Target: targetFileShare, Better: Lower,
		Note: fmt.Sprintf("SQLite file %s, CSV files %s, audit log %s beside it", format(float64(dbBytes)/1e6, "MB"),
			format(float64(csvBytes)/1e6, "MB"), format(float64(audit)/1e6, "MB"))})
	return nil
}

func cmpNote(at, note string) string {
	if at == "" {
		return note
	}
	return note + "; " + at
}

func msf(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

func ms(d time.Duration) string { return format(msf(d), "ms") }
