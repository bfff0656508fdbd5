package jobs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/chipdesk/chipdesk/drivers/engravers"
	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/port/tcpport"
	"github.com/chipdesk/chipdesk/drivers/printers"
	"github.com/chipdesk/chipdesk/drivers/printers/brotherql"
	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/devspec"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// Device kinds.
const (
	KindZPL       = "zpl"       // Zebra ZPL II label printer
	KindBrotherQL = "brotherql" // Brother QL raster label printer
	KindGRBL      = "grbl"      // GRBL laser engraver
)

// ErrSpec: a device spec cannot be read.
var ErrSpec = errors.New("jobs: bad device spec")

// Spec is one configured printer or engraver, written
// KIND:ADDRESS[,option=value...]. ADDRESS is a serial device when it
// starts with "/" ("/dev/ttyUSB0") and a TCP address otherwise
// ("10.0.0.7", "printer.local:9100"; the port defaults to 9100).
type Spec struct {
	Kind string
	Addr string
	// Name names the device on jobs and events; KIND:ADDRESS by default.
	// Keep it stable: a restart recovers the jobs left "sent" to the
	// devices it has by name.
	Name string
	// Baud is the serial speed (serial addresses only).
	Baud int
	// Dpmm is a ZPL printer's resolution in dots per mm (8, 12 or 24).
	Dpmm int
	// Darkness (~SD, 1-30), Speed (^PR, 2-14 in/s) and Calibrate (~JC
	// when opened) set a ZPL printer; 0 / false leave its own settings.
	Darkness, PrintSpeed int
	Calibrate            bool
	// Model and Media name a Brother QL printer and its roll ("QL-820NWB",
	// "62"); both are required over the network.
	Model, Media string
	// Power (0-1 of the laser's maximum), Speed (mm/min) and Passes set
	// a GRBL engraving; Cut also cuts the blank's outline.
	Power  float64
	Speed  float64
	Passes int
	Cut    bool
	// SetLaserMode (option laser_mode=set) allows chipdesk to write
	// $32=1 into a GRBL controller that has laser mode off; without it
	// such a job fails before anything is written and says so.
	SetLaserMode bool
	// Beam is the laser's beam (spot) width in mm and Interval the
	// distance between fill lines, mm (options beam=, interval=): the
	// engraving paths are corrected for them so code modules come out
	// their size. 0 means the renderer's defaults.
	Beam, Interval float64
	// PlateW and PlateH are the size in mm of a plate of blanks on the
	// laser's bed (option plate=WxH): a batch is engraved a plate at a
	// time, the tags in a grid (PlateMargin at the edges, PlateGap
	// between). Zero engraves one blank at a time at the origin.
	PlateW, PlateH float64
}

// Plate layout of an engraver with a plate.
const (
	PlateMargin = 5.0 // mm
	PlateGap    = 3.0 // mm
)

func (sp Spec) layout() tags.Layout {
	return tags.Layout{Width: sp.PlateW, Height: sp.PlateH, Margin: PlateMargin, Gap: PlateGap}
}

// RenderOpts is the tag rendering of the device: an engraver's beam
// and fill interval; nil for the defaults.
func (sp Spec) RenderOpts() *tags.Opts {
	if sp.Kind != KindGRBL || sp.Beam == 0 && sp.Interval == 0 {
		return nil
	}
	o := tags.DefaultOpts
	o.Beam = sp.Beam
	if sp.Interval != 0 {
		o.Hatch = sp.Interval
	} else if sp.Beam != 0 {
		o.Hatch = sp.Beam * 0.8 // fill lines overlapping by a fifth of the beam
	}
	return &o
}

// Engraving is the engraver job of a rendered tag or plate: its paths
// with the device's power, speed, passes and cut.
func (sp Spec) Engraving(tp *toolpath.Job, name string) engravers.Job {
	return engravers.Job{Name: name, Paths: engravers.FromToolpath(tp, sp.Cut), Power: sp.Power, Speed: sp.Speed, Passes: sp.Passes,
		Outline: engravers.OutlineOf(tp)}
}

// Defaults of a spec's options.
const (
	DefaultDpmm     = 8
	DefaultBaud     = 9600
	DefaultGRBLBaud = 115200
	DefaultPower    = 0.8
	DefaultSpeed    = 600
	DefaultPasses   = 1
)

// Serial reports whether the address is a serial device.
func (sp Spec) Serial() bool { return strings.HasPrefix(sp.Addr, "/") }

// JobKind is the kind of job the device makes.
func (sp Spec) JobKind() service.JobKind {
	if sp.Kind == KindGRBL {
		return service.JobEngrave
	}
	return service.JobPrint
}

// ParseSpec reads KIND:ADDRESS[,option=value...]. Options: name=NAME,
// baud=N; for zpl dpmm=8|12|24 (default 8), darkness=1..30,
// speed=2..14 (in/s), calibrate=true|false; for brotherql model=M,
// media=M; for grbl power=0..1, speed=MM_PER_MIN, passes=N,
// cut=true|false, plate=WxH (mm), laser_mode=set|check, beam=MM,
// interval=MM.
func ParseSpec(s string) (Spec, error) {
	ds, err := devspec.Parse(s)
	if err != nil {
		return Spec{}, fmt.Errorf("%w %q: %w", ErrSpec, s, err)
	}
	sp := Spec{Kind: ds.Kind, Addr: ds.Addr, Name: ds.Head()}
	switch sp.Kind {
	case KindZPL:
		sp.Dpmm = DefaultDpmm
	case KindBrotherQL:
	case KindGRBL:
		sp.Power, sp.Speed, sp.Passes = DefaultPower, DefaultSpeed, DefaultPasses
	default:
		return Spec{}, fmt.Errorf("%w %q: unknown kind %q (want zpl, brotherql or grbl)", ErrSpec, s, sp.Kind)
	}
	if sp.Serial() {
		sp.Baud = sp.defaultBaud()
	}
	for _, o := range ds.Options {
		if err := sp.set(o.Key, o.Value); err != nil {
			return Spec{}, fmt.Errorf("%w %q: %v", ErrSpec, s, err)
		}
	}
	return sp, nil
}

func (sp Spec) defaultBaud() int {
	if sp.Kind == KindGRBL {
		return DefaultGRBLBaud
	}
	return DefaultBaud
}

func (sp *Spec) set(k, v string) error {
	num := func(lo, hi float64) (float64, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || f < lo || f > hi {
			return 0, fmt.Errorf("option %s=%s: want a number from %g to %g", k, v, lo, hi)
		}
		return f, nil
	}
	integer := func(lo, hi int) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("option %s=%s: want a whole number from %d to %d", k, v, lo, hi)
		}
		return n, nil
	}
	var err error
	switch {
	case k == "name":
		sp.Name = v
	case k == "baud" && sp.Serial():
		sp.Baud, err = integer(50, 4000000)
	case k == "dpmm" && sp.Kind == KindZPL:
		if v != "8" && v != "12" && v != "24" {
			return fmt.Errorf("option dpmm=%s: want 8, 12 or 24", v)
		}
		sp.Dpmm, _ = strconv.Atoi(v)
	case k == "darkness" && sp.Kind == KindZPL:
		sp.Darkness, err = integer(1, 30)
	case k == "speed" && sp.Kind == KindZPL:
		sp.PrintSpeed, err = integer(2, 14)
	case k == "calibrate" && sp.Kind == KindZPL:
		sp.Calibrate, err = strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("option calibrate=%s: want true or false", v)
		}
	case k == "laser_mode" && sp.Kind == KindGRBL:
		if v != "set" && v != "check" {
			return fmt.Errorf("option laser_mode=%s: want set (chipdesk may write $32=1) or check", v)
		}
		sp.SetLaserMode = v == "set"
	case k == "beam" && sp.Kind == KindGRBL:
		sp.Beam, err = num(0.01, 2)
	case k == "interval" && sp.Kind == KindGRBL:
		sp.Interval, err = num(0.01, 2)
	case k == "model" && sp.Kind == KindBrotherQL:
		sp.Model = v
	case k == "media" && sp.Kind == KindBrotherQL:
		sp.Media = v
	case k == "power" && sp.Kind == KindGRBL:
		sp.Power, err = num(0.001, 1)
	case k == "speed" && sp.Kind == KindGRBL:
		sp.Speed, err = num(1, 100000)
	case k == "passes" && sp.Kind == KindGRBL:
		sp.Passes, err = integer(1, 100)
	case k == "plate" && sp.Kind == KindGRBL:
		ws, hs, ok := strings.Cut(v, "x")
		w, werr := strconv.ParseFloat(ws, 64)
		h, herr := strconv.ParseFloat(hs, 64)
		if !ok || werr != nil || herr != nil || !(w >= 10 && w <= 2000) || !(h >= 10 && h <= 2000) {
			return fmt.Errorf("option plate=%s: want WIDTHxHEIGHT in mm, 10 to 2000", v)
		}
		sp.PlateW, sp.PlateH = w, h
	case k == "cut" && sp.Kind == KindGRBL:
		sp.Cut, err = strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("option cut=%s: want true or false", v)
		}
	default:
		return fmt.Errorf("option %q does not apply to a %s device at %s", k, sp.Kind, sp.Addr)
	}
	return err
}

// String returns the spec in the form ParseSpec reads, options at their
// default left out.
func (sp Spec) String() string {
	var b strings.Builder
	b.WriteString(sp.Kind + ":" + sp.Addr)
	opt := func(k, v string) { b.WriteString("," + k + "=" + v) }
	if sp.Name != sp.Kind+":"+sp.Addr {
		opt("name", sp.Name)
	}
	if sp.Serial() && sp.Baud != sp.defaultBaud() {
		opt("baud", strconv.Itoa(sp.Baud))
	}
	switch sp.Kind {
	case KindZPL:
		if sp.Dpmm != DefaultDpmm {
			opt("dpmm", strconv.Itoa(sp.Dpmm))
		}
		if sp.Darkness != 0 {
			opt("darkness", strconv.Itoa(sp.Darkness))
		}
		if sp.PrintSpeed != 0 {
			opt("speed", strconv.Itoa(sp.PrintSpeed))
		}
		if sp.Calibrate {
			opt("calibrate", "true")
		}
	case KindBrotherQL:
		if sp.Model != "" {
			opt("model", sp.Model)
		}
		if sp.Media != "" {
			opt("media", sp.Media)
		}
	case KindGRBL:
		if sp.Power != DefaultPower {
			opt("power", strconv.FormatFloat(sp.Power, 'g', -1, 64))
		}
		if sp.Speed != DefaultSpeed {
			opt("speed", strconv.FormatFloat(sp.Speed, 'g', -1, 64))
		}
		if sp.Passes != DefaultPasses {
			opt("passes", strconv.Itoa(sp.Passes))
		}
		if sp.Cut {
			opt("cut", "true")
		}
		if sp.SetLaserMode {
			opt("laser_mode", "set")
		}
		if sp.Beam != 0 {
			opt("beam", strconv.FormatFloat(sp.Beam, 'g', -1, 64))
		}
		if sp.Interval != 0 {
			opt("interval", strconv.FormatFloat(sp.Interval, 'g', -1, 64))
		}
		if sp.PlateW != 0 {
			opt("plate", strconv.FormatFloat(sp.PlateW, 'g', -1, 64)+"x"+strconv.FormatFloat(sp.PlateH, 'g', -1, 64))
		}
	}
	return b.String()
}

// Device is a printer or engraver. An open device (Open, or a literal)
// has exactly one of Printer and Engraver set, matching Spec.Kind. A
// device from Pending has neither until the worker opens it; the worker
// opens it again after its link fails, so a printer switched off when
// chipdesk starts is used once it is on. Set the fields before the
// device is given to a Worker and do not change them after.
type Device struct {
	Spec     Spec
	Printer  printers.Printer
	Engraver engravers.Engraver

	pending bool
	mu      sync.Mutex // guards Printer and Engraver of a pending device
}

// Pending returns the device of sp, to be opened by the worker when it
// is first needed.
func Pending(sp Spec) *Device { return &Device{Spec: sp, pending: true} }

// PendingDevices parses specs (KIND:ADDRESS[,option=value...]) into
// pending devices, for a worker configured from a file or flags.
func PendingDevices(specs []string) ([]*Device, error) {
	out := make([]*Device, 0, len(specs))
	for _, s := range specs {
		sp, err := ParseSpec(s)
		if err != nil {
			return nil, err
		}
		out = append(out, Pending(sp))
	}
	return out, nil
}

// String names the device (Spec.Name).
func (d *Device) String() string { return d.Spec.Name }

// drivers returns the open drivers; both nil while a pending device is
// not open.
func (d *Device) drivers() (printers.Printer, engravers.Engraver) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.Printer, d.Engraver
}

// connect opens a pending device that is not open.
func (d *Device) connect(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.pending || d.Printer != nil || d.Engraver != nil {
		return nil
	}
	o, err := Open(ctx, d.Spec)
	if err != nil {
		return err
	}
	d.Printer, d.Engraver = o.Printer, o.Engraver
	return nil
}

// linkFailed closes a pending device whose link failed, so that the next
// job opens it again. An open device given by the caller stays.
func (d *Device) linkFailed(err error) {
	if !d.pending || !(errors.Is(err, port.ErrHangup) || errors.Is(err, port.ErrClosed) ||
		errors.Is(err, zpl.ErrNoReply) || errors.Is(err, grbl.ErrAckTimeout)) {
		return
	}
	d.Close()
}

// Close closes the driver and its port.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var err error
	if d.Printer != nil {
		err = d.Printer.Close()
	}
	if d.Engraver != nil {
		err = d.Engraver.Close()
	}
	if d.pending {
		d.Printer, d.Engraver = nil, nil
	}
	return err
}

// Open opens the port of sp and its driver. A ZPL printer and a Brother
// QL on a serial line are asked for their status; a GRBL controller is
// reset (laser off) and must answer with its banner.
func Open(ctx context.Context, sp Spec) (*Device, error) {
	var p port.Port
	var err error
	if sp.Serial() {
		mode := port.Mode{Baud: sp.Baud, DataBits: 8, Parity: port.ParityNone, StopBits: 1}
		p, err = serialport.Open(sp.Addr, &serialport.Opts{Mode: mode})
	} else {
		p, err = tcpport.Dial(ctx, sp.Addr, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("jobs: %s: %w", sp.Name, err)
	}
	d := &Device{Spec: sp}
	switch sp.Kind {
	case KindZPL:
		d.Printer, err = zpl.New(ctx, p, &zpl.Opts{Dpmm: sp.Dpmm, Darkness: sp.Darkness, Speed: sp.PrintSpeed, Calibrate: sp.Calibrate})
	case KindBrotherQL:
		d.Printer, err = brotherql.New(ctx, p, &brotherql.Opts{Model: sp.Model, Media: sp.Media, Network: !sp.Serial()})
	case KindGRBL:
		d.Engraver, err = grbl.New(ctx, p, &grbl.Opts{SetLaserMode: sp.SetLaserMode})
	default:
		err = fmt.Errorf("%w: unknown kind %q", ErrSpec, sp.Kind)
	}
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("jobs: %s: %w", sp.Name, err)
	}
	return d, nil
}
