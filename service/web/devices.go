package web

import (
	"context"

	"github.com/chipdesk/chipdesk/service/jobs"
)

// DevicesFunc is a function that lists devices.
type DevicesFunc func(ctx context.Context) []Device

// Devices implements Devices.
func (f DevicesFunc) Devices(ctx context.Context) []Device { return f(ctx) }

// JobDevices lists the printers and engravers of a jobs.Worker, each
// asked for its status now; it also gives the station page its
// engravers (Stations, station.go).
func JobDevices(r *jobs.Worker) Devices { return jobDevices{r} }

// DeviceList joins several device sources.
type DeviceList []Devices

// Devices implements Devices.
func (l DeviceList) Devices(ctx context.Context) []Device {
	var out []Device
	for _, d := range l {
		if d != nil {
			out = append(out, d.Devices(ctx)...)
		}
	}
	return out
}
