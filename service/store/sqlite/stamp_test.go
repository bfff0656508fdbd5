package sqlite

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestStampText: stampText gives what time.Format gives with
// stampLayout, for instants in and out of years 0 to 9999 and in other
// zones.
func TestStampText(t *testing.T) {
	t.Parallel()
	east := time.FixedZone("east", 5*3600+30*60)
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []time.Time{
		time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC),
		time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(2027, 1, 1, 3, 0, 0, 1, east), // the day before in UTC
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(-1, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for range 10000 {
		cases = append(cases, time.Unix(rng.Int64N(400*365*86400)-200*365*86400, rng.Int64N(1e9)).In(east))
	}
	for _, at := range cases {
		if got, want := stampText(at), at.UTC().Format(stampLayout); got != want {
			t.Errorf("stampText(%v) = %q; want %q", at, got, want)
		}
	}
}

func BenchmarkStampText(b *testing.B) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 123456789, time.UTC)
	b.Run("stampText", func(b *testing.B) {
		for range b.N {
			_ = stampText(at)
		}
	})
	b.Run("Format", func(b *testing.B) {
		for range b.N {
			_ = at.UTC().Format(stampLayout)
		}
	})
}
