package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"os"
	"slices"
	"strings"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// tagUsage lists the tag subcommands.
const tagUsage = `usage:
  chipdesk tag render --jurisdiction J --year YYYY --number N --format png|svg|zpl|paths|paths-svg [--dpi D] [--dpmm 8|12|24] [--species S]
  chipdesk tag plate --jurisdiction J --year YYYY --number FIRST --count C [--plate WxH] [--sheet K] --format paths|paths-svg|png
  chipdesk tag verify TEXT
  chipdesk tag designs
  chipdesk tag keygen --jurisdiction J --year YYYY
common flags: --keys PATH (key file or directory; default $CHIPDESK_TAG_KEYS, else the public
development keys), --designs DIR (extra design files), --font FILE (TrueType font)`

// runTag is "chipdesk tag render|verify|designs|keygen": licence tag
// designs, rendering and check codes (package tags).
func runTag(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 {
		return cmdline.UsageError("tag: want render, plate, verify, designs or keygen\n%s", tagUsage)
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("tag "+sub, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	var (
		keysPath   = fs.String("keys", os.Getenv("CHIPDESK_TAG_KEYS"), "check-code key `path` (file or directory of *.keys)")
		designsDir = fs.String("designs", "", "`directory` of extra design files")
		fontPath   = fs.String("font", "", "TrueType or OpenType `file` for the text (default Go Bold)")
		j          = fs.String("jurisdiction", "", "jurisdiction by `name` or code: minneapolis, Minneapolis or MPLS")
		year       = fs.Int("year", 0, "licence `year`")
		number     = fs.Int("number", 0, "register `number`")
		species    = fs.String("species", "", "dog, cat or ferret (default: the design's first)")
		format     = fs.String("format", "png", "png, svg, zpl, paths (JSON, mm) or paths-svg (SVG path data, mm)")
		count      = fs.Int("count", 1, "number of tags, numbered from --number (plate)")
		plate      = fs.String("plate", "300x200", "plate or sheet size `WxH` in mm (plate)")
		sheet      = fs.Int("sheet", 0, "write only plate `K` (1-based; plate, required for png)")
		dpi        = fs.Float64("dpi", 300, "preview resolution, dots per inch (png)")
		dpmm       = fs.Int("dpmm", tags.DefaultZPLOpts.Dpmm, "ZPL printer resolution in dots per mm: 8 (203 dpi, as a zpl device by default), 12 or 24 (zpl)")
	)
	pos, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return cmdline.FlagError(err)
	}
	switch sub {
	case "render":
		if len(pos) != 0 {
			return cmdline.UsageError("tag render: unexpected argument %q", pos[0])
		}
		return tagRender(e, *keysPath, *designsDir, *fontPath, *j, *year, *number, *species, *format, *dpi, *dpmm)
	case "plate":
		if len(pos) != 0 {
			return cmdline.UsageError("tag plate: unexpected argument %q", pos[0])
		}
		return tagPlate(e, *keysPath, *designsDir, *fontPath, *j, *year, *number, *count, *species, *format, *plate, *sheet, *dpi)
	case "verify":
		if len(pos) != 1 {
			return cmdline.UsageError("tag verify: want the TEXT read from a tag's code")
		}
		return tagVerify(e, *keysPath, pos[0])
	case "designs":
		return tagDesigns(e, *designsDir)
	case "keygen":
		if !check.ValidJurisdiction(*j) || *year < check.MinYear || *year > check.MaxYear {
			return cmdline.UsageError("tag keygen: want --jurisdiction (2-6 letters A-Z) and --year")
		}
		secret := make([]byte, 32)
		rand.Read(secret)
		fmt.Fprintln(e.Stdout, check.FormatKey(*j, *year, secret))
		return nil
	}
	return cmdline.UsageError("tag: unknown subcommand %q\n%s", sub, tagUsage)
}

// tagKeys loads the key file or directory; without one it returns the
// public development keys and says so on stderr.
func tagKeys(e *cmdline.Env, path string) (*check.Keyring, error) {
	if path == "" {
		fmt.Fprintln(e.Stderr, "chipdesk tag: no --keys or CHIPDESK_TAG_KEYS: using the public DEVELOPMENT keys (demo only)")
		return check.DevelopmentKeys(), nil
	}
	return check.LoadKeys(path)
}

func tagRender(e *cmdline.Env, keysPath, designsDir, fontPath, j string, year, number int, species, format string, dpi float64, dpmm int) error {
	if j == "" || year == 0 || number == 0 {
		return cmdline.UsageError("tag render: want --jurisdiction, --year and --number")
	}
	switch format {
	case "png", "svg", "zpl", "paths", "paths-svg":
	default:
		return cmdline.UsageError("tag render: --format must be png, svg, zpl, paths or paths-svg")
	}
	r, issue, err := tagSetup(e, keysPath, designsDir, fontPath)
	if err != nil {
		return err
	}
	tag, err := issue(j, year, number, species)
	if err != nil {
		return cmdline.Exit(1, err)
	}
	switch format {
	case "png":
		img, err := r.Image(tag, dpi)
		if err != nil {
			return cmdline.UsageError("tag render: %v", err)
		}
		return png.Encode(e.Stdout, img)
	case "svg":
		return r.SVG(e.Stdout, tag)
	case "zpl":
		zo := tags.DefaultZPLOpts
		zo.Dpmm = dpmm
		l, err := r.ZPL(tag, &zo)
		if err != nil {
			return cmdline.UsageError("tag render: --dpmm: %v", err)
		}
		fmt.Fprintf(e.Stderr, "chipdesk tag: ZPL at %d dots/mm; print it on a printer of that resolution\n", dpmm)
		_, err = e.Stdout.Write(l.ZPL)
		return err
	default: // paths, paths-svg
		job, err := r.Paths(tag)
		if err != nil {
			return err
		}
		if format == "paths-svg" {
			return job.WriteSVG(e.Stdout)
		}
		return json.NewEncoder(e.Stdout).Encode(job)
	}
}

// tagSetup loads designs, keys and the font.
func tagSetup(e *cmdline.Env, keysPath, designsDir, fontPath string) (*tags.Renderer, func(j string, year, number int, species string) (*tags.Tag, error), error) {
	designs, err := tags.LoadDesigns(designsDir)
	if err != nil {
		return nil, nil, err
	}
	keys, err := tagKeys(e, keysPath)
	if err != nil {
		return nil, nil, err
	}
	var opts *tags.Opts
	if fontPath != "" {
		data, err := os.ReadFile(fontPath)
		if err != nil {
			return nil, nil, err
		}
		opts = &tags.Opts{Font: data}
	}
	r, err := tags.NewRenderer(opts)
	if err != nil {
		return nil, nil, err
	}
	rs, err := rules.Embedded()
	if err != nil {
		return nil, nil, err
	}
	issue := func(j string, year, number int, species string) (*tags.Tag, error) {
		code, err := tagCode(rs, designs, j)
		if err != nil {
			return nil, err
		}
		return designs.Issue(keys, code, year, number, species)
	}
	return r, issue, nil
}

// tagCode is the design code of the jurisdiction j names: a profile's
// id, name or code in any case through the one resolver
// (rules.Set.Resolve: "minneapolis", "Minneapolis", "MPLS" are the same
// tags), else a design's own code ("MNDD", the state's dangerous-dog
// tag). An unknown name is refused with the known ones listed.
func tagCode(rs *rules.Set, designs *tags.Designs, j string) (string, error) {
	if p, err := rs.Resolve(j); err == nil && len(p.Codes) > 0 {
		return p.Codes[0], nil
	}
	up := strings.ToUpper(strings.TrimSpace(j))
	var codes []string
	for _, d := range designs.All() {
		if d.Jurisdiction == up {
			return up, nil
		}
		if !slices.Contains(codes, d.Jurisdiction) {
			codes = append(codes, d.Jurisdiction)
		}
	}
	return "", fmt.Errorf("unknown jurisdiction %q: known are %s, and the design codes %s", j, rs.Known(), strings.Join(codes, ", "))
}

// tagPlate lays tags number..number+count-1 out on plates and writes
// their engraving paths (a JSON array of jobs, one per plate, or the
// SVG of one plate) or the preview of one plate.
func tagPlate(e *cmdline.Env, keysPath, designsDir, fontPath, j string, year, number, count int, species, format, plate string, sheet int, dpi float64) error {
	if j == "" || year == 0 || number == 0 || count < 1 || count > 100000 {
		return cmdline.UsageError("tag plate: want --jurisdiction, --year, --number and --count (1-100000)")
	}
	var l tags.Layout
	if _, err := fmt.Sscanf(plate, "%gx%g", &l.Width, &l.Height); err != nil || l.Width <= 0 || l.Height <= 0 {
		return cmdline.UsageError("tag plate: --plate %q is not WxH in mm", plate)
	}
	l.Margin, l.Gap = 5, 2
	switch {
	case format != "paths" && format != "paths-svg" && format != "png":
		return cmdline.UsageError("tag plate: --format must be paths, paths-svg or png")
	case format != "paths" && sheet < 1:
		return cmdline.UsageError("tag plate: --format %s writes one plate: give --sheet", format)
	}
	r, issue, err := tagSetup(e, keysPath, designsDir, fontPath)
	if err != nil {
		return err
	}
	list := make([]*tags.Tag, 0, count)
	for n := number; n < number+count; n++ {
		t, err := issue(j, year, n, species)
		if err != nil {
			return cmdline.Exit(1, err)
		}
		list = append(list, t)
	}
	sheets, err := l.Place(list)
	if err != nil {
		return cmdline.UsageError("tag plate: %v", err)
	}
	if sheet > len(sheets) {
		return cmdline.UsageError("tag plate: --sheet %d of %d", sheet, len(sheets))
	}
	if sheet > 0 {
		sheets = sheets[sheet-1 : sheet]
	}
	if format == "png" {
		img, err := r.SheetImage(sheets[0], dpi)
		if err != nil {
			return cmdline.UsageError("tag plate: %v", err)
		}
		return png.Encode(e.Stdout, img)
	}
	var jobs []*toolpath.Job
	for _, s := range sheets {
		job, err := r.SheetPaths(s)
		if err != nil {
			return err
		}
		jobs = append(jobs, job)
	}
	if format == "paths-svg" {
		return jobs[0].WriteSVG(e.Stdout)
	}
	return json.NewEncoder(e.Stdout).Encode(jobs)
}

// tagVerifyResult is what "tag verify" prints.
type tagVerifyResult struct {
	Valid        bool   `json:"valid"`
	Jurisdiction string `json:"jurisdiction,omitempty"`
	Year         int    `json:"year,omitempty"`
	Number       int    `json:"number,omitempty"`
	Development  bool   `json:"development_keys,omitempty"`
	Error        string `json:"error,omitempty"`
}

func tagVerify(e *cmdline.Env, keysPath, text string) error {
	keys, err := tagKeys(e, keysPath)
	if err != nil {
		return err
	}
	p, err := keys.Verify(text)
	res := tagVerifyResult{Valid: err == nil, Jurisdiction: p.Jurisdiction, Year: p.Year, Number: p.Number, Development: keys.Development()}
	if err != nil {
		res.Error = err.Error()
	}
	enc := json.NewEncoder(e.Stdout)
	if werr := enc.Encode(res); werr != nil {
		return werr
	}
	if err != nil {
		return cmdline.Exit(1, nil)
	}
	return nil
}

func tagDesigns(e *cmdline.Env, dir string) error {
	designs, err := tags.LoadDesigns(dir)
	if err != nil {
		return err
	}
	bad := false
	for _, d := range designs.All() {
		status := "ok"
		if err := designs.Err(d); err != nil {
			status, bad = err.Error(), true
		}
		fmt.Fprintf(e.Stdout, "%-28s %-18s %5.1fx%-5.1f mm  %-26s %s\n", d, d.Shape, d.Width, d.Height, d.Metal.Name, status)
	}
	if bad {
		return cmdline.Exit(1, nil)
	}
	return nil
}
