package testtime_test

import (
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
)

func TestScale(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want time.Duration
	}{
		{"", time.Second},
		{"3", 3 * time.Second},
		{"2.5", 2500 * time.Millisecond},
		{"0.1", time.Second}, // never shorter than written
		{"fast", time.Second},
	} {
		t.Setenv(testtime.EnvVar, tt.env)
		if got := testtime.Scale(time.Second); got != tt.want {
			t.Errorf("%s=%q: Scale(1s) = %v, want %v", testtime.EnvVar, tt.env, got, tt.want)
		}
	}
}
