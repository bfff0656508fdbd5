package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/reader/iso11785"
)

const traceUsage = `usage:
  chiptool trace decode FILE... [--protocol fdxb|hdx|fdxa|all] [--format pm3|int8|int16] [--rate HZ] [--circular]
  chiptool trace synth CODE [--protocol fdxb|hdx|fdxa] [--noise SIGMA] [--drift FRACTION] [--invert]
                            [--duty F] [--repeats N] [--seed N]

decode prints one JSON object per distinct telegram (repeats counted) and
exits 0 when it found one, 1 when none, 2 when an input cannot be read.
synth writes a .pm3 capture to stdout; CODE is a 15-digit ISO number
(fdxb, hdx) or a 10-hex FDX-A code; SIGMA is relative to the amplitude.`

func runTrace(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 {
		return cmdline.UsageError("%s", traceUsage)
	}
	switch args[0] {
	case "decode":
		return traceDecode(ctx, e, args[1:])
	case "synth":
		return traceSynth(e, args[1:])
	}
	return cmdline.UsageError("unknown trace command %q\n%s", args[0], traceUsage)
}

// traceRead is the JSON form of one telegram found in a file.
type traceRead struct {
	File       string   `json:"file"`
	Protocol   string   `json:"protocol"`
	Code       string   `json:"code"`
	Country    *uint16  `json:"country,omitempty"`
	National   *uint64  `json:"national,omitempty"`
	Animal     bool     `json:"animal"`
	DataBlock  bool     `json:"data_block"`
	Ext        string   `json:"ext"`
	CRC        string   `json:"crc,omitempty"`
	CRCOK      bool     `json:"crc_ok"`
	Raw        string   `json:"raw"`
	Offset     int64    `json:"offset"`
	Count      int      `json:"count"`
	Quality    float64  `json:"quality"`
	Circular   bool     `json:"circular,omitempty"`
	Fahrenheit *float64 `json:"temperature_f,omitempty"`
	Celsius    *float64 `json:"temperature_c,omitempty"`
}

func traceDecode(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("trace decode", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	proto := fs.String("protocol", "all", "fdxb, hdx, fdxa or all")
	format := fs.String("format", "", "pm3, int8 or int16 (default: by file extension, else pm3)")
	rate := fs.Float64("rate", 0, "HDX sample rate in Hz (default 2 MHz)")
	circular := fs.Bool("circular", false, "complete an FDX-B telegram cut by the end of a capture from its repeat")
	files, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return cmdline.Exit(2, nil)
	}
	if len(files) == 0 {
		return cmdline.UsageError("trace decode: no FILE\n%s", traceUsage)
	}
	var mk []func() demod.Decoder
	for _, p := range strings.Split(*proto, ",") {
		switch strings.ToLower(p) {
		case "fdxb", "fdx-b", "all":
			mk = append(mk, func() demod.Decoder { return demod.NewFDXB(&demod.Opts{Circular: *circular}) })
		}
		switch strings.ToLower(p) {
		case "hdx", "all":
			mk = append(mk, func() demod.Decoder { return demod.NewHDX(&demod.Opts{SampleRate: *rate}) })
		}
		switch strings.ToLower(p) {
		case "fdxa", "fdx-a", "all":
			mk = append(mk, func() demod.Decoder { return demod.NewFDXA(nil) })
		case "fdxb", "fdx-b", "hdx":
		default:
			return cmdline.UsageError("trace decode: unknown protocol %q", p)
		}
	}
	enc := json.NewEncoder(e.Stdout)
	found := false
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return cmdline.Exit(2, err)
		}
		s, err := loadTraceFile(name, demod.Format(*format))
		if err != nil {
			return cmdline.Exit(2, err)
		}
		var outs []*traceRead
		index := map[string]*traceRead{}
		for _, m := range mk {
			d := m()
			rs := append(append([]demod.Result(nil), d.Write(s)...), d.Flush()...)
			for i := range rs {
				tr := toTraceRead(name, &rs[i])
				key := tr.Protocol + "/" + tr.Raw
				if prev, ok := index[key]; ok {
					prev.Count++
					prev.Quality = max(prev.Quality, tr.Quality)
					continue
				}
				index[key] = tr
				outs = append(outs, tr)
			}
		}
		for _, tr := range outs {
			found = true
			if err := enc.Encode(tr); err != nil {
				return cmdline.Exit(2, err)
			}
		}
	}
	if !found {
		return cmdline.Exit(1, nil)
	}
	return nil
}

func loadTraceFile(name string, f demod.Format) ([]int16, error) {
	if f == "" {
		switch strings.ToLower(filepath.Ext(name)) {
		case ".s8", ".i8", ".raw8":
			f = demod.FormatInt8
		case ".s16", ".i16", ".raw16", ".raw":
			f = demod.FormatInt16
		default:
			f = demod.FormatPM3
		}
	}
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	s, err := demod.ReadTrace(fh, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

func toTraceRead(file string, r *demod.Result) *traceRead {
	tr := &traceRead{
		File:     file,
		Protocol: string(r.Protocol),
		Raw:      fmt.Sprintf("%X", r.Bytes()),
		Offset:   r.Offset,
		Count:    1,
		Quality:  float64(int(r.Quality*1000+0.5)) / 1000,
		Circular: r.Circular,
		CRCOK:    true, // the decoders return only telegrams whose CRC or parity holds
	}
	if r.Protocol == reader.AirFDXA {
		tr.Code = r.FDXA.String()
		tr.Ext = "000000"
		return tr
	}
	c := r.Telegram.Code
	tr.Code = c.String()
	country, national := c.Country(), c.National()
	tr.Country, tr.National = &country, &national
	tr.Animal, tr.DataBlock = c.Animal(), c.DataBlock()
	tr.Ext = fmt.Sprintf("%06X", r.Telegram.Ext)
	tr.CRC = fmt.Sprintf("%04X", r.Telegram.CRC)
	if f, ok := r.Telegram.Temperature(); ok {
		cel := float64(int(iso11785.Celsius(f)*10+0.5)) / 10
		tr.Fahrenheit, tr.Celsius = &f, &cel
	}
	return tr
}

func traceSynth(e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("trace synth", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	proto := fs.String("protocol", "fdxb", "fdxb, hdx or fdxa")
	var o synth.Opts
	fs.Float64Var(&o.Noise, "noise", 0, "noise standard deviation, relative to the amplitude")
	fs.Float64Var(&o.Drift, "drift", 0, "tag clock drift as a fraction (0.02 = bits 2 % longer)")
	fs.BoolVar(&o.Invert, "invert", false, "invert the polarity")
	fs.Float64Var(&o.Duty, "duty", 0.5, "FDX-B high-level fraction of a 0 bit")
	fs.IntVar(&o.Repeats, "repeats", 3, "telegrams")
	fs.Uint64Var(&o.Seed, "seed", 1, "noise seed")
	ext := fs.Uint("ext", 0, "24-bit extension (FDX-B, HDX)")
	pos, err := cmdline.ParseArgs(fs, args)
	if err != nil {
		return cmdline.Exit(2, nil)
	}
	if len(pos) != 1 {
		return cmdline.UsageError("trace synth: want one CODE\n%s", traceUsage)
	}
	if o.Repeats < 1 || o.Repeats > 1000 {
		return cmdline.UsageError("trace synth: --repeats %d out of 1..1000", o.Repeats)
	}
	if o.Duty <= 0 || o.Duty >= 1 || o.Noise < 0 || o.Drift <= -0.5 || o.Drift >= 0.5 {
		return cmdline.UsageError("trace synth: --duty in (0,1), --noise ≥ 0, --drift in (-0.5,0.5)")
	}
	var s []int16
	switch strings.ToLower(*proto) {
	case "fdxb", "fdx-b", "hdx":
		code, err := isoCode(pos[0])
		if err != nil {
			return cmdline.UsageError("trace synth: %v", err)
		}
		if strings.ToLower(*proto) == "hdx" {
			f := append(iso11785.EncodeHDX(code, uint32(*ext)), iso11785.HDXStartRO)
			s = synth.HDX(f, &o)
		} else {
			s = synth.FDXB(iso11785.EncodeFDXB(code, uint32(*ext)), &o)
		}
	case "fdxa", "fdx-a":
		id, err := chipid.FromFECAVA(pos[0])
		if err != nil {
			return cmdline.UsageError("trace synth: %v", err)
		}
		var a iso11785.FDXA
		if _, err := hex.Decode(a[:], []byte(id.Code)); err != nil {
			return cmdline.UsageError("trace synth: %v", err)
		}
		b, err := iso11785.EncodeFDXA(a)
		if err != nil {
			return cmdline.UsageError("trace synth: %v", err)
		}
		s = synth.FDXA(b, &o)
	default:
		return cmdline.UsageError("trace synth: unknown protocol %q", *proto)
	}
	if err := demod.WritePM3(e.Stdout, s); err != nil {
		return cmdline.Exit(1, err)
	}
	return nil
}

// isoCode reads a chip number with package chipid; a 15-digit number is
// an animal tag unless chipid knows the full flags.
func isoCode(text string) (iso11784.Code, error) {
	id, err := chipid.Parse(text, nil)
	if err != nil {
		return 0, err
	}
	if id.Kind != chipid.KindISO {
		return 0, fmt.Errorf("%q is not an ISO 11784 number: %w", text, errNotISO)
	}
	c := id.ISO
	if !id.Full {
		c = c.WithAnimal(true)
	}
	return c, nil
}

var errNotISO = errors.New("not ISO")
