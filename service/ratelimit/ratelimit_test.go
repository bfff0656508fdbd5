package ratelimit

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	lm := New(Limit{PerMinute: 6, Burst: 3}, func() time.Time { return now })
	for i := range 3 {
		if !lm.Allow("a") {
			t.Fatalf("attempt %d of the burst refused", i+1)
		}
	}
	if lm.Allow("a") {
		t.Fatal("fourth attempt allowed past a burst of 3")
	}
	if !lm.Allow("b") {
		t.Fatal("another key refused")
	}
	if got := lm.RetryAfter("a"); got != 10*time.Second {
		t.Errorf("RetryAfter = %v, want 10s (6 a minute)", got)
	}
	now = now.Add(10 * time.Second)
	if !lm.Allow("a") || lm.Allow("a") {
		t.Error("after 10 s exactly one more attempt should be allowed")
	}
	now = now.Add(time.Hour)
	for i := range 3 {
		if !lm.Allow("a") {
			t.Fatalf("after an hour, attempt %d refused: the bucket refills only to its burst", i+1)
		}
	}
	if lm.Allow("a") {
		t.Error("the bucket refilled past its burst")
	}
}

func TestOff(t *testing.T) {
	var nilLimiter *Limiter
	off := New(Limit{}, nil)
	for range 1000 {
		if !nilLimiter.Allow("x") || !off.Allow("x") {
			t.Fatal("a nil or zero limiter refused")
		}
	}
}

func TestPrune(t *testing.T) {
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	lm := New(Limit{PerMinute: 60}, func() time.Time { return now })
	for i := range MaxKeys + 10 {
		lm.Allow(string(rune(i)))
	}
	if len(lm.m) > MaxKeys {
		t.Errorf("%d keys kept, at most %d", len(lm.m), MaxKeys)
	}
}
