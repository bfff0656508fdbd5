package tags

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/chipdesk/chipdesk/tags/check"
	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// Errors about designs.
var (
	// ErrInvalid: a design breaks a rule of Validate.
	ErrInvalid = errors.New("tags: invalid design")
	// ErrTooSimilar: a year's design does not differ visibly from the
	// previous year's (Minneapolis 64.30: the design changes each year).
	ErrTooSimilar = errors.New("tags: design does not differ from the previous year's")
	// ErrNoDesign: no valid design for that jurisdiction and year, so no
	// tag may be issued.
	ErrNoDesign = errors.New("tags: no valid design")
)

// Shape is the outline of a tag blank.
type Shape string

// Shapes.
const (
	Circle    Shape = "circle"
	Bone      Shape = "bone"
	Heart     Shape = "heart"
	Shield    Shape = "shield"
	Hexagon   Shape = "hexagon"
	RoundRect Shape = "rounded-rectangle"
)

// Shapes lists every Shape.
var shapes = []Shape{Circle, Bone, Heart, Shield, Hexagon, RoundRect}

// Kinds of tag.
const (
	KindLicence      = "licence"
	KindDangerousDog = "dangerous-dog"
)

// Color is an sRGB colour written "#rrggbb" in design files.
type Color struct{ R, G, B uint8 }

// RGBA implements color.Color.
func (c Color) RGBA() (r, g, b, a uint32) { return color.RGBA{c.R, c.G, c.B, 0xff}.RGBA() }

// String returns "#rrggbb".
func (c Color) String() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// MarshalText implements encoding.TextMarshaler.
func (c Color) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Color) UnmarshalText(b []byte) error {
	var r, g, bl uint8
	if len(b) != 7 || b[0] != '#' {
		return fmt.Errorf("%w: colour %q is not #rrggbb", ErrInvalid, b)
	}
	if _, err := fmt.Sscanf(string(b), "#%02x%02x%02x", &r, &g, &bl); err != nil {
		return fmt.Errorf("%w: colour %q is not #rrggbb", ErrInvalid, b)
	}
	*c = Color{r, g, bl}
	return nil
}

// luminance is the relative luminance (0-1) of c.
func (c Color) luminance() float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

func colorDistance(a, b Color) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

// Metal is the blank's material as previews show it.
type Metal struct {
	Name string `json:"name"` // e.g. "blue anodised aluminium"
	Fill Color  `json:"fill"` // colour of the blank
	Mark Color  `json:"mark"` // colour of engraved or stamped marks on it
}

// Hole is the ring hole, its centre in mm from the top left.
type Hole struct {
	X        float64 `json:"x_mm"`
	Y        float64 `json:"y_mm"`
	Diameter float64 `json:"diameter_mm"`
}

// Field is one line of text. Text may hold the placeholders {CITY},
// {SPECIES} (DOG, CAT or FERRET), {YEAR} and {NUMBER} (the register
// number, zero padded to the design's digits).
type Field struct {
	Text     string  `json:"text"`
	X        float64 `json:"x_mm"`         // anchor: centre of the line, or its left or right end
	Y        float64 `json:"y_mm"`         // baseline
	Cap      float64 `json:"cap_mm"`       // capital letter height
	MaxWidth float64 `json:"max_width_mm"` // text is narrowed to fit
	Align    string  `json:"align,omitempty"`
}

// box is the area the field may cover: its maximum width, from the cap
// height down to a descender of a quarter cap.
func (f Field) box() rect {
	x0 := f.X - f.MaxWidth/2
	switch f.Align {
	case "left":
		x0 = f.X
	case "right":
		x0 = f.X - f.MaxWidth
	}
	return rect{x0, f.Y - f.Cap, x0 + f.MaxWidth, f.Y + f.Cap/4}
}

// Code places the machine-readable symbol: a DataMatrix ECC 200 of the
// payload, or a QR of the payload as a URL under URLPrefix.
type Code struct {
	Symbology string  `json:"symbology"` // "datamatrix" (default) or "qr"
	X         float64 `json:"x_mm"`      // centre
	Y         float64 `json:"y_mm"`      // centre
	Module    float64 `json:"module_mm"` // module size
	URLPrefix string  `json:"url_prefix,omitempty"`
}

// Design is the look of one jurisdiction's tags for one licence year.
// Lengths are millimetres from the top left of the blank's bounding box,
// y downwards.
type Design struct {
	Jurisdiction string   `json:"jurisdiction"` // payload code, 2-6 letters
	Name         string   `json:"name"`         // city name for {CITY}
	Year         int      `json:"year"`         // licence year; 0 for a uniform design used every year
	Kind         string   `json:"kind"`         // "licence" or "dangerous-dog"
	Authority    string   `json:"authority"`    // the ordinance or rule the design implements
	Species      []string `json:"species"`      // e.g. ["dog","cat"]
	Shape        Shape    `json:"shape"`
	Width        float64  `json:"width_mm"`
	Height       float64  `json:"height_mm"`
	Corner       float64  `json:"corner_mm,omitempty"` // rounded rectangle corner radius
	Hole         Hole     `json:"hole"`
	Metal        Metal    `json:"metal"`
	Digits       int      `json:"number_digits"` // register number width; numbers have at most this many digits
	Fields       []Field  `json:"fields"`
	Code         Code     `json:"code"`
}

// ParseDesign reads a design file (JSON; unknown fields are errors).
func ParseDesign(data []byte) (*Design, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	d := new(Design)
	if err := dec.Decode(d); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if d.Code.Symbology == "" {
		d.Code.Symbology = "datamatrix"
	}
	return d, nil
}

// String names the design, e.g. "MPLS 2026 licence".
func (d *Design) String() string {
	y := "uniform"
	if d.Year != 0 {
		y = fmt.Sprint(d.Year)
	}
	return fmt.Sprintf("%s %s %s", d.Jurisdiction, y, d.Kind)
}

// MaxNumber is the largest register number the design has room for.
func (d *Design) MaxNumber() int {
	return min(int(math.Pow10(d.Digits))-1, check.MaxNumber)
}

// Outline returns the blank's outline as a closed polyline, flattened
// within tol mm.
func (d *Design) Outline(tol float64) toolpath.Polyline {
	w, h := d.Width, d.Height
	b := pathBuilder{tol: tol}
	P := func(x, y float64) pt { return pt{X: x * w, Y: y * h} }
	switch d.Shape {
	case Circle:
		return circle(pt{X: w / 2, Y: h / 2}, w/2, tol)
	case Hexagon: // pointed top, for the ring
		b.moveTo(P(0.5, 0))
		for _, p := range []pt{P(1, 0.25), P(1, 0.75), P(0.5, 1), P(0, 0.75), P(0, 0.25)} {
			b.lineTo(p)
		}
	case Shield:
		c := math.Min(w, h) * 0.08
		b.moveTo(pt{X: c, Y: 0})
		b.lineTo(pt{X: w - c, Y: 0})
		b.quadTo(pt{X: w, Y: 0}, pt{X: w, Y: c})
		b.lineTo(P(1, 0.45))
		b.cubeTo(P(1, 0.75), P(0.7, 0.9), P(0.5, 1))
		b.cubeTo(P(0.3, 0.9), P(0, 0.75), P(0, 0.45))
		b.lineTo(pt{X: 0, Y: c})
		b.quadTo(pt{X: 0, Y: 0}, pt{X: c, Y: 0})
	case Heart:
		b.moveTo(P(0.5, 0.24))
		b.cubeTo(P(0.6, 0), P(1, 0), P(1, 0.32))
		b.cubeTo(P(1, 0.6), P(0.7, 0.78), P(0.5, 1))
		b.cubeTo(P(0.3, 0.78), P(0, 0.6), P(0, 0.32))
		b.cubeTo(P(0, 0), P(0.4, 0), P(0.5, 0.24))
	case Bone: // lengthwise: two overlapping round lobes at each end of a shaft
		r, cyT, cyB, yt := 0.27*h, 0.27*h, 0.73*h, 0.32*h
		dx := math.Sqrt(r*r - (yt-cyT)*(yt-cyT))   // where the shaft meets a lobe
		ix := math.Sqrt(r*r - (h/2-cyT)*(h/2-cyT)) // where two lobes meet
		tl, bl, tr, br := pt{X: r, Y: cyT}, pt{X: r, Y: cyB}, pt{X: w - r, Y: cyT}, pt{X: w - r, Y: cyB}
		b.moveTo(pt{X: r + dx, Y: yt})
		b.lineTo(pt{X: w - r - dx, Y: yt})
		b.arcCW(tr, r, math.Atan2(yt-cyT, -dx), math.Atan2(h/2-cyT, ix))
		b.arcCW(br, r, math.Atan2(h/2-cyB, ix), math.Atan2(h-yt-cyB, -dx))
		b.lineTo(pt{X: r + dx, Y: h - yt})
		b.arcCW(bl, r, math.Atan2(h-yt-cyB, dx), math.Atan2(h/2-cyB, -ix))
		b.arcCW(tl, r, math.Atan2(h/2-cyT, -ix), math.Atan2(yt-cyT, dx))
	default: // RoundRect
		c := d.Corner
		if c <= 0 {
			c = math.Min(w, h) / 6
		}
		b.moveTo(pt{X: c, Y: 0})
		b.lineTo(pt{X: w - c, Y: 0})
		b.arc(pt{X: w - c, Y: c}, c, -math.Pi/2, 0)
		b.lineTo(pt{X: w, Y: h - c})
		b.arc(pt{X: w - c, Y: h - c}, c, 0, math.Pi/2)
		b.lineTo(pt{X: c, Y: h})
		b.arc(pt{X: c, Y: h - c}, c, math.Pi/2, math.Pi)
		b.lineTo(pt{X: 0, Y: c})
		b.arc(pt{X: c, Y: c}, c, math.Pi, 1.5*math.Pi)
	}
	b.close()
	return b.contours[0]
}

// Limits used by Validate.
const (
	minSize       = 15.0 // mm: smaller blanks cannot carry year, number and code legibly
	maxSize       = 60.0
	minCap        = 1.2  // mm: smallest legible engraved capital
	minModule     = 0.25 // mm: smallest DataMatrix module a fibre or diode laser marks reliably
	textMargin    = 0.5  // mm of blank left around text and codes
	holeMargin    = 1.0  // mm of metal around the ring hole
	minContrast   = 0.2  // luminance difference of marks against the blank
	minMove       = 2.0  // mm: smallest size change or move that counts as a visible change
	minColorShift = 60.0 // RGB distance that counts as a visible change of colour
)

// Validate checks the design's own rules and, when prev is not nil, that
// it differs visibly from prev, the same jurisdiction's design for the
// year before: a different shape, a different blank colour, a size
// change of at least 2 mm, or a different layout (the code or a text
// line moved by at least 2 mm, or a line added or removed). Minneapolis
// 64.30 wants the design changed each year; a uniform design (Year 0,
// the Minnesota dangerous-dog tag, Minn. R. 7417.0200) never changes
// and is checked without prev.
func (d *Design) Validate(prev *Design) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if !check.ValidJurisdiction(d.Jurisdiction) {
		bad("jurisdiction %q is not 2-6 letters A-Z", d.Jurisdiction)
	}
	if strings.TrimSpace(d.Name) == "" {
		bad("no name")
	}
	switch d.Kind {
	case KindLicence:
		if d.Year < check.MinYear || d.Year > check.MaxYear {
			bad("licence year %d outside %d-%d", d.Year, check.MinYear, check.MaxYear)
		}
	case KindDangerousDog:
		if d.Year != 0 {
			bad("the dangerous-dog tag is uniform (Minn. Stat. 347.51 subd. 7): year must be 0, not %d", d.Year)
		}
	default:
		bad("kind %q is not %q or %q", d.Kind, KindLicence, KindDangerousDog)
	}
	if len(d.Species) == 0 {
		bad("no species")
	}
	for _, s := range d.Species {
		if s != "dog" && s != "cat" && s != "ferret" {
			bad("species %q is not dog, cat or ferret", s)
		}
	}
	known := false
	for _, s := range shapes {
		known = known || s == d.Shape
	}
	if !known {
		bad("shape %q unknown", d.Shape)
	}
	if d.Width < minSize || d.Width > maxSize || d.Height < minSize || d.Height > maxSize {
		bad("size %gx%g mm outside %g-%g mm", d.Width, d.Height, minSize, maxSize)
	}
	if d.Shape == Circle && d.Width != d.Height {
		bad("circle %gx%g mm is not round", d.Width, d.Height)
	}
	if d.Digits < 1 || d.Digits > 9 {
		bad("number_digits %d outside 1-9", d.Digits)
	}
	if math.Abs(d.Metal.Mark.luminance()-d.Metal.Fill.luminance()) < minContrast {
		bad("marks %v on %v have too little contrast", d.Metal.Mark, d.Metal.Fill)
	}
	if len(errs) > 0 { // geometry below needs a sane blank
		return fmt.Errorf("%w: %v: %w", ErrInvalid, d, errors.Join(errs...))
	}

	outline := d.Outline(0.05)
	var boxes []rect
	var names []string
	hole := rect{d.Hole.X - d.Hole.Diameter/2, d.Hole.Y - d.Hole.Diameter/2, d.Hole.X + d.Hole.Diameter/2, d.Hole.Y + d.Hole.Diameter/2}
	if d.Hole.Diameter < 2 {
		bad("hole %g mm is too small for a ring", d.Hole.Diameter)
	} else if !rectInside(outline, hole, holeMargin) {
		bad("hole needs %g mm of metal around it inside the %s", holeMargin, d.Shape)
	}
	boxes, names = append(boxes, hole.grow(textMargin)), append(names, "hole")

	hasYear, hasNumber := false, false
	for i, f := range d.Fields {
		hasYear = hasYear || strings.Contains(f.Text, "{YEAR}")
		hasNumber = hasNumber || strings.Contains(f.Text, "{NUMBER}")
		if f.Cap < minCap {
			bad("field %d %q: capitals of %g mm are below %g mm", i, f.Text, f.Cap, minCap)
		}
		if f.MaxWidth <= 0 {
			bad("field %d %q: no max_width_mm", i, f.Text)
		}
		if f.Align != "" && f.Align != "left" && f.Align != "right" && f.Align != "center" {
			bad("field %d %q: align %q", i, f.Text, f.Align)
		}
		if err := checkTemplate(f.Text); err != nil {
			bad("field %d: %v", i, err)
		}
		if !rectInside(outline, f.box(), textMargin) {
			bad("field %d %q does not fit inside the %s", i, f.Text, d.Shape)
		}
		boxes, names = append(boxes, f.box()), append(names, fmt.Sprintf("field %d %q", i, f.Text))
	}
	if !hasNumber {
		bad("no field shows {NUMBER} (Minneapolis 64.30: the register number is stamped on the tag)")
	}
	if !hasYear && d.Kind == KindLicence {
		bad("no field shows {YEAR} (Minneapolis 64.30: the year registered is stamped on the tag)")
	}

	switch {
	case d.Code.Symbology != "datamatrix" && d.Code.Symbology != "qr":
		bad("code symbology %q is not datamatrix or qr", d.Code.Symbology)
	case d.Code.Module < minModule:
		bad("code module %g mm is below %g mm", d.Code.Module, minModule)
	case d.Code.Symbology == "qr" && d.Code.URLPrefix == "":
		bad("a QR code needs url_prefix")
	default:
		n, err := d.codeModules()
		if err != nil {
			bad("code: %v", err)
			break
		}
		box := d.codeBox(n)
		if !rectInside(outline, box, textMargin) {
			bad("code of %dx%d modules with its quiet zone does not fit inside the %s", n, n, d.Shape)
		}
		boxes, names = append(boxes, box), append(names, "code")
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			if boxes[i].overlaps(boxes[j]) {
				bad("%s overlaps %s", names[i], names[j])
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %v: %w", ErrInvalid, d, errors.Join(errs...))
	}
	if prev != nil && d.Year != 0 {
		if prev.Jurisdiction != d.Jurisdiction || prev.Kind != d.Kind || prev.Year >= d.Year {
			return fmt.Errorf("%w: %v: previous design is %v", ErrInvalid, d, prev)
		}
		if !d.differs(prev) {
			return fmt.Errorf("%w: %v looks like %v (change the shape, the colour, the size by %g mm or the layout)", ErrTooSimilar, d, prev, minMove)
		}
	}
	return nil
}

// differs reports whether d and p differ visibly.
func (d *Design) differs(p *Design) bool {
	switch {
	case d.Shape != p.Shape,
		colorDistance(d.Metal.Fill, p.Metal.Fill) >= minColorShift,
		math.Abs(d.Width-p.Width) >= minMove, math.Abs(d.Height-p.Height) >= minMove,
		math.Hypot(d.Code.X-p.Code.X, d.Code.Y-p.Code.Y) >= minMove,
		len(d.Fields) != len(p.Fields):
		return true
	}
	for i := range d.Fields {
		if math.Hypot(d.Fields[i].X-p.Fields[i].X, d.Fields[i].Y-p.Fields[i].Y) >= minMove {
			return true
		}
	}
	return false
}

func checkTemplate(s string) error {
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			return nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return fmt.Errorf("unclosed { in %q", s)
		}
		switch s[i : i+j+1] {
		case "{CITY}", "{SPECIES}", "{YEAR}", "{NUMBER}":
		default:
			return fmt.Errorf("unknown placeholder %s", s[i:i+j+1])
		}
		s = s[i+j+1:]
	}
}

// codeModules is the side in modules of the largest symbol the design
// can need (the widest number and the longest URL).
func (d *Design) codeModules() (int, error) {
	p := check.Payload{Jurisdiction: d.Jurisdiction, Year: 2099, Number: d.MaxNumber(), Code: "ZZZZZ"}
	m, err := encodeCode(d.Code, p)
	if err != nil {
		return 0, err
	}
	return m.n, nil
}

// quietModules is the quiet zone, in modules, kept clear around a
// symbol: 1 for DataMatrix (ISO/IEC 16022 §7.1 asks one module; we keep
// two, as decoders need it on metal), 4 for QR (ISO/IEC 18004 §6.3.8).
func (c Code) quietModules() int {
	if c.Symbology == "qr" {
		return 4
	}
	return 2
}

// codeBox is the area of an n-module symbol and its quiet zone.
func (d *Design) codeBox(n int) rect {
	half := (float64(n)/2 + float64(d.Code.quietModules())) * d.Code.Module
	return rect{d.Code.X - half, d.Code.Y - half, d.Code.X + half, d.Code.Y + half}
}
