package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/chipdesk/chipdesk/drivers/readers/discovery"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

const portsUsage = `usage: chiptool ports [--json]

Lists the serial ports with their USB vendor and product ids, serial
number and, for known USB-serial bridges, the adapter's name.`

type portJSON struct {
	Name         string `json:"name"`
	USB          bool   `json:"usb"`
	VID          string `json:"vid,omitempty"`
	PID          string `json:"pid,omitempty"`
	Serial       string `json:"serial,omitempty"`
	Manufacturer string `json:"manufacturer,omitempty"`
	Product      string `json:"product,omitempty"`
	Adapter      string `json:"adapter,omitempty"`
	Driver       string `json:"driver,omitempty"`
}

func runPorts(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("ports", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object per port")
	pos, ok, err := cmdline.ParseCommand(e, fs, args, portsUsage)
	if !ok {
		return err
	}
	if len(pos) > 0 {
		return cmdline.UsageError("unexpected arguments %q\n%s", pos, portsUsage)
	}
	ports, err := discovery.Ports()
	if err != nil {
		return cmdline.Exit(1, err)
	}
	enc := json.NewEncoder(e.Stdout)
	for _, p := range ports {
		j := portJSON{Name: p.Name, USB: p.IsUSB, VID: p.VID, PID: p.PID, Serial: p.SerialNumber,
			Manufacturer: p.Manufacturer, Product: p.Product}
		if p.Known {
			j.Adapter, j.Driver = p.Adapter.Name, p.Adapter.Driver
		}
		if *asJSON {
			if err := enc.Encode(j); err != nil {
				return err
			}
			continue
		}
		line := p.String()
		if j.Adapter != "" {
			line += "  " + j.Adapter
		} else if j.Product != "" {
			line += "  " + j.Product
		}
		fmt.Fprintln(e.Stdout, line)
	}
	if len(ports) == 0 && !*asJSON {
		fmt.Fprintln(e.Stderr, "chiptool ports: no serial ports found")
	}
	return nil
}
