package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/drivers/usbids"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader"
)

const usbUsage = `usage: chiptool usb ACTION [FLAGS]

actions:
  list                      list the USB devices, naming the serial
                            bridges, printers and wedge scanners chipdesk
                            knows (drivers/usbids)
  udev [--group G]          print the udev rules for stable
                            /dev/chipreader-* names and group access
  wedge [--match VID:PID] [--layout us|de] [--count N]
                            read a keyboard-wedge scanner directly (the
                            desktop stops seeing its keys) and print one
                            JSON object per line typed
  printer [--match VID:PID] print a USB printer's IEEE 1284 id and status

list, wedge and printer need a build with cgo and -tags libusb.`

// runUSB is chiptool usb on the real bus (absent without -tags libusb).
func runUSB(ctx context.Context, e *cmdline.Env, args []string) error {
	return usbCommand(usbport.NewBus)(ctx, e, args)
}

// usbCommand returns the usb subcommand on the buses newBus opens
// (usbport.NewBus in chiptool, a fake in tests).
func usbCommand(newBus func() (usbport.Bus, error)) func(context.Context, *cmdline.Env, []string) error {
	return func(ctx context.Context, e *cmdline.Env, args []string) error {
		if len(args) == 0 {
			return cmdline.UsageError("no action\n%s", usbUsage)
		}
		fs := flag.NewFlagSet("usb "+args[0], flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		group := fs.String("group", usbids.DefaultGroup, "group owning the device nodes")
		match := fs.String("match", "", "device as vid:pid[:serial]")
		layout := fs.String("layout", "us", "keyboard layout the scanner types for")
		count := fs.Int("count", 0, "stop after this many lines (0: until interrupted)")
		rest, err := cmdline.ParseArgs(fs, args[1:])
		if errors.Is(err, flag.ErrHelp) || args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(e.Stdout, usbUsage)
			return nil
		}
		if err != nil {
			return cmdline.UsageError("%v\n%s", err, usbUsage)
		}
		if len(rest) > 0 {
			return cmdline.UsageError("unexpected %q\n%s", rest[0], usbUsage)
		}
		var m usbport.Match
		if *match != "" {
			if m, err = usbport.ParseMatch(*match); err != nil {
				return cmdline.UsageError("%v", err)
			}
		}
		switch args[0] {
		case "udev":
			s, err := usbids.Udev(*group)
			if err != nil {
				return cmdline.UsageError("%v", err)
			}
			_, err = io.WriteString(e.Stdout, s)
			return err
		case "list", "wedge", "printer":
		default:
			return cmdline.UsageError("unknown action %q\n%s", args[0], usbUsage)
		}
		bus, err := newBus()
		if err != nil {
			return cmdline.Exit(1, err)
		}
		defer bus.Close()
		switch args[0] {
		case "list":
			return usbList(ctx, e, bus)
		case "wedge":
			return usbWedge(ctx, e, bus, m, *layout, *count)
		default:
			return usbPrinter(ctx, e, bus, m)
		}
	}
}

func usbList(ctx context.Context, e *cmdline.Env, bus usbport.Bus) error {
	devs, err := bus.Devices(ctx)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	for _, d := range devs {
		kind, name := "-", d.Product
		if ent, ok := usbids.Lookup(d.VID, d.PID); ok {
			kind, name = string(ent.Kind)+" "+ent.Family, ent.Name
		} else {
			for _, i := range d.Interfaces {
				if usbids.IsCDCACM(uint8(i.Class), i.SubClass) {
					kind = "serial cdc-acm"
				}
			}
		}
		line := fmt.Sprintf("%s %s %s %s", d.Key(), d.ID(), kind, name)
		if d.Serial != "" {
			line += " serial " + d.Serial
		}
		if p := d.PathString(); p != "" {
			line += " at " + p
		}
		fmt.Fprintln(e.Stdout, line)
	}
	return nil
}

// wedgeJSON is one line a wedge scanner typed.
type wedgeJSON struct {
	Line  string `json:"line"`
	OK    bool   `json:"ok"`
	Kind  string `json:"kind,omitempty"`
	Code  string `json:"code,omitempty"`
	At    string `json:"at"`
	Error string `json:"error,omitempty"`
}

func usbWedge(ctx context.Context, e *cmdline.Env, bus usbport.Bus, m usbport.Match, layout string, count int) error {
	if m == (usbport.Match{}) {
		found, err := hidwedge.Find(ctx, bus, hidwedge.Known())
		if err != nil {
			return cmdline.Exit(1, err)
		}
		if len(found) == 0 {
			return cmdline.Exit(1, fmt.Errorf("no known wedge scanner plugged in (give --match vid:pid): %w", usbport.ErrNotFound))
		}
		m = usbport.Match{VID: found[0].VID, PID: found[0].PID, Path: found[0].PathString()}
	}
	enc := json.NewEncoder(e.Stdout)
	enc.SetEscapeHTML(false)
	// Lines that are not chips are printed as they are typed (inside
	// Next) and count as lines: the last one ends the wait.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	printed := 0
	var werr error // a failed write of a rejected line
	rejected := func(_ []byte, err error) {
		var le *hidwedge.LineError
		if errors.As(err, &le) && werr == nil {
			werr = enc.Encode(wedgeJSON{Line: le.Line, Error: le.Err.Error(), At: e.Now().Format(time.RFC3339Nano)})
			if printed++; werr != nil || printed == count {
				stop()
			}
		}
	}
	d, err := hidwedge.Open(ctx, bus, m, &hidwedge.Opts{Layout: layout, Gap: hidwedge.DefaultOpts.Gap, Form: hidwedge.DefaultOpts.Form, Now: e.Now, Rejected: rejected})
	if err != nil {
		return cmdline.Exit(1, err)
	}
	defer d.Close()
	fmt.Fprintf(e.Stderr, "reading %s\n", d)
	for count == 0 || printed < count {
		r, err := d.Next(ctx)
		switch {
		case werr != nil:
			return werr
		case err == nil:
			err = enc.Encode(wedgeJSON{Line: string(r.Raw), OK: true, Kind: string(r.ID.Kind), Code: r.ID.Code, At: r.At.Format(time.RFC3339Nano)})
			printed++
		case ctx.Err() != nil, errors.Is(err, reader.ErrClosed):
			return nil
		default:
			return cmdline.Exit(1, err)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func usbPrinter(ctx context.Context, e *cmdline.Env, bus usbport.Bus, m usbport.Match) error {
	p, err := usbport.OpenPrinter(ctx, bus, m, nil)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	defer p.Close()
	fmt.Fprintf(e.Stdout, "printer %s\n", p)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if id, err := usbport.GetDeviceID(ctx, p); err != nil {
		fmt.Fprintf(e.Stdout, "device id: %v\n", err)
	} else {
		fmt.Fprintf(e.Stdout, "device id: %s\n", id)
	}
	if st, err := usbport.GetPortStatus(ctx, p); err != nil {
		fmt.Fprintf(e.Stdout, "status: %v\n", err)
	} else {
		fmt.Fprintf(e.Stdout, "status: %s\n", st)
	}
	return nil
}
