package tags

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/chipdesk/chipdesk/tags/check"
)

//go:embed designs/*.json
var embedded embed.FS

// Designs is the catalogue of tag designs: the files built into chipdesk
// (tags/designs) and, optionally, those of a local directory. Each
// design is validated against the same jurisdiction's design of the
// year before; an invalid design stays in the catalogue with its error,
// and no tag is issued from it.
type Designs struct {
	list []*Design
	errs map[*Design]error
}

// LoadDesigns reads the built-in designs and, when dir is not empty,
// every *.json file of dir; a design in dir replaces a built-in one of
// the same jurisdiction and year. Files that are not designs are
// errors; designs that break a rule are not (see Design and Check).
func LoadDesigns(dir string) (*Designs, error) {
	sub, err := fs.Sub(embedded, "designs")
	if err != nil {
		return nil, fmt.Errorf("tags: %w", err)
	}
	sets := []fs.FS{sub}
	if dir != "" {
		sets = append(sets, os.DirFS(dir))
	}
	return ParseDesigns(sets...)
}

// ParseDesigns reads the *.json files at the root of each file system;
// later ones replace earlier designs of the same jurisdiction and year.
func ParseDesigns(sets ...fs.FS) (*Designs, error) {
	type key struct {
		j    string
		year int
	}
	byKey := map[key]*Design{}
	for _, fsys := range sets {
		names, err := fs.Glob(fsys, "*.json")
		if err != nil {
			return nil, fmt.Errorf("tags: %w", err)
		}
		seen := map[key]string{}
		for _, name := range names {
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, fmt.Errorf("tags: %w", err)
			}
			d, err := ParseDesign(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			k := key{d.Jurisdiction, d.Year}
			if other, dup := seen[k]; dup {
				return nil, fmt.Errorf("%w: %s and %s are both %v", ErrInvalid, other, name, d)
			}
			seen[k] = name
			byKey[k] = d
		}
	}
	c := &Designs{errs: map[*Design]error{}}
	for _, d := range byKey {
		c.list = append(c.list, d)
	}
	sort.Slice(c.list, func(i, j int) bool {
		a, b := c.list[i], c.list[j]
		if a.Jurisdiction != b.Jurisdiction {
			return a.Jurisdiction < b.Jurisdiction
		}
		return a.Year < b.Year
	})
	for i, d := range c.list {
		var prev *Design
		if i > 0 && c.list[i-1].Jurisdiction == d.Jurisdiction {
			prev = c.list[i-1]
		}
		if err := d.Validate(prev); err != nil {
			c.errs[d] = err
		}
	}
	return c, nil
}

// All returns every design, by jurisdiction and year.
func (c *Designs) All() []*Design { return append([]*Design(nil), c.list...) }

// Err returns the validation error of d, a design of the catalogue, or
// nil when it is valid.
func (c *Designs) Err(d *Design) error { return c.errs[d] }

// Check returns the validation errors of all designs joined, or nil.
func (c *Designs) Check() error {
	var errs []error
	for _, d := range c.list {
		if err := c.errs[d]; err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Design returns the valid design for jurisdiction j and year: the
// design of that year, or the jurisdiction's uniform design. It returns
// ErrNoDesign when there is none, or the validation error.
func (c *Designs) Design(j string, year int) (*Design, error) {
	for _, d := range c.list {
		if d.Jurisdiction != j || (d.Year != year && d.Year != 0) {
			continue
		}
		if err := c.errs[d]; err != nil {
			return nil, fmt.Errorf("%w for %s %d: %w", ErrNoDesign, j, year, err)
		}
		return d, nil
	}
	return nil, fmt.Errorf("%w for %s %d", ErrNoDesign, j, year)
}

// Tag is one tag to make: a design, the licence year and an issued
// register number with its check code.
type Tag struct {
	Design  *Design
	Year    int
	Number  int
	Species string // "dog", "cat" or "ferret"
	Payload check.Payload
	// Development is set on a tag issued with the public development
	// keys (check.DevelopmentKeys): every rendering of it (preview,
	// SVG, ZPL label, raster label, engraving) carries DevMark.
	Development bool
}

// DevMark is what a tag made with the public development keys carries
// in place of its first line of text that names neither the year nor
// the number (else in place of the city's name, else before the first
// line): such a tag is no licence tag, and every print, engraving and
// preview of it says so.
const DevMark = "DEV KEYS"

// Fields are the lines of text the tag carries: the design's, marked
// with DevMark when the tag was made with the development keys. Every
// renderer draws these.
func (t *Tag) Fields() []Field {
	if !t.Development || len(t.Design.Fields) == 0 {
		return t.Design.Fields
	}
	fs := append([]Field(nil), t.Design.Fields...)
	for i, f := range fs {
		if !strings.Contains(f.Text, "{NUMBER}") && !strings.Contains(f.Text, "{YEAR}") {
			fs[i].Text = DevMark
			return fs
		}
	}
	for i, f := range fs {
		if strings.Contains(f.Text, "{CITY}") {
			fs[i].Text = strings.Replace(f.Text, "{CITY}", DevMark, 1)
			return fs
		}
	}
	fs[0].Text = DevMark + " " + fs[0].Text
	return fs
}

// ErrTag: the tag cannot be issued as asked.
var ErrTag = errors.New("tags: cannot issue tag")

// Issue makes the tag for register number of jurisdiction j and year,
// with its check code from keys. It fails without a valid design for
// that year (Minneapolis 64.30), for a number the design has no room
// for, and for a species the design does not license.
func (c *Designs) Issue(keys *check.Keyring, j string, year, number int, species string) (*Tag, error) {
	d, err := c.Design(j, year)
	if err != nil {
		return nil, err
	}
	return d.Issue(keys, year, number, species)
}

// Issue makes a tag of design d (see Designs.Issue); d should be valid.
func (d *Design) Issue(keys *check.Keyring, year, number int, species string) (*Tag, error) {
	if d.Year != 0 && d.Year != year {
		return nil, fmt.Errorf("%w: design %v is not for %d", ErrTag, d, year)
	}
	if number < 1 || number > d.MaxNumber() {
		return nil, fmt.Errorf("%w: number %d outside 1-%d for %v", ErrTag, number, d.MaxNumber(), d)
	}
	if species == "" {
		species = d.Species[0]
	}
	ok := false
	for _, s := range d.Species {
		ok = ok || s == species
	}
	if !ok {
		return nil, fmt.Errorf("%w: %v licenses %s, not %s", ErrTag, d, strings.Join(d.Species, ", "), species)
	}
	p, err := keys.Issue(d.Jurisdiction, year, number)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTag, err)
	}
	return &Tag{Design: d, Year: year, Number: number, Species: species, Payload: p, Development: keys.Development()}, nil
}

// Text returns s with the design's placeholders filled in.
func (t *Tag) Text(s string) string {
	return strings.NewReplacer(
		"{CITY}", strings.ToUpper(t.Design.Name),
		"{SPECIES}", strings.ToUpper(t.Species),
		"{YEAR}", fmt.Sprint(t.Year),
		"{NUMBER}", fmt.Sprintf("%0*d", t.Design.Digits, t.Number),
	).Replace(s)
}

// CodeText is the text the tag's 2D symbol carries: the payload, or for
// a QR design the payload as a URL.
func (t *Tag) CodeText() string { return codeText(t.Design.Code, t.Payload) }

// LinearText is the text of the Code 128 on a printed label: the year
// and the zero-padded number, all digits and of even length so that it
// packs into code set C (e.g. "2026001234").
func (t *Tag) LinearText() string {
	n := t.Design.Digits
	if (4+n)%2 == 1 {
		n++
	}
	return fmt.Sprintf("%04d%0*d", t.Year, n, t.Number)
}

// String names the tag, e.g. "MPLS 2026 licence 001234 (dog)".
func (t *Tag) String() string {
	return fmt.Sprintf("%s %d %s %0*d (%s)", t.Design.Jurisdiction, t.Year, t.Design.Kind, t.Design.Digits, t.Number, t.Species)
}
