package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/chipdesk/chipdesk/drivers/port/evdevport"
	"github.com/chipdesk/chipdesk/internal/cmdline"
)

const inputUsage = `usage: chiptool input [--json] [--all]

Lists the Linux input devices that type digits and Enter (keyboards and
keyboard-wedge scanners, USB or Bluetooth): the name to configure
(its /dev/input/by-id link when udev made one), the device and the
name the kernel reports. --all lists every input device. Read one with
chiptool tail NAME --protocol evdev, and configure it as
--reader evdev:NAME; never configure the desk's own keyboard: the
reader grabs the device, and its keys would no longer reach the desktop.`

type inputJSON struct {
	Name   string `json:"name"`
	Device string `json:"device"`
	Kernel string `json:"kernel_name,omitempty"`
	Keys   bool   `json:"keys"`
}

func runInput(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("input", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object per device")
	all := fs.Bool("all", false, "list devices without digit keys too")
	root := fs.String("root", "", "read /dev and /sys under this folder (for tests)")
	pos, ok, err := cmdline.ParseCommand(e, fs, args, inputUsage)
	if !ok {
		return err
	}
	if len(pos) > 0 {
		return cmdline.UsageError("unexpected arguments %q\n%s", pos, inputUsage)
	}
	devs, err := evdevport.List(*root)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	enc := json.NewEncoder(e.Stdout)
	n := 0
	for _, d := range devs {
		if !d.Keys && !*all {
			continue
		}
		n++
		if *asJSON {
			if err := enc.Encode(inputJSON{Name: d.Stable(), Device: d.Path, Kernel: d.Name, Keys: d.Keys}); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(e.Stdout, "%s  %s  %q\n", d.Stable(), d.Path, d.Name)
	}
	if n == 0 && !*asJSON {
		fmt.Fprintln(e.Stderr, "chiptool input: no input device with digit keys found (a Bluetooth scanner must be connected)")
	}
	return nil
}
