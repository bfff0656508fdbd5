//go:build linux

package catalog

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
)

// BenchmarkPTYLatency measures, through a real pseudo-terminal and
// go.bug.st/serial, the time from the device side's write of a frame's
// last byte to Next returning the read; it reports p50 and p99.
func BenchmarkPTYLatency(b *testing.B) {
	for _, p := range Protocols() {
		b.Run(p.Name, func(b *testing.B) {
			dev, err := porttest.NewPTY()
			if err != nil {
				b.Fatal(err)
			}
			defer dev.Close()
			sp, err := serialport.Open(dev.Path(), &serialport.Opts{Mode: p.Mode})
			if err != nil {
				b.Fatal(err)
			}
			r, err := p.New(sp, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			rng := rand.New(rand.NewPCG(7, 8))
			frame, _ := p.Encode(randomChip(rng))
			ctx := context.Background()
			var lat []time.Duration
			for b.Loop() {
				if _, err := dev.Write(frame); err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				if _, err := r.Next(ctx); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}
