// Package testtime gives tests their timeouts from one place, scaled by
// a factor the test command can raise on a busy machine.
//
// A test never asserts on elapsed time; it waits for an outcome, and
// gives up after testtime.Scale(d). CHIPDESK_TEST_TIMEOUT_FACTOR (a
// number, default 1) multiplies every such wait: test.sh raises it when
// the machine is shared, and a developer may set it by hand.
package testtime

import (
	"os"
	"strconv"
	"time"
)

// EnvVar names the factor's environment variable.
const EnvVar = "CHIPDESK_TEST_TIMEOUT_FACTOR"

// Factor returns the timeout factor from the environment: 1 when it is
// unset, not a number or below 1.
func Factor() float64 {
	f, err := strconv.ParseFloat(os.Getenv(EnvVar), 64)
	if err != nil || f < 1 {
		return 1
	}
	return f
}

// Scale returns d multiplied by Factor.
func Scale(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Factor())
}
