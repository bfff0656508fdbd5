//go:build linux

package main

import (
	"context"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

// identify on a pseudo-terminal played by the reader simulator: a
// reader with a query is found by its answer, a push-only one by a
// read; each with its family, line and the spec to configure it.
func TestIdentify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sim, evidence, framing string
		push                   bool
	}{
		{"rfidrw", "answer", "8N1", false},
		{"allflex", "answer", "8N1", false},
		{"avid", "answer", "8N1", false},
		{"wl134", "read", "8N1", true},
		{"aabb", "read", "8N1", true},
	} {
		t.Run(tc.sim, func(t *testing.T) {
			t.Parallel()
			s := startSim(t, tc.sim, &readersim.Opts{Noise: 0.1, Seed: 9})
			if tc.push {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() {
					for ctx.Err() == nil {
						s.SendText(ctx, "982000123456789")
						time.Sleep(testtime.Scale(20 * time.Millisecond))
					}
				}()
			}
			code, out, errOut := runCmd(t, "", "identify", s.Path(), "--listen", testtime.Scale(200*time.Millisecond).String())
			if code != 0 {
				t.Fatalf("identify = %d, %s", code, errOut)
			}
			got := parseLines(t, out)[0]
			want := map[string]any{"protocol": tc.sim, "baud": 9600.0, "framing": tc.framing, "evidence": tc.evidence, "reader": tc.sim + ":" + s.Path()}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("identify: %s = %v, want %v (%s)", k, got[k], v, out)
				}
			}
			if got["family"] == "" {
				t.Errorf("identify: no family: %s", out)
			}
		})
	}
	// A push-only reader with no chip held: nothing identified, said so.
	s := startSim(t, "wl134", nil)
	if code, out, errOut := runCmd(t, "", "identify", s.Path(), "--passive", "--listen", "50ms"); code != 1 || out != "" || errOut == "" {
		t.Errorf("identify, silent reader = %d, %q, %q", code, out, errOut)
	}
	if code, _, _ := runCmd(t, "", "identify"); code != 2 {
		t.Errorf("identify without PORT = %d, want 2", code)
	}
}
