package main

// Benchmarks of the service as it runs: "chipdesk serve" in a child
// process (this test binary re-executed) on an SQLite database of N
// generated animals, with a simulated WL-134 reader on a pseudo-terminal.
//
//	go test ./service/cmd/chipdesk -run '^$' -bench . -benchtime 3s
//
// CHIPDESK_BENCH_ANIMALS sets N (default 1,000,000; building that many
// takes a few minutes, so CHIPDESK_BENCH_DB names a file that is built
// once and reused). The figures reported: lookups/s over loopback HTTP,
// the scan-to-event latency (last byte written on the pty to the SSE
// event read by an HTTP client) at p50/p99, and the child's peak
// resident memory.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/cmdline"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
	"github.com/chipdesk/chipdesk/service/rules"
)

// TestBenchServeChild is not a test: it is the child process of the
// benchmarks, running "chipdesk serve" with the arguments in
// CHIPDESK_BENCH_CHILD until its stdin closes.
func TestBenchServeChild(t *testing.T) {
	args := os.Getenv("CHIPDESK_BENCH_CHILD")
	if args == "" {
		t.Skip("only run as the benchmarks' child process")
	}
	if path := os.Getenv("CHIPDESK_BENCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { io.Copy(io.Discard, os.Stdin); cancel() }()
	code := run(ctx, &cmdline.Env{Stdin: strings.NewReader(""), Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now}, strings.Split(args, "\x1f"))
	if code != 0 {
		t.Fatalf("serve exit status %d", code)
	}
}

// benchSet is a database of generated animals and the chips in it.
type benchSet struct {
	db    string
	chips []string
}

var (
	benchOnce sync.Once
	benchData benchSet
	benchErr  error
)

func benchAnimals() int {
	if n, err := strconv.Atoi(os.Getenv("CHIPDESK_BENCH_ANIMALS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// loadBenchSet builds (or reuses) the database once per test binary.
func loadBenchSet(b *testing.B) benchSet {
	b.Helper()
	benchOnce.Do(func() { benchData, benchErr = buildBenchSet(benchAnimals()) })
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchData
}

func buildBenchSet(n int) (benchSet, error) {
	ctx := context.Background()
	db := os.Getenv("CHIPDESK_BENCH_DB")
	if db == "" {
		dir, err := os.MkdirTemp("", "chipdesk-bench-")
		if err != nil {
			return benchSet{}, err
		}
		db = filepath.Join(dir, "bench.db")
	}
	chipsFile := db + ".chips"
	if b, err := os.ReadFile(chipsFile); err == nil {
		if chips := strings.Fields(string(b)); len(chips) > 0 {
			return benchSet{db: db, chips: chips}, nil
		}
	}
	rs, err := rules.Embedded()
	if err != nil {
		return benchSet{}, err
	}
	bufs := map[csvio.Table]*bytes.Buffer{}
	w := map[csvio.Table]io.Writer{}
	for _, t := range csvio.Tables {
		bufs[t] = &bytes.Buffer{}
		w[t] = bufs[t]
	}
	terms := func(a *service.Animal, v *service.RabiesVaccination, jur string, issued service.Date, by service.Issuer) csvio.Terms {
		q := rs.Profile(jur).LicenceQuote(a, v, issued, rules.QuoteOpts{Issuer: by})
		return csvio.Terms{ExpiresOn: q.ExpiresOn, FeeCents: q.Fees.TotalCents, FeeCode: q.FeeCode, ClinicPayCents: q.ClinicPayCents}
	}
	start := time.Now()
	if err := csvio.Generate(w, csvio.GenOpts{Animals: n, Seed: 11, Terms: terms}); err != nil {
		return benchSet{}, err
	}
	// The ISO chips, which the simulated WL-134 can send.
	var chips []string
	cr := csv.NewReader(bytes.NewReader(bufs[csvio.Chips].Bytes()))
	head, err := cr.Read()
	if err != nil {
		return benchSet{}, err
	}
	col := slices.Index(head, "code")
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		} else if err != nil {
			return benchSet{}, err
		}
		if id, err := chipid.Parse(rec[col], nil); err == nil && id.Kind == chipid.KindISO {
			chips = append(chips, id.Code)
		}
	}
	st, err := openStore(ctx, db, time.Now)
	if err != nil {
		return benchSet{}, err
	}
	defer st.Close()
	r := map[csvio.Table]io.Reader{}
	for t, b := range bufs {
		r[t] = b
	}
	if _, err := csvio.Import(ctx, st, r); err != nil {
		return benchSet{}, err
	}
	fmt.Fprintf(os.Stderr, "bench: %d animals, %d ISO chips in %s, built in %s\n", n, len(chips), db, time.Since(start).Round(time.Second))
	if err := os.WriteFile(chipsFile, []byte(strings.Join(chips, "\n")), 0o644); err != nil {
		return benchSet{}, err
	}
	return benchSet{db: db, chips: chips}, nil
}

// benchServer is "chipdesk serve" in a child process.
type benchServer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	base  string
	token string
	sim   *readersim.Sim
}

func startBenchServer(b *testing.B, set benchSet) *benchServer {
	b.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, set.db, time.Now)
	if err != nil {
		b.Fatal(err)
	}
	tok, err := st.CreateToken(ctx, &service.Token{Name: "bench", Role: service.RoleIntake})
	st.Close()
	if err != nil {
		b.Fatal(err)
	}
	sim, err := readersim.Start(&readersim.Opts{Protocol: "wl134"})
	if err != nil {
		b.Fatal(err)
	}
	args := []string{"serve", "--db", set.db, "--listen", "127.0.0.1:0", "--log-level", "info",
		"--reader", "wl134:" + sim.Path() + ",name=bench,debounce=1ms"}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestBenchServeChild$")
	cmd.Env = append(os.Environ(), "CHIPDESK_BENCH_CHILD="+strings.Join(args, "\x1f"), "CHIPDESK_LOG_LEVEL=info")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	s := &benchServer{cmd: cmd, stdin: stdin, token: tok, sim: sim}
	b.Cleanup(s.stop)
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`url=(http://\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	select {
	case s.base = <-urls:
	case <-time.After(60 * time.Second):
		b.Fatal("serve did not start")
	}
	return s
}

func (s *benchServer) stop() {
	s.stdin.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
	s.sim.Close()
}

// cpu returns the child's user+system CPU time so far (/proc/PID/stat,
// clock ticks of 10 ms).
func (s *benchServer) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name in parentheses; utime and stime are
	// the 14th and 15th fields of the line.
	rest := string(b[bytes.LastIndexByte(b, ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// status reads one kB field of the child's /proc/PID/status, in MiB.
func (s *benchServer) status(field string) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	m := regexp.MustCompile(field + `:\s+(\d+) kB`).FindSubmatch(b)
	if m == nil {
		return 0
	}
	kb, _ := strconv.ParseFloat(string(m[1]), 64)
	return kb / 1024
}

// sampleMemory samples the child's anonymous and file-backed resident
// memory every 50 ms until the returned function is called, which
// returns the largest of each.
func (s *benchServer) sampleMemory() func() (anon, file float64) {
	done := make(chan struct{})
	var maxAnon, maxFile float64
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			maxAnon = max(maxAnon, s.status("RssAnon"))
			maxFile = max(maxFile, s.status("RssFile"))
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() (float64, float64) {
		close(done)
		wg.Wait()
		return maxAnon, maxFile
	}
}

// reportMemory reports the child's peak resident set (VmHWM) and, now,
// its anonymous part (heap, SQLite page caches) and its file-backed part
// (the database pages SQLite reads through its memory map: shared with
// the page cache and reclaimable by the kernel).
func (s *benchServer) reportMemory(b *testing.B) {
	b.ReportMetric(s.status("VmHWM"), "peak-RSS-MiB")
	b.ReportMetric(s.status("RssAnon"), "RSS-anon-MiB")
	b.ReportMetric(s.status("RssFile"), "RSS-file-MiB")
}

// BenchmarkLookupHTTP is GET /api/v1/lookup?chip= for random stored
// chips, from parallel keep-alive clients over loopback.
func BenchmarkLookupHTTP(b *testing.B) {
	set := loadBenchSet(b)
	s := startBenchServer(b, set)
	tr := &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}
	client := &http.Client{Transport: tr}
	var seed atomic.Uint64
	var failed atomic.Int64
	b.SetParallelism(8)
	stopSampling := s.sampleMemory()
	cpu0 := s.cpu()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(seed.Add(1), 7))
		for pb.Next() {
			req, _ := http.NewRequest("GET", s.base+"/api/v1/lookup?chip="+set.chips[rng.IntN(len(set.chips))], nil)
			req.Header.Set("Authorization", "Bearer "+s.token)
			resp, err := client.Do(req)
			if err != nil {
				failed.Add(1)
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				failed.Add(1)
			}
		}
	})
	b.StopTimer()
	anon, file := stopSampling()
	b.ReportMetric(anon, "max-RSS-anon-MiB")
	b.ReportMetric(file, "max-RSS-file-MiB")
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d lookups failed", f)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
	// The server's own CPU per lookup: on a busy shared machine the rate
	// above measures the machine, this measures the service. Two
	// dedicated cores serve about 2 s / (CPU per lookup) lookups a second.
	perOp := (s.cpu() - cpu0) / time.Duration(b.N)
	b.ReportMetric(float64(perOp.Microseconds()), "server-CPU-µs/lookup")
	if perOp > 0 {
		b.ReportMetric(2*float64(time.Second)/float64(perOp), "lookups/s-on-2-cores")
	}
	s.reportMemory(b)
	b.ReportMetric(float64(len(set.chips)), "chips")
}

// BenchmarkScanToEvent writes one chip's WL-134 frame on the pty and
// waits for its event on the SSE stream; the time is from the write's
// return (the last byte on the pty) to the event's data line read by
// the client.
func BenchmarkScanToEvent(b *testing.B) {
	set := loadBenchSet(b)
	s := startBenchServer(b, set)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.base+"/api/v1/scans/stream?reader=bench", nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	lines := make(chan time.Time, 16)
	go func() {
		br := bufio.NewReader(resp.Body)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			if strings.HasPrefix(line, "data: ") {
				lines <- time.Now()
			}
		}
	}()
	ids := make([]chipid.ID, 0, 4096)
	for _, c := range set.chips[:min(len(set.chips), 4096)] {
		id, err := chipid.Parse(c, nil)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	// Wait until the reader is connected: the first scan may be lost
	// while the driver opens the port, so warm up until one arrives.
	for warm := 0; ; warm++ {
		if err := s.sim.Send(ctx, ids[warm%len(ids)]); err != nil {
			b.Fatal(err)
		}
		select {
		case <-lines:
		case <-time.After(200 * time.Millisecond):
			if warm > 100 {
				b.Fatal("no event from the simulated reader")
			}
			continue
		}
		break
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := ids[(i+1)%len(ids)]
		if err := s.sim.Send(ctx, id); err != nil {
			b.Fatal(err)
		}
		sent := time.Now()
		select {
		case at, ok := <-lines:
			if !ok {
				b.Fatal("stream closed")
			}
			lat = append(lat, at.Sub(sent))
		case <-time.After(5 * time.Second):
			b.Fatalf("scan %d: no event within 5 s", i)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	s.reportMemory(b)
}
