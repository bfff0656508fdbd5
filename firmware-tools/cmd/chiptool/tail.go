package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/discovery"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/drivers/readers/linefmt"
	"github.com/chipdesk/chipdesk/drivers/readers/runner"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader"
)

const tailUsage = `usage: chiptool tail PORT --protocol P [--baud N] [--count N] [--timeout DURATION] [--debounce DURATION]
       chiptool tail PORT --protocol linefmt --pattern REGEXP [--form FORM] [--framing 8N1] [--baud N] ...
       chiptool tail /dev/input/by-id/NAME --protocol evdev [--layout us|de] ...

Reads chips from the reader on PORT and prints one JSON object per read:
protocol (the reader format), air (FDX-B, HDX, ... when the reader tells),
kind, code (normalised as chiptool parse prints it), animal (when known),
raw (hex of the frame bytes) and at (RFC 3339 receive time). It stops
after --count reads (0: no limit) or at --timeout (0: none), and reopens
the port when the reader is unplugged and comes back.

P is one of ` + "wl134, allflex, rfidrw, rt100, are, iso24631, avid, datamars, agrident, aabb" + `,
auto (probe first), evdev: a keyboard-wedge scanner on a Linux input
device, grabbed while read so its digits do not also reach a window
(see chiptool input; --layout is the layout it types for), or linefmt:
a configured line reader, to try a pattern on a live port before
putting it in the configuration. Its --pattern is a
Go regular expression with a group named code (or country and national,
or rev); --form is the chipid form of the code (decimal, hex64, ...) and
--framing the line's framing (baud 9600 unless --baud).`

// readJSON is what tail prints for a read.
type readJSON struct {
	Protocol string `json:"protocol"`
	Air      string `json:"air,omitempty"`
	Kind     string `json:"kind"`
	Code     string `json:"code"`
	Animal   *bool  `json:"animal,omitempty"`
	Ext      string `json:"ext,omitempty"`
	Raw      string `json:"raw"`
	At       string `json:"at"`
	Source   string `json:"source,omitempty"`
}

func describeRead(r reader.Read) readJSON {
	out := readJSON{
		Protocol: r.Format,
		Air:      string(r.Protocol),
		Kind:     string(r.ID.Kind),
		Code:     r.ID.Code,
		Raw:      hex.EncodeToString(r.Raw),
		At:       r.At.Format(time.RFC3339Nano),
		Source:   r.Source,
	}
	if a, known := r.ID.Animal(); known {
		out.Animal = &a
	}
	if r.HasExt {
		out.Ext = fmt.Sprintf("%06X", r.Ext)
	}
	return out
}

func runTail(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("tail", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	proto := fs.String("protocol", "", "reader protocol, or auto")
	baud := fs.Int("baud", 0, "baud rate (default: the protocol's)")
	count := fs.Int("count", 0, "stop after this many reads (0: no limit)")
	timeout := fs.Duration("timeout", 0, "stop after this long (0: never)")
	debounce := fs.Duration("debounce", 0, "drop repeats of a chip within this window (0: keep every read)")
	pattern := fs.String("pattern", "", "linefmt: the line's regular expression")
	form := fs.String("form", "", "linefmt: the form of the code group")
	framing := fs.String("framing", "", "linefmt: the line's framing (8N1)")
	layout := fs.String("layout", "", "evdev: the keyboard layout the scanner types for (us, de)")
	pos, ok, err := cmdline.ParseCommand(e, fs, args, tailUsage)
	if !ok {
		return err
	}
	if len(pos) != 1 {
		return cmdline.UsageError("want one PORT\n%s", tailUsage)
	}
	if *proto == "" {
		return cmdline.UsageError("missing --protocol\n%s", tailUsage)
	}
	if *count < 0 || *timeout < 0 || *baud < 0 {
		return cmdline.UsageError("--count, --timeout and --baud must not be negative")
	}
	path := pos[0]
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	enc := json.NewEncoder(e.Stdout)
	enc.SetEscapeHTML(false)
	printed := 0

	var p catalog.Protocol
	if *proto == "auto" {
		o := &discovery.Opts{}
		if *baud > 0 {
			o.Bauds = []int{*baud}
		}
		res, err := discovery.ProbePath(ctx, path, o)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return cmdline.Exit(1, err)
		}
		fmt.Fprintf(e.Stderr, "chiptool tail: %s answers as %s at %d baud\n", path, res.Protocol, res.Mode.Baud)
		p, _ = catalog.Lookup(res.Protocol)
		p.Mode = res.Mode
		if res.Evidence == "read" {
			res.Read.At, res.Read.Source = e.Now(), res.Protocol+" on "+path
			if err := enc.Encode(describeRead(res.Read)); err != nil {
				return err
			}
			printed++
		}
	} else {
		switch {
		case *layout != "" && *proto != catalog.EvdevName:
			err = fmt.Errorf("--layout is for --protocol evdev")
		case *proto == catalog.EvdevName:
			o := hidwedge.DefaultOpts
			if *layout != "" {
				o.Layout = *layout
			}
			p, err = catalog.Evdev(&o)
		case *proto == catalog.LinefmtName:
			p, err = catalog.Linefmt(linefmt.Spec{Pattern: *pattern, Form: *form, Framing: *framing})
			if p.Mode.Baud == 0 {
				p.Mode.Baud = 9600
			}
		default:
			p, err = catalog.Lookup(*proto)
			if err == nil && (*pattern != "" || *form != "" || *framing != "") {
				err = fmt.Errorf("--pattern, --form and --framing are for --protocol linefmt")
			}
		}
		if err != nil {
			return cmdline.UsageError("%v", err)
		}
		if *baud > 0 {
			p.Mode.Baud = *baud
		}
	}
	if *count > 0 && printed >= *count {
		return nil
	}
	open := p.Opener(path, e.Now)
	deb := *debounce
	if deb == 0 {
		deb = -1
	}
	run, err := runner.New(open, &runner.Opts{
		Name: p.Name + " on " + path, Debounce: deb, Now: e.Now,
		MinBackoff: 200 * time.Millisecond, MaxBackoff: 5 * time.Second,
		OnEvent: func(ev runner.Event) {
			switch ev.Kind {
			case runner.OpenFailed, runner.Disconnected:
				fmt.Fprintf(e.Stderr, "chiptool tail: %s: %v; retrying in %v\n", strings.TrimSpace(string(ev.Kind)), ev.Err, ev.Wait)
			}
		},
	})
	if err != nil {
		return err
	}
	defer run.Close()
	enough := errors.New("chiptool tail: --count reads printed")
	err = run.Run(ctx, func(_ context.Context, r reader.Read) error {
		if err := enc.Encode(describeRead(r)); err != nil {
			return err
		}
		if printed++; *count > 0 && printed >= *count {
			return enough
		}
		return nil
	})
	if errors.Is(err, enough) || ctx.Err() != nil {
		return nil // --count reached, --timeout or interrupted
	}
	return err
}
