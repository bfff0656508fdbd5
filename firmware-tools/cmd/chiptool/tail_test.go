//go:build linux

package main

import (
	"context"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/readers/wl134"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

func startSim(t *testing.T, proto string, o *readersim.Opts) *readersim.Sim {
	t.Helper()
	if o == nil {
		o = &readersim.Opts{}
	}
	o.Protocol = proto
	o.Link = filepath.Join(t.TempDir(), "reader")
	s, err := readersim.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestTail(t *testing.T) {
	t.Parallel()
	s := startSim(t, "wl134", &readersim.Opts{Noise: 0.2, Seed: 3})
	ctx := context.Background()
	for _, c := range []string{"982000123456789", "900 250000023921"} {
		if err := s.SendText(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCmd(t, "", "tail", s.Path(), "--protocol", "wl134", "--count", "2", "--timeout", "5s")
	if code != 0 {
		t.Fatalf("tail = %d, %s", code, errOut)
	}
	got := parseLines(t, out)
	if len(got) != 2 {
		t.Fatalf("tail printed %d objects, want 2: %s", len(got), out)
	}
	frame, _ := wl134.Encode(wl134.Frame{Country: 982, National: 123456789, Animal: true})
	want := map[string]any{
		"protocol": "wl134", "air": "ISO", "kind": "iso11784", "code": "982000123456789", "animal": true,
		"raw": hex.EncodeToString(frame), "at": "2026-01-02T03:04:05Z",
	}
	for k, v := range want {
		if got[0][k] != v {
			t.Errorf("tail: %s = %v, want %v", k, got[0][k], v)
		}
	}
	if got[1]["code"] != "900250000023921" {
		t.Errorf("second read = %v", got[1])
	}
}

// At the timeout tail stops, having printed what it read.
func TestTailTimeout(t *testing.T) {
	t.Parallel()
	s := startSim(t, "allflex", nil)
	start := time.Now()
	code, out, errOut := runCmd(t, "", "tail", s.Path(), "--protocol", "allflex", "--timeout", "200ms")
	if code != 0 || out != "" {
		t.Errorf("tail = %d, %q, %q, want 0 and no output", code, out, errOut)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("tail took %v with --timeout 200ms", d)
	}
}

// --protocol auto probes first; a pushing reader is found by its read,
// which is printed.
func TestTailAuto(t *testing.T) {
	t.Parallel()
	s := startSim(t, "iso24631", &readersim.Opts{Rate: 20})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			s.SendText(ctx, "985121004515220")
		}
	}()
	code, out, errOut := runCmd(t, "", "tail", s.Path(), "--protocol", "auto", "--count", "2", "--timeout", "8s")
	if code != 0 {
		t.Fatalf("tail auto = %d, %s", code, errOut)
	}
	got := parseLines(t, out)
	if len(got) != 2 || got[0]["protocol"] != "iso24631" || got[1]["code"] != "985121004515220" {
		t.Errorf("tail auto printed %s (%s)", out, errOut)
	}
}

func TestTailUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"tail"},
		{"tail", "/dev/null"},
		{"tail", "/dev/null", "--protocol", "nope"},
		{"tail", "/dev/null", "--protocol", "wl134", "--count", "-1"},
		{"tail", "/dev/null", "--protocol", "wl134", "--layout", "de"},
		{"tail", "/dev/input/event0", "--protocol", "evdev", "--layout", "fr"},
	} {
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v = %d, want 2", args, code)
		}
	}
}

// An evdev scanner that is not there (unplugged, a Bluetooth scanner
// asleep) is retried and said so, until the timeout.
func TestTailEvdevAbsent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "usb-scanner-event-kbd")
	code, out, errOut := runCmd(t, "", "tail", path, "--protocol", "evdev", "--layout", "de", "--timeout", "300ms")
	if code != 0 || out != "" || !strings.Contains(errOut, "no such input device") {
		t.Errorf("tail of an absent evdev scanner = %d, %q, %q", code, out, errOut)
	}
}

// The new families tail from their simulators; a linefmt pattern is
// tried on a live port (here an RFIDRW simulator's CCC_NNNNNNNNNNNN
// lines).
func TestTailProtocols(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sim  string
		args []string
	}{
		{"avid", []string{"--protocol", "avid"}},
		{"datamars", []string{"--protocol", "datamars"}},
		{"agrident", []string{"--protocol", "agrident"}},
		{"aabb", []string{"--protocol", "aabb"}},
		{"rfidrw", []string{"--protocol", "linefmt", "--pattern", `(?P<code>\d{3}_\d{12})$`, "--form", "decimal"}},
	} {
		t.Run(tc.args[1], func(t *testing.T) {
			t.Parallel()
			s := startSim(t, tc.sim, &readersim.Opts{Noise: 0.2, Seed: 5})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				// Resend until tail has opened the port and read one.
				for ctx.Err() == nil {
					s.SendText(ctx, "982000123456789")
					time.Sleep(testtime.Scale(50 * time.Millisecond))
				}
			}()
			args := append([]string{"tail", s.Path(), "--count", "1", "--timeout", testtime.Scale(10 * time.Second).String()}, tc.args...)
			code, out, errOut := runCmd(t, "", args...)
			if code != 0 {
				t.Fatalf("tail = %d, %s", code, errOut)
			}
			got := parseLines(t, out)
			if len(got) != 1 || got[0]["code"] != "982000123456789" {
				t.Errorf("tail %v printed %s", tc.args, out)
			}
		})
	}
	if code, _, errOut := runCmd(t, "", "tail", "/dev/null", "--protocol", "linefmt"); code != 2 || !strings.Contains(errOut, "pattern") {
		t.Errorf("tail linefmt without a pattern = %d, %q", code, errOut)
	}
	if code, _, _ := runCmd(t, "", "tail", "/dev/null", "--protocol", "wl134", "--pattern", "x"); code != 2 {
		t.Errorf("tail wl134 --pattern = %d, want 2", code)
	}
}
