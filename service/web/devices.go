package web

import (
	"context"

	"github.com/chipdesk/chipdesk/service/printjobs"
)

// Printers lists print queue runners as devices, each asked for its
// status now.
type Printers []*printjobs.Runner

// Devices implements Devices.
func (p Printers) Devices(ctx context.Context) []Device {
	out := make([]Device, 0, len(p))
	for _, r := range p {
		st := r.Status(ctx)
		out = append(out, Device{Kind: "printer", Name: st.Name, Ready: st.Ready, State: st.State, At: st.At})
	}
	return out
}

// DeviceList joins several device sources (the readers of
// service/hardware, the printers).
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
