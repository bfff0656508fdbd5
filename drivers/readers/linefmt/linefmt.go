package linefmt

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
)

// Spec describes a line format. Its fields carry toml and json names so
// it can sit in a configuration file as it is.
type Spec struct {
	// Name is the format's name, used as reader.Read.Format.
	Name string `toml:"name" json:"name"`
	// Pattern is a Go regular expression with named groups.
	Pattern string `toml:"pattern" json:"pattern"`
	// Fields maps a field (code, country, national, rev, protocol) to the
	// name of a group; a field not mapped uses the group of its own name.
	Fields map[string]string `toml:"fields" json:"fields,omitempty"`
	// Protocols maps the protocol group's text to an air protocol.
	Protocols map[string]reader.Air `toml:"protocols" json:"protocols,omitempty"`
	// Protocol is the air protocol of reads without a protocol group.
	Protocol reader.Air `toml:"protocol" json:"protocol,omitempty"`
	// Baud and Framing ("8N1", "7E2", ...) describe the line; Baud 0
	// leaves the port alone.
	Baud    int    `toml:"baud" json:"baud,omitempty"`
	Framing string `toml:"framing" json:"framing,omitempty"`
	// MaxLine is the longest line; 0 means 256.
	MaxLine int `toml:"max_line" json:"max_line,omitempty"`
	// Form is how the reader writes the code group (chipid.Form names:
	// "decimal", "hex64", "hex64-air", "fdxa", "trovan", "em4102");
	// "" reads any form and skips a line that is ambiguous.
	Form string `toml:"form" json:"form,omitempty"`
}

// Errors.
var (
	ErrSpec  = errors.New("linefmt: bad spec")
	ErrMatch = errors.New("linefmt: line does not match")
)

// Format is a compiled Spec: pure, usable to split and decode lines.
type Format struct {
	spec                                      Spec
	re                                        *regexp.Regexp
	code, country, national, rev, protocolIdx int
	mode                                      port.Mode
	form                                      chipid.Form
	max                                       int
	anchored                                  bool
}

// Compile checks s and compiles its pattern.
func Compile(s Spec) (*Format, error) {
	if s.Name == "" {
		return nil, fmt.Errorf("%w: no name", ErrSpec)
	}
	re, err := regexp.Compile(s.Pattern)
	if err != nil {
		return nil, fmt.Errorf("%w: pattern: %w", ErrSpec, err)
	}
	f := &Format{spec: s, re: re, max: s.MaxLine, anchored: strings.HasPrefix(s.Pattern, "^")}
	if f.max <= 0 {
		f.max = 256
	}
	for k := range s.Fields {
		switch k {
		case "code", "country", "national", "rev", "protocol":
		default:
			return nil, fmt.Errorf("%w: unknown field %q", ErrSpec, k)
		}
	}
	group := func(field string) (int, error) {
		name := field
		if g, ok := s.Fields[field]; ok {
			name = g
		}
		i := re.SubexpIndex(name)
		if i < 0 {
			if _, mapped := s.Fields[field]; mapped {
				return -1, fmt.Errorf("%w: field %s: no group %q in the pattern", ErrSpec, field, name)
			}
		}
		return i, nil
	}
	for _, g := range []struct {
		field string
		idx   *int
	}{{"code", &f.code}, {"country", &f.country}, {"national", &f.national}, {"rev", &f.rev}, {"protocol", &f.protocolIdx}} {
		if *g.idx, err = group(g.field); err != nil {
			return nil, err
		}
	}
	if f.code < 0 && (f.country < 0 || f.national < 0) && f.rev < 0 {
		return nil, fmt.Errorf("%w: the pattern needs a code group, country and national groups, or a rev group", ErrSpec)
	}
	if s.Baud < 0 {
		return nil, fmt.Errorf("%w: baud %d", ErrSpec, s.Baud)
	}
	f.mode, err = ParseFraming(s.Framing)
	if err != nil {
		return nil, err
	}
	f.mode.Baud = s.Baud
	if f.form, err = chipid.ParseForm(s.Form); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSpec, err)
	}
	return f, nil
}

// ParseFraming parses "8N1"-style framing; "" means 8N1.
func ParseFraming(s string) (port.Mode, error) {
	if s == "" {
		s = "8N1"
	}
	if len(s) != 3 || s[0] < '5' || s[0] > '8' || !strings.ContainsRune("NOEMS", rune(s[1])) || (s[2] != '1' && s[2] != '2') {
		return port.Mode{}, fmt.Errorf("%w: framing %q, want like 8N1", ErrSpec, s)
	}
	return port.Mode{DataBits: int(s[0] - '0'), Parity: port.Parity(s[1]), StopBits: int(s[2] - '0')}, nil
}

// Name returns the format's name.
func (f *Format) Name() string { return f.spec.Name }

// Mode returns the line's mode.
func (f *Format) Mode() port.Mode { return f.mode }

// Split cuts matching lines out of a byte stream (a readers.SplitFunc).
func (f *Format) Split(buf []byte) (int, error) { return readers.SplitLine(buf, f.max, f.match) }

// match finds where the pattern matches in line. An anchored pattern
// (^…) is also tried after each leading byte, so that noise before a
// line does not hide it.
func (f *Format) match(line []byte) (int, error) {
	for i := range line {
		if loc := f.re.FindIndex(line[i:]); loc != nil {
			return i + loc[0], nil
		}
		if !f.anchored {
			break
		}
	}
	return -1, nil
}

// Decode turns a line (with or without its line end) into a read.
func (f *Format) Decode(line []byte) (reader.Read, error) {
	b := readers.TrimEOL(line)
	m := f.re.FindSubmatch(b)
	if m == nil {
		return reader.Read{}, fmt.Errorf("%w: %q", ErrMatch, b)
	}
	get := func(i int) string {
		if i < 0 || i >= len(m) {
			return ""
		}
		return string(m[i])
	}
	r := reader.Read{Protocol: f.spec.Protocol}
	if p := get(f.protocolIdx); p != "" {
		if v, ok := f.spec.Protocols[p]; ok {
			r.Protocol = v
		}
	}
	switch {
	case get(f.code) != "":
		id, err := readers.ChipText(get(f.code), f.form)
		if err != nil {
			return reader.Read{}, fmt.Errorf("linefmt: %s: %w", f.spec.Name, err)
		}
		r.ID = id
	case get(f.country) != "" && get(f.national) != "":
		c, err1 := strconv.ParseUint(get(f.country), 10, 16)
		n, err2 := strconv.ParseUint(get(f.national), 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return reader.Read{}, fmt.Errorf("linefmt: %s: %w", f.spec.Name, err)
		}
		code, err := iso11784.New(uint16(min(c, 1<<16-1)), n, false)
		if err != nil {
			return reader.Read{}, fmt.Errorf("linefmt: %s: %w", f.spec.Name, err)
		}
		r.ID = readers.ChipISO(code)
	case get(f.rev) != "":
		v, err := strconv.ParseUint(get(f.rev), 16, 64)
		if err != nil || len(get(f.rev)) != 16 {
			return reader.Read{}, fmt.Errorf("linefmt: %s: rev %q is not 16 hex digits", f.spec.Name, get(f.rev))
		}
		code := iso11784.FromReversed(v)
		if err := code.Valid(); err != nil {
			return reader.Read{}, fmt.Errorf("linefmt: %s: %w", f.spec.Name, err)
		}
		r.ID = readers.ChipISO(code)
	default:
		return reader.Read{}, fmt.Errorf("%w: %s: no chip field matched in %q", ErrMatch, f.spec.Name, b)
	}
	return r, nil
}

// Protocol returns the format as a readers.Protocol, read by the generic
// readers.Dev; the reads' Format is the spec's name.
func (f *Format) Protocol() readers.Protocol {
	return readers.Protocol{
		Name: f.spec.Name, Summary: "configured line format: " + f.spec.Pattern, Mode: f.mode,
		Split: f.Split, Max: f.max + 2,
		Decode: func(b []byte) (reader.Read, bool, error) {
			r, err := f.Decode(b)
			return r, err == nil, err
		},
	}
}

// Opts configures New.
type Opts struct {
	// Spec describes the lines; it is required.
	Spec Spec
	// Now stamps reads; nil means time.Now.
	Now func() time.Time
}

// Dev is a reader whose lines a Spec describes: the generic device
// reading the format's Protocol.
type Dev = readers.Dev

// New reads lines of the format o.Spec describes from p, setting the
// spec's mode on p. There are no default options: o must not be nil.
func New(p port.Port, o *Opts) (*Dev, error) {
	if o == nil {
		return nil, fmt.Errorf("%w: no spec", ErrSpec)
	}
	f, err := Compile(o.Spec)
	if err != nil {
		return nil, err
	}
	return readers.Open(p, f.Protocol(), &readers.Opts{Mode: f.mode, Now: o.Now})
}
