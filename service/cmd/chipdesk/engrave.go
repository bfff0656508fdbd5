package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers"
	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
)

const engraveUsage = `usage:
  chipdesk engrave gcode --jurisdiction J --year YYYY --number N [--species S] [--device SPEC]
                         write the tag's G-code program to stdout (grbl 1.1, laser mode)
  chipdesk engrave grid [--powers 0.2,0.4,...] [--speeds 300,600,...] [--module MM] [--device SPEC]
                         write a material test grid (power x speed, a DataMatrix per cell) as G-code
  chipdesk engrave estimate --jurisdiction J --year YYYY --number N [--device SPEC]
                         the job's time before starting (from the controller's rates with --device)
  chipdesk engrave status --device SPEC          machine state and work position
  chipdesk engrave home --device SPEC            homing cycle ($H); also clears an alarm
  chipdesk engrave unlock --device SPEC          clear an alarm lock ($X) once the machine is checked
  chipdesk engrave jog --device SPEC --x MM --y MM [--feed MM/MIN]
                         move the head with the laser off ($J=)
  chipdesk engrave origin --device SPEC          make the head's position the tag's origin (G10 L20 P1)
  chipdesk engrave frame --device SPEC --jurisdiction J --year YYYY --number N
                         trace the tag's outline with the laser off before loading a blank
  chipdesk engrave override --device SPEC OVERRIDE...
                         feed or laser power override of the running job: ` + "feed+10 feed-10 feed+1 feed-1 feed100 power+10 power-10 power+1 power-1 power100" + `

--device is a grbl spec (grbl:/dev/ttyUSB0[,power=0.8,speed=600,beam=0.2,interval=0.16,laser_mode=set]);
gcode, grid and estimate take the power, speed, passes, beam and interval from it without opening it.
A jurisdiction is given by name or code (Minneapolis, MPLS, minneapolis).
common flags: --keys PATH, --designs DIR, --font FILE (as for chipdesk tag)`

// runEngrave is "chipdesk engrave": the laser station's controls and
// G-code export.
func runEngrave(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(e.Stderr, engraveUsage)
		if len(args) == 0 {
			return cmdline.Exit(2, nil)
		}
		return nil
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("engrave "+sub, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	var (
		device   = fs.String("device", "", "grbl device `SPEC`")
		jur      = fs.String("jurisdiction", "", "jurisdiction `name or code`")
		year     = fs.Int("year", 0, "licence `year`")
		number   = fs.Int("number", 0, "register `number`")
		species  = fs.String("species", "", "species line (default: the design's first)")
		keysPath = fs.String("keys", envOr("CHIPDESK_TAG_KEYS", ""), "check-code key `path`")
		designs  = fs.String("designs", "", "extra tag design `dir`")
		fontPath = fs.String("font", "", "TrueType or OpenType `file` for the text")
		maxS     = fs.Int("max-s", 1000, "S value of full laser power ($30)")
		rapid    = fs.Float64("rapid", 500, "rapid rate in mm/min for an estimate without --device ($110)")
		x        = fs.Float64("x", 0, "jog distance in `mm` along X")
		y        = fs.Float64("y", 0, "jog distance in `mm` along Y")
		feed     = fs.Float64("feed", 1000, "jog feed in `mm/min`")
		powers   = fs.String("powers", "0.2,0.4,0.6,0.8,1", "grid powers, 0-1 of the maximum, comma separated")
		speeds   = fs.String("speeds", "300,600,1200,2400", "grid speeds in mm/min, comma separated")
		module   = fs.Float64("module", 0.35, "grid DataMatrix module in `mm`")
	)
	pos, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return cmdline.FlagError(err)
	}
	spec, err := engraveSpec(*device)
	if err != nil {
		return err
	}
	needDevice := func() error {
		if *device == "" {
			return cmdline.UsageError("engrave %s: want --device SPEC", sub)
		}
		return nil
	}
	tagJob := func() (engravers.Job, error) {
		if *jur == "" || *year == 0 || *number == 0 {
			return engravers.Job{}, cmdline.UsageError("engrave %s: want --jurisdiction, --year and --number", sub)
		}
		return engraveTagJob(e, spec, *keysPath, *designs, *fontPath, *jur, *year, *number, *species)
	}
	switch sub {
	case "gcode":
		j, err := tagJob()
		if err != nil {
			return err
		}
		return writeGcode(e.Stdout, []engravers.Job{j}, *maxS, engraveHeader(j, spec))
	case "grid":
		jobsList, err := engraveGrid(spec, *powers, *speeds, *module)
		if err != nil {
			return err
		}
		head := []string{fmt.Sprintf("chipdesk test grid, %d cells, module %g mm", len(jobsList), *module), beamLine(spec)}
		return writeGcode(e.Stdout, jobsList, *maxS, head)
	case "estimate":
		j, err := tagJob()
		if err != nil {
			return err
		}
		est := j.Estimate(*rapid)
		if *device != "" {
			st, closeDev, err := openStation(ctx, spec)
			if err != nil {
				return err
			}
			defer closeDev()
			if est, err = st.Estimate(ctx, j); err != nil {
				return err
			}
		}
		fmt.Fprintf(e.Stdout, "%s: about %s (%d paths, %g mm/min)\n", j.Name, est.Round(time.Second), len(j.Paths), j.Speed)
		return nil
	case "status", "home", "unlock", "jog", "origin", "frame", "override":
	default:
		return cmdline.UsageError("engrave: unknown subcommand %q\n%s", sub, engraveUsage)
	}
	if err := needDevice(); err != nil {
		return err
	}
	var j engravers.Job
	var ovs []engravers.Override
	switch sub {
	case "frame":
		if j, err = tagJob(); err != nil {
			return err
		}
	case "override":
		if len(pos) == 0 {
			return cmdline.UsageError("engrave override: want one or more of %v", engravers.Overrides)
		}
		for _, p := range pos {
			o := engravers.Override(p)
			if !knownOverride(o) {
				return cmdline.UsageError("engrave override: %q is not one of %v", p, engravers.Overrides)
			}
			ovs = append(ovs, o)
		}
	}
	st, closeDev, err := openStation(ctx, spec)
	if err != nil {
		return err
	}
	defer closeDev()
	switch sub {
	case "home":
		err = st.Home(ctx)
	case "unlock":
		err = st.Unlock(ctx)
	case "jog":
		err = st.Jog(ctx, *x, *y, *feed)
	case "origin":
		err = st.SetOrigin(ctx)
	case "frame":
		err = st.Frame(ctx, j)
	case "override":
		for _, o := range ovs {
			if err = st.Override(ctx, o); err != nil {
				break
			}
		}
	}
	if err != nil {
		return cmdline.Exit(1, err)
	}
	s, err := st.Status(ctx)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	fmt.Fprintf(e.Stdout, "%s: %s at X%.3f Y%.3f%s\n", spec.Name, s.State, s.Pos.X, s.Pos.Y, map[bool]string{true: " (alarm: home or unlock)"}[s.Alarm])
	return nil
}

func knownOverride(o engravers.Override) bool {
	for _, k := range engravers.Overrides {
		if k == o {
			return true
		}
	}
	return false
}

// engraveSpec reads --device (a grbl spec), or the defaults without one.
func engraveSpec(s string) (jobs.Spec, error) {
	if s == "" {
		return jobs.ParseSpec("grbl:/dev/null")
	}
	sp, err := jobs.ParseSpec(s)
	if err != nil {
		return sp, cmdline.UsageError("engrave: %v", err)
	}
	if sp.Kind != jobs.KindGRBL {
		return sp, cmdline.UsageError("engrave: --device %s is a %s, not an engraver (grbl)", sp.Name, sp.Kind)
	}
	return sp, nil
}

// openStation opens the engraver of sp (a soft reset: laser off).
func openStation(ctx context.Context, sp jobs.Spec) (engravers.Station, func(), error) {
	d, err := jobs.Open(ctx, sp)
	if err != nil {
		return nil, nil, cmdline.Exit(1, err)
	}
	st, ok := d.Engraver.(engravers.Station)
	if !ok {
		d.Close()
		return nil, nil, cmdline.Exit(1, fmt.Errorf("engrave: %s has no station controls", sp.Name))
	}
	return st, func() { d.Close() }, nil
}

// engraveTagJob renders the tag as the device would engrave it: the
// beam and fill interval, power, speed and passes of spec.
func engraveTagJob(e *cmdline.Env, sp jobs.Spec, keysPath, designsDir, fontPath, jur string, year, number int, species string) (engravers.Job, error) {
	ds, err := tags.LoadDesigns(designsDir)
	if err != nil {
		return engravers.Job{}, err
	}
	rs, err := rules.Embedded()
	if err != nil {
		return engravers.Job{}, err
	}
	_, d, err := tagDesign(rs, ds, jur, year)
	if err != nil {
		return engravers.Job{}, cmdline.UsageError("engrave: %v", err)
	}
	code := d.Jurisdiction
	keys, err := tagKeys(e, keysPath)
	if err != nil {
		return engravers.Job{}, err
	}
	t, err := ds.Issue(keys, code, year, number, species)
	if err != nil {
		return engravers.Job{}, cmdline.Exit(1, err)
	}
	o := sp.RenderOpts()
	if fontPath != "" {
		data, err := os.ReadFile(fontPath)
		if err != nil {
			return engravers.Job{}, err
		}
		if o == nil {
			d := tags.DefaultOpts
			o = &d
		}
		o.Font = data
	}
	r, err := tags.NewRenderer(o)
	if err != nil {
		return engravers.Job{}, err
	}
	tp, err := r.Paths(t)
	if err != nil {
		return engravers.Job{}, err
	}
	return sp.Engraving(tp, t.String()), nil
}

// engraveGrid is the material test grid: one cell per power and speed,
// each a DataMatrix of "P<power %> F<speed>" engraved at those
// settings, so the cells whose code reads back show the settings to use.
func engraveGrid(sp jobs.Spec, powerList, speedList string, module float64) ([]engravers.Job, error) {
	pw, err := floatList("powers", powerList, 0.001, 1)
	if err != nil {
		return nil, err
	}
	sd, err := floatList("speeds", speedList, 1, 100000)
	if err != nil {
		return nil, err
	}
	if !(module >= 0.1 && module <= 2) {
		return nil, cmdline.UsageError("engrave grid: --module %g mm outside 0.1-2", module)
	}
	r, err := tags.NewRenderer(sp.RenderOpts())
	if err != nil {
		return nil, cmdline.UsageError("engrave grid: %v", err)
	}
	n, err := tags.Modules("P100 F100000")
	if err != nil {
		return nil, err
	}
	cell := float64(n+4) * module // the symbol, its quiet zone and a gap
	var out []engravers.Job
	for row, s := range sd {
		for col, p := range pw {
			text := fmt.Sprintf("P%d F%g", int(p*100+0.5), s)
			w, h := float64(len(pw))*cell, float64(len(sd))*cell
			cx, cy := (float64(col)+0.5)*cell, (float64(row)+0.5)*cell
			tp, err := r.CodePaths(text, module, cx, cy, w, h)
			if err != nil {
				return nil, err
			}
			out = append(out, engravers.Job{Name: text, Paths: engravers.FromToolpath(tp, false), Power: p, Speed: s, Passes: sp.Passes})
		}
	}
	return out, nil
}

func floatList(name, s string, lo, hi float64) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v >= lo && v <= hi) {
			return nil, cmdline.UsageError("engrave grid: --%s %q: want numbers from %g to %g, comma separated", name, f, lo, hi)
		}
		out = append(out, v)
	}
	if len(out) > 20 {
		return nil, cmdline.UsageError("engrave grid: --%s has %d values, at most 20", name, len(out))
	}
	return out, nil
}

// beamLine states the beam correction of a program.
func beamLine(sp jobs.Spec) string {
	if sp.Beam == 0 {
		return "no beam correction (set beam=MM on the device)"
	}
	return fmt.Sprintf("beam %g mm corrected, fill interval %g mm", sp.Beam, max(sp.Interval, 0))
}

func engraveHeader(j engravers.Job, sp jobs.Spec) []string {
	return []string{
		"chipdesk " + j.Name,
		fmt.Sprintf("power %g, %g mm/min, %d passes", j.Power, j.Speed, max(j.Passes, 1)),
		beamLine(sp),
	}
}

// writeGcode writes the jobs as one grbl program, comment lines first.
// Comments are in parentheses, which grbl's parser skips; they hold no
// byte grbl acts on at receipt (? ! ~).
func writeGcode(w io.Writer, js []engravers.Job, maxS int, head []string) error {
	lines, err := grbl.Programs(js, maxS)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	var b strings.Builder
	for _, h := range head {
		h = strings.Map(func(r rune) rune {
			if r == '(' || r == ')' || r == '?' || r == '!' || r == '~' || r > 0x7e || r < 0x20 {
				return '-'
			}
			return r
		}, h)
		if len(h) > grbl.MaxLine-2 {
			h = h[:grbl.MaxLine-2]
		}
		b.WriteString("(" + h + ")\n")
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// tagDesign finds the jurisdiction a command names (its id, name or
// code, any case: "minneapolis", "Minneapolis", "MPLS") with the one
// resolver, rules.Set.Resolve, and its licence tag design for year as
// the issuer chooses it. It returns the rules profile id (jobs and
// batches are stored under it) and the design (tags are issued under its
// code).
func tagDesign(rs *rules.Set, ds *tags.Designs, jur string, year int) (profile string, d *tags.Design, err error) {
	p, err := rs.Resolve(jur)
	if err != nil {
		return "", nil, errors.New(service.ErrorMessage(err))
	}
	if d, err = (&jobs.Orders{Rules: rs, Designs: ds}).Design(p.ID, year); err != nil {
		return "", nil, err
	}
	return p.ID, d, nil
}
