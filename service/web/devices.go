package web

import (
	"context"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/jobs"
)

// DevicesFunc is a function that lists devices.
type DevicesFunc func(ctx context.Context) []Device

// Devices implements Devices.
func (f DevicesFunc) Devices(ctx context.Context) []Device { return f(ctx) }

// ReaderDevices lists the readers of a hardware.Manager; now stamps the
// answer.
func ReaderDevices(m *hardware.Manager, now func() time.Time) Devices {
	return DevicesFunc(func(ctx context.Context) []Device {
		var out []Device
		for _, st := range m.Status() {
			d := Device{Kind: "reader", Name: st.Name, Ready: st.Connected, At: now()}
			switch {
			case st.Connected:
				d.State = fmt.Sprintf("connected, %d reads", st.Reads)
			case st.LastError != "":
				d.State = "not connected: " + st.LastError
			default:
				d.State = "not connected"
			}
			out = append(out, d)
		}
		return out
	})
}

// JobDevices lists the printers and engravers of a jobs.Runner, each
// asked for its status now; it also gives the station page its
// engravers (Stations, station.go).
func JobDevices(r *jobs.Runner) Devices { return jobDevices{r} }

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
