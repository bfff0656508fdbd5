package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
)

func benchCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	e := &cmdline.Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), Now: time.Now}
	code = run(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

func TestBenchUsage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad flag", []string{"bench", "--nope"}, 2, "flag provided but not defined"},
		{"no animals", []string{"bench", "-n", "0"}, 2, "-n must be positive"},
		{"extra argument", []string{"bench", "extra"}, 2, `unexpected argument "extra"`},
		{"help", []string{"bench", "-h"}, 0, "usage: chipdesk bench"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := benchCLI(tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("chipdesk %v = %d, %q; want %d and %q", tt.args, code, stderr, tt.code, tt.want)
			}
		})
	}
}

// TestBenchQuick runs a small bench end to end: a chipdesk binary built
// from this package serves, and the JSON report has every figure, each
// measured (PostgreSQL skipped without a URL) and judged, with the
// growth run's figures (-n above --base) beside the full run's.
func TestBenchQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds chipdesk and runs the service")
	}
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "chipdesk")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	code, stdout, stderr := benchCLI("bench", "--quick", "-n", "3000", "--base", "1500", "--duration", "500ms", "--scans", "20",
		"--json", "--postgres", "", "--binary", bin, "--dir", t.TempDir())
	if code != 0 {
		t.Fatalf("chipdesk bench = %d\n%s", code, stderr)
	}
	var r struct {
		Animals int
		Figures []struct {
			Name    string
			Value   float64
			Better  string
			Pass    *bool
			Skipped string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("bench --json: %v\n%s", err, stdout)
	}
	if r.Animals != 1500 {
		t.Errorf("animals = %d, want 1500", r.Animals)
	}
	want := []string{"CSV import, SQLite", "lookup by chip, SQLite, HTTP", "  server CPU per lookup, SQLite", "  load client CPU per lookup",
		"  store lookup by chip, SQLite, in process", "  HTTP floor, SQLite", "scan to event p99", "peak resident memory (serve)",
		"lookup by chip, PostgreSQL, HTTP", "rules evaluation of one record", "FDX-B demodulation", "one tag to ZPL",
		"one tag to engraving paths", "1,000-tag batch to paths",
		"CSV import, SQLite, 3,000", "SQLite file / CSV size, 3,000", "lookup by chip, SQLite, HTTP, 3,000", "  lookup p99, SQLite, 3,000",
		"lookup p99 ratio, 3,000 / 1,500", "peak resident memory (serve), 3,000"}
	got := map[string]bool{}
	for _, f := range r.Figures {
		got[f.Name] = true
		switch {
		case f.Skipped != "":
			if !strings.Contains(f.Name, "PostgreSQL") {
				t.Errorf("%s skipped (%s), want it measured", f.Name, f.Skipped)
			}
		case f.Value <= 0:
			t.Errorf("%s = %v, want a positive figure", f.Name, f.Value)
		case f.Better != "" && f.Pass == nil:
			t.Errorf("%s has a target but no mark", f.Name)
		}
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("report has no %q", w)
		}
	}
	if os.Getenv("CHIPDESK_BENCH_LOG") != "" {
		t.Log(stderr)
	}
}
