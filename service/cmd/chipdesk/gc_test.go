package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: the collector's settings apply unless the environment sets
// its own. Not parallel: the settings are the process's.
func TestTuneGC(t *testing.T) {
	pct, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { debug.SetGCPercent(pct); debug.SetMemoryLimit(limit) }()

	tuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GC percent %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != goMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, goMemoryLimit)
	}

	env := map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}
	tuneGC(func(k string) string { return env[k] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: GC percent changed to %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: memory limit changed to %d", got)
	}
}
