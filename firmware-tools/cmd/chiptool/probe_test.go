//go:build linux

package main

import (
	"testing"
)

func TestProbeCommand(t *testing.T) {
	t.Parallel()
	s := startSim(t, "rfidrw", nil)
	code, out, errOut := runCmd(t, "", "probe", s.Path(), "--listen", "50ms")
	if code != 0 {
		t.Fatalf("probe = %d, %s", code, errOut)
	}
	got := parseLines(t, out)
	want := map[string]any{"protocol": "rfidrw", "baud": 9600.0, "framing": "8N1", "evidence": "answer", "reply": "RFIDRW-E-SIM 308"}
	for k, v := range want {
		if got[0][k] != v {
			t.Errorf("probe: %s = %v, want %v", k, got[0][k], v)
		}
	}
}

// A push-only reader with no chip in its field is not found.
func TestProbeNothing(t *testing.T) {
	t.Parallel()
	s := startSim(t, "wl134", nil)
	if code, out, _ := runCmd(t, "", "probe", s.Path(), "--listen", "50ms"); code != 1 || out != "" {
		t.Errorf("probe = %d, %q, want 1 and no output", code, out)
	}
	if code, _, _ := runCmd(t, "", "probe"); code != 2 {
		t.Errorf("probe without PORT = %d, want 2", code)
	}
}
