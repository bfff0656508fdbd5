package bench

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

func TestQuantiles(t *testing.T) {
	t.Parallel()
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // 100..1, unsorted
	}
	for _, tt := range []struct {
		name string
		in   []time.Duration
		want Quantiles
	}{
		{"empty", nil, Quantiles{}},
		{"one", ms(7), Quantiles{N: 1, P50: 7 * time.Millisecond, P99: 7 * time.Millisecond, Max: 7 * time.Millisecond}},
		{"hundred", ms(hundred...), Quantiles{N: 100, P50: 51 * time.Millisecond, P99: 100 * time.Millisecond, Max: 100 * time.Millisecond}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := quantiles(tt.in); got != tt.want {
				t.Errorf("quantiles(%v) = %+v, want %+v", tt.name, got, tt.want)
			}
		})
	}
}

func TestFigureJudge(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		f    Figure
		want string // "ok", "FAIL", "none"
	}{
		{"higher met", Figure{Value: 20000, Target: 20000, Better: Higher}, "ok"},
		{"higher missed", Figure{Value: 19999, Target: 20000, Better: Higher}, "FAIL"},
		{"lower met", Figure{Value: 5, Target: 5, Better: Lower}, "ok"},
		{"lower missed", Figure{Value: 5.01, Target: 5, Better: Lower}, "FAIL"},
		{"no target", Figure{Value: 3}, "none"},
		{"skipped", Figure{Target: 1, Better: Higher, Skipped: "no server"}, "none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.f
			f.judge()
			got := "none"
			if f.Pass != nil {
				got = map[bool]string{true: "ok", false: "FAIL"}[*f.Pass]
			}
			if got != tt.want {
				t.Errorf("judge(%+v) = %s, want %s", tt.f, got, tt.want)
			}
		})
	}
}

func TestWriteTable(t *testing.T) {
	t.Parallel()
	r := &Report{Animals: 1_000_000, CPUs: 2, Go: "go"}
	r.add(Figure{Name: "lookup", Value: 23456.4, Unit: "/s", Target: 20000, Better: Higher})
	r.add(Figure{Name: "scan p99", Value: 7.5, Unit: "ms", Target: 5, Better: Lower})
	r.add(Figure{Name: "pg", Unit: "/s", Target: 20000, Better: Higher, Skipped: "not reachable"})
	var b bytes.Buffer
	if err := r.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"1,000,000 animals", "23,456 /s", "≥ 20,000 /s", "7.50 ms", "≤ 5.00 ms", "FAIL", "skip", "not reachable",
		"1 of the targets missed: scan p99"} {
		if !strings.Contains(out, want) {
			t.Errorf("WriteTable = %q, want it to contain %q", out, want)
		}
	}
	if got := r.Failed(); len(got) != 1 || got[0] != "scan p99" {
		t.Errorf("Failed() = %v, want [scan p99]", got)
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		if r.URL.Query().Get("n") == "13" {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	for _, tt := range []struct {
		name       string
		token      string
		paths      []string
		wantErrors int
	}{
		{"all ok", "tok", []string{"/?n=1", "/?n=2"}, 0},
		{"server errors counted", "tok", []string{"/?n=13"}, 40},
		{"unauthorised counted", "bad", []string{"/?n=1"}, 40},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Load(context.Background(), &LoadOpts{URL: srv.URL, Token: tt.token, Clients: 4, Requests: 40, Duration: 10 * time.Second,
				Path: func(rng *rand.Rand) string { return tt.paths[rng.IntN(len(tt.paths))] }})
			if err != nil {
				t.Fatal(err)
			}
			if res.Requests != 40 || res.Errors != tt.wantErrors || res.Latency.N != 40 || res.Clients != 4 {
				t.Errorf("Load = %d requests, %d errors, %d latencies, %d clients, want 40, %d, 40, 4 (%+v)", res.Requests, res.Errors, res.Latency.N, res.Clients, tt.wantErrors, res)
			}
			if res.PerSecond() <= 0 {
				t.Errorf("PerSecond() = %v, want > 0", res.PerSecond())
			}
		})
	}
}

// TestDataset builds a small data set into SQLite: every chip is stored,
// and the dangerous and quarantined animals read back as such.
func TestDataset(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) }
	ds, err := Generate(&DatasetOpts{Animals: 2000, Dir: t.TempDir(), DangerousPerMille: 20, QuarantinedPerMille: 10, On: service.MustDate("2026-06-01")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Chips) < 1500 || len(ds.Dangerous) == 0 || len(ds.Quarantined) == 0 {
		t.Fatalf("Generate: %d chips, %d dangerous, %d quarantined; want about 1800, 24, 20", len(ds.Chips), len(ds.Dangerous), len(ds.Quarantined))
	}
	st, err := sqlite.Open(ctx, t.TempDir()+"/db", &sqlite.Opts{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ds.Import(ctx, st); err != nil {
		t.Fatal(err)
	}
	if err := ds.Mark(ctx, st, now); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{ds.Chips[0], ds.Chips[len(ds.Chips)-1]} {
		if _, err := st.FindRecordByChip(ctx, c); err != nil {
			t.Errorf("FindRecordByChip(%s) = %v, want the record", c, err)
		}
	}
	rec, err := st.FindRecordByAnimal(ctx, ds.Dangerous[0])
	if err != nil {
		t.Fatal(err)
	}
	if rec.Dangerous == nil || rec.Animal.Species != service.Dog {
		t.Errorf("record of dangerous animal %d: designation %v, species %s; want a designated dog", ds.Dangerous[0], rec.Dangerous, rec.Animal.Species)
	}
	qs, err := st.FindQuarantines(ctx, ds.Quarantined[0])
	if err != nil || len(qs) != 1 || qs[0].End <= qs[0].Start {
		t.Errorf("FindQuarantines(%d) = %v, %v; want one quarantine with an end after its start", ds.Quarantined[0], qs, err)
	}
	if _, err := Evaluate(ctx, rec, service.MustDate("2026-06-01"), time.Millisecond); err != nil {
		t.Errorf("Evaluate = %v", err)
	}
}

func TestMicro(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sps, err := Demod(ctx, "985121004515220", 10*time.Millisecond)
	if err != nil || sps <= 0 {
		t.Errorf("Demod = %v, %v; want a rate", sps, err)
	}
	if _, err := Demod(ctx, "not a chip", time.Millisecond); err == nil {
		t.Errorf("Demod(not a chip) = nil error, want one")
	}
	if testing.Short() {
		return
	}
	tt, err := Tags(ctx, 10*time.Millisecond)
	if err != nil || tt.ZPL <= 0 || tt.Paths <= 0 || tt.Batch <= 0 {
		t.Errorf("Tags = %+v, %v; want times", tt, err)
	}
}

// TestSelfCPU checks the process CPU reading of /proc against
// getrusage(2) across 200 ms of computing: the two must agree to within
// a few of /proc's 10 ms clock ticks, however loaded the machine is.
func TestSelfCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	rusage := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			t.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	r0 := rusage()
	before, err := SelfCPU()
	if err != nil {
		t.Fatal(err)
	}
	x := uint64(1)
	for rusage()-r0 < 200*time.Millisecond {
		for range 10000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	after, err := SelfCPU()
	if err != nil {
		t.Fatal(err)
	}
	want := rusage() - r0
	if got := after - before; got < want-50*time.Millisecond || got > want+50*time.Millisecond {
		t.Errorf("SelfCPU grew by %v while getrusage grew by %v (x=%d)", got, want, x)
	}
}
