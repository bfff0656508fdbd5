package tags

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
	"golang.org/x/image/vector"

	"github.com/chipdesk/chipdesk/tags/check"
	"github.com/chipdesk/chipdesk/tags/toolpath"
	"github.com/chipdesk/chipdesk/tags/zplgf"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// catalogue returns the built-in designs plus the test designs (a heart
// and a bone with a QR) of testdata/designs.
func catalogue(t testing.TB) *Designs {
	t.Helper()
	c, err := LoadDesigns("testdata/designs")
	if err != nil {
		t.Fatalf("LoadDesigns = %v", err)
	}
	if err := c.Check(); err != nil {
		t.Fatalf("Check = %v", err)
	}
	return c
}

func renderer(t testing.TB) *Renderer {
	t.Helper()
	r, err := NewRenderer(nil)
	if err != nil {
		t.Fatalf("NewRenderer = %v", err)
	}
	return r
}

// sample issues number 1234 (or n) of every design, with development keys.
func samples(t testing.TB, c *Designs) []*Tag {
	t.Helper()
	var tags []*Tag
	for _, d := range c.All() {
		year := d.Year
		if year == 0 {
			year = 2026
		}
		tag, err := d.Issue(check.DevelopmentKeys(), year, 1234, "")
		if err != nil {
			t.Fatalf("Issue(%v) = %v", d, err)
		}
		tags = append(tags, tag)
	}
	return tags
}

func fileName(t *Tag) string {
	return fmt.Sprintf("%s-%d-%s", strings.ToLower(t.Design.Jurisdiction), t.Design.Year, t.Design.Shape)
}

// decode reads the symbol of format inside r of img. Marks lighter than
// their background are read inverted, as direct-part-mark readers do.
func decode(img image.Image, r image.Rectangle, format gozxing.BarcodeFormat, inverted bool) (string, error) {
	crop := image.NewRGBA(r.Inset(-8))
	draw.Draw(crop, crop.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(crop, r, img, r.Min, draw.Over)
	src := gozxing.NewLuminanceSourceFromImage(crop)
	if inverted {
		src = gozxing.NewInvertedLuminanceSource(src)
	}
	bmp, err := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(src))
	if err != nil {
		return "", err
	}
	hints := map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true}
	var reader gozxing.Reader
	switch format {
	case gozxing.BarcodeFormat_DATA_MATRIX:
		// The detector first; the pure-symbol mode (the crop holds only
		// the symbol and its quiet zone) when it misses, as a handheld
		// reader tries several strategies.
		reader = datamatrix.NewDataMatrixReader()
		res, err := reader.Decode(bmp, hints)
		if err == nil {
			return res.GetText(), nil
		}
		hints[gozxing.DecodeHintType_PURE_BARCODE] = true
	case gozxing.BarcodeFormat_QR_CODE:
		reader = qrcode.NewQRCodeReader()
	default:
		reader = oned.NewCode128Reader()
	}
	res, err := reader.Decode(bmp, hints)
	if err != nil {
		return "", err
	}
	return res.GetText(), nil
}

func codeFormat(d *Design) gozxing.BarcodeFormat {
	if d.Code.Symbology == "qr" {
		return gozxing.BarcodeFormat_QR_CODE
	}
	return gozxing.BarcodeFormat_DATA_MATRIX
}

// codeRect is the symbol and its quiet zone in pixels at k px per mm.
func codeRect(t *testing.T, d *Design, k float64) image.Rectangle {
	n, err := d.codeModules()
	if err != nil {
		t.Fatal(err)
	}
	b := d.codeBox(n)
	return image.Rect(int(b.x0*k), int(b.y0*k), int(math.Ceil(b.x1*k)), int(math.Ceil(b.y1*k)))
}

// TestBuiltInDesigns: the shipped designs for Minneapolis and Chanhassen
// 2026 and 2027 and the Minnesota dangerous-dog tag are valid, each year
// differing from the one before (Minneapolis 64.30).
func TestBuiltInDesigns(t *testing.T) {
	t.Parallel()
	c, err := LoadDesigns("")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Fatalf("Check = %v", err)
	}
	for _, want := range []struct {
		j    string
		year int
		kind string
	}{{"MPLS", 2026, KindLicence}, {"MPLS", 2027, KindLicence}, {"CHAN", 2026, KindLicence}, {"CHAN", 2027, KindLicence}, {"MNDD", 2031, KindDangerousDog}} {
		d, err := c.Design(want.j, want.year)
		if err != nil || d.Kind != want.kind {
			t.Errorf("Design(%s, %d) = %v, %v, want a %s design", want.j, want.year, d, err, want.kind)
		}
	}
	for _, j := range []string{"MPLS", "CHAN"} {
		if _, err := c.Design(j, 2028); !errors.Is(err, ErrNoDesign) {
			t.Errorf("Design(%s, 2028) = %v, want %v", j, err, ErrNoDesign)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	c := catalogue(t)
	base, err := c.Design("MPLS", 2027)
	if err != nil {
		t.Fatal(err)
	}
	prev, _ := c.Design("MPLS", 2026)
	dd, _ := c.Design("MNDD", 2026)
	edit := func(d *Design, f func(*Design)) *Design {
		cp := *d
		cp.Fields = append([]Field(nil), d.Fields...)
		f(&cp)
		return &cp
	}
	tests := []struct {
		name   string
		design *Design
		prev   *Design
		err    error
	}{
		{"2027 differs from 2026", base, prev, nil},
		{"uniform dangerous-dog tag (Minn. R. 7417.0200)", dd, nil, nil},
		{"64.30 design unchanged from last year", edit(prev, func(d *Design) { d.Year = 2027 }), prev, ErrTooSimilar},
		{"64.30 colour change is enough", edit(prev, func(d *Design) { d.Year = 2027; d.Metal.Fill = Color{0xa3, 0x20, 0x2a} }), prev, nil},
		{"64.30 slight colour change is not", edit(prev, func(d *Design) { d.Year = 2027; d.Metal.Fill.R += 20 }), prev, ErrTooSimilar},
		{"64.30 layout change is enough", edit(prev, func(d *Design) {
			d.Year = 2027
			d.Fields[3], d.Fields[2] = d.Fields[2], d.Fields[3]
		}), prev, nil},
		{"previous design of another city", base, edit(prev, func(d *Design) { d.Jurisdiction = "CHAN" }), ErrInvalid},
		{"64.30 no register number", edit(base, func(d *Design) { d.Fields = d.Fields[:3] }), nil, ErrInvalid},
		{"64.30 no year", edit(base, func(d *Design) { d.Fields = append(d.Fields[:2], d.Fields[3]) }), nil, ErrInvalid},
		{"unknown shape", edit(base, func(d *Design) { d.Shape = "oval" }), nil, ErrInvalid},
		{"circle not round", edit(prev, func(d *Design) { d.Height = 30 }), nil, ErrInvalid},
		{"too small", edit(base, func(d *Design) { d.Width, d.Height = 12, 12 }), nil, ErrInvalid},
		{"hole outside", edit(base, func(d *Design) { d.Hole.Y = 0.5 }), nil, ErrInvalid},
		{"text outside", edit(base, func(d *Design) { d.Fields[3].Y = 33.5 }), nil, ErrInvalid},
		{"text over code", edit(base, func(d *Design) { d.Fields[2].Y = 21 }), nil, ErrInvalid},
		{"tiny text", edit(base, func(d *Design) { d.Fields[0].Cap = 0.8 }), nil, ErrInvalid},
		{"unknown placeholder", edit(base, func(d *Design) { d.Fields[0].Text = "{OWNER}" }), nil, ErrInvalid},
		{"module too small to engrave", edit(base, func(d *Design) { d.Code.Module = 0.1 }), nil, ErrInvalid},
		{"code too big", edit(base, func(d *Design) { d.Code.Module = 1 }), nil, ErrInvalid},
		{"QR without URL", edit(base, func(d *Design) { d.Code.Symbology = "qr" }), nil, ErrInvalid},
		{"marks invisible", edit(base, func(d *Design) { d.Metal.Mark = d.Metal.Fill }), nil, ErrInvalid},
		{"bad jurisdiction", edit(base, func(d *Design) { d.Jurisdiction = "mpls" }), nil, ErrInvalid},
		{"dangerous-dog tag with a year", edit(dd, func(d *Design) { d.Year = 2026 }), nil, ErrInvalid},
		{"species", edit(base, func(d *Design) { d.Species = []string{"horse"} }), nil, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := tt.design.Validate(tt.prev); !errors.Is(err, tt.err) {
				t.Errorf("Validate(%v) = %v, want %v", tt.prev, err, tt.err)
			}
		})
	}
}

// TestNoTagWithoutDesign: an invalid design for a year (here a 2027 copy
// of 2026, against Minneapolis 64.30) stops issuing for that year only.
func TestNoTagWithoutDesign(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data, err := os.ReadFile("designs/mpls-2026.json")
	if err != nil {
		t.Fatal(err)
	}
	copy27 := bytes.Replace(data, []byte(`"year": 2026`), []byte(`"year": 2027`), 1)
	if err := os.WriteFile(filepath.Join(dir, "mpls-2027.json"), copy27, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadDesigns(dir)
	if err != nil {
		t.Fatal(err)
	}
	keys := check.DevelopmentKeys()
	if _, err := c.Issue(keys, "MPLS", 2027, 1, "dog"); !errors.Is(err, ErrNoDesign) || !errors.Is(err, ErrTooSimilar) {
		t.Errorf("Issue(MPLS 2027) = %v, want %v and %v", err, ErrNoDesign, ErrTooSimilar)
	}
	if _, err := c.Issue(keys, "MPLS", 2026, 1, "dog"); err != nil {
		t.Errorf("Issue(MPLS 2026) = %v", err)
	}
	tests := []struct {
		name    string
		j       string
		year    int
		number  int
		species string
		err     error
	}{
		{"no design for the year", "CHAN", 2030, 1, "dog", ErrNoDesign},
		{"unknown city", "DLTH", 2026, 1, "dog", ErrNoDesign},
		{"number too wide", "CHAN", 2026, 1000000, "dog", ErrTag},
		{"number zero", "CHAN", 2026, 0, "dog", ErrTag},
		{"species not licensed", "CHAN", 2026, 5, "ferret", ErrTag},
	}
	for _, tt := range tests {
		if _, err := c.Issue(keys, tt.j, tt.year, tt.number, tt.species); !errors.Is(err, tt.err) {
			t.Errorf("%s: Issue(%s, %d, %d, %s) = %v, want %v", tt.name, tt.j, tt.year, tt.number, tt.species, err, tt.err)
		}
	}
	dupe := t.TempDir()
	os.WriteFile(filepath.Join(dupe, "a.json"), data, 0o644)
	os.WriteFile(filepath.Join(dupe, "b.json"), data, 0o644)
	if _, err := LoadDesigns(dupe); !errors.Is(err, ErrInvalid) {
		t.Errorf("LoadDesigns(two files for MPLS 2026) = %v, want %v", err, ErrInvalid)
	}
}

func TestTagText(t *testing.T) {
	t.Parallel()
	c := catalogue(t)
	tag, err := c.Issue(check.DevelopmentKeys(), "CHAN", 2026, 42, "cat")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{"{CITY}", "CHANHASSEN"},
		{"{SPECIES} LICENSE", "CAT LICENSE"},
		{"NO. {NUMBER} / {YEAR}", "NO. 000042 / 2026"},
	}
	for _, tt := range tests {
		if got := tag.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got, want := tag.LinearText(), "2026000042"; got != want {
		t.Errorf("LinearText() = %q, want %q", got, want)
	}
	if got := tag.CodeText(); got != tag.Payload.String() {
		t.Errorf("CodeText() = %q, want %q", got, tag.Payload)
	}
}

// TestPreviewDecodes: the PNG preview of every design carries a symbol
// that decodes to the issued payload, which verifies.
func TestPreviewDecodes(t *testing.T) {
	t.Parallel()
	c, r := catalogue(t), renderer(t)
	keys := check.DevelopmentKeys()
	for _, tag := range samples(t, c) {
		d := tag.Design
		for _, dpi := range []float64{200, 600} {
			img, err := r.Image(tag, dpi)
			if err != nil {
				t.Fatal(err)
			}
			inverted := d.Metal.Mark.luminance() > d.Metal.Fill.luminance()
			got, err := decode(img, codeRect(t, d, dpi/25.4), codeFormat(d), inverted)
			if err != nil || got != tag.CodeText() {
				t.Errorf("%v at %g dpi: decoded %q, %v, want %q", tag, dpi, got, err, tag.CodeText())
				continue
			}
			if p, err := keys.Verify(got); err != nil || p != tag.Payload {
				t.Errorf("Verify(%q) = %v, %v", got, p, err)
			}
		}
	}
}

// TestGolden compares previews at 150 dpi with testdata/golden/*.png
// (go test -update rewrites them) and the MPLS 2026 SVG and ZPL with
// their golden text. The goldens are the designs as a county's own keys
// render them: without the development mark (TestDevMark).
func TestGolden(t *testing.T) {
	t.Parallel()
	c, r := catalogue(t), renderer(t)
	for _, tag := range samples(t, c) {
		tag.Development = false
		img, err := r.Image(tag, 150)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join("testdata", "golden", fileName(tag)+".png")
		if *update {
			var b bytes.Buffer
			png.Encode(&b, img)
			writeGolden(t, name, b.Bytes())
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatalf("%v (run go test -update to make it)", err)
		}
		want, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if n := differentPixels(img, want); n > img.Bounds().Dx()*img.Bounds().Dy()/200 {
			t.Errorf("Image(%v, 150) differs from %s in %d pixels", tag, name, n)
		}
	}
	mpls, _ := c.Issue(check.DevelopmentKeys(), "MPLS", 2026, 1234, "dog")
	mpls.Development = false
	var svg bytes.Buffer
	if err := r.SVG(&svg, mpls); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(svg.Bytes(), new(struct{})); err != nil {
		t.Errorf("SVG is not well-formed XML: %v", err)
	}
	label, err := r.ZPL(mpls, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"mpls-2026.svg": svg.Bytes(), "mpls-2026.zpl": label.ZPL} {
		name = filepath.Join("testdata", "golden", name)
		if *update {
			writeGolden(t, name, got)
			continue
		}
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (run go test -update to make it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("output differs from %s (go test -update rewrites it)", name)
		}
	}
}

func writeGolden(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func differentPixels(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			c1 := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			c2 := color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
			if absDiff(c1.R, c2.R) > 8 || absDiff(c1.G, c2.G) > 8 || absDiff(c1.B, c2.B) > 8 || absDiff(c1.A, c2.A) > 8 {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestZPLOracle renders each tag's ZPL with the npm package
// zpl-renderer-js (zebrash) and reads its Code 128 and DataMatrix back
// with gozxing.
func TestZPLOracle(t *testing.T) {
	t.Parallel()
	modules := nodeModules(t)
	c, r := catalogue(t), renderer(t)
	type job struct {
		ZPL    string  `json:"zpl"`
		Width  float64 `json:"width_mm"`
		Height float64 `json:"height_mm"`
		Dpmm   int     `json:"dpmm"`
	}
	var tags []*Tag
	var labels []*Label
	var jobs []job
	for _, tag := range samples(t, c) {
		for _, dpmm := range []int{8, 12} {
			l, err := r.ZPL(tag, &ZPLOpts{Dpmm: dpmm, Margin: 2})
			if err != nil {
				t.Fatal(err)
			}
			if bytes.IndexByte(l.ZPL, '!') >= 0 {
				t.Errorf("ZPL of %v holds '!' (^GFA shorthand renderers disagree on)", tag)
			}
			tags, labels = append(tags, tag), append(labels, l)
			jobs = append(jobs, job{string(l.ZPL), l.Width, l.Height, l.Dpmm})
		}
	}
	in, _ := json.Marshal(jobs)
	cmd := exec.Command("node", filepath.Join("testdata", "zplrender.js"), modules)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node zplrender.js: %v: %s", err, stderr.Bytes())
	}
	var pngs []string
	if err := json.Unmarshal(out, &pngs); err != nil || len(pngs) != len(labels) {
		t.Fatalf("zplrender.js gave %d images, %v; want %d", len(pngs), err, len(labels))
	}
	keys := check.DevelopmentKeys()
	for i, b64 := range pngs {
		tag, l := tags[i], labels[i]
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if *update && l.Dpmm == 8 {
			writeGolden(t, filepath.Join("testdata", "golden", fileName(tag)+".zpl.png"), raw)
		}
		if got, err := decode(img, l.Linear, gozxing.BarcodeFormat_CODE_128, false); err != nil || got != tag.LinearText() {
			t.Errorf("%v at %d dots/mm: Code 128 read %q, %v, want %q", tag, l.Dpmm, got, err, tag.LinearText())
		}
		area := l.Code
		if tag.Design.Code.Symbology == "qr" {
			area = img.Bounds() // ^BQ places the symbol a little below ^FO; the QR finder copes with a whole label
		}
		got, err := decode(img, area, codeFormat(tag.Design), false)
		if err != nil || got != tag.CodeText() {
			t.Errorf("%v at %d dots/mm: %s read %q, %v, want %q", tag, l.Dpmm, tag.Design.Code.Symbology, got, err, tag.CodeText())
			continue
		}
		if p, err := keys.Verify(got); err != nil || p.Number != tag.Number {
			t.Errorf("Verify(%q) = %v, %v, want number %d", got, p, err, tag.Number)
		}
	}
}

// nodeModules finds the repository's .tools/node/node_modules holding
// zpl-renderer-js and checks node runs; without them the test skips,
// or fails when CI is set.
func nodeModules(t *testing.T) string {
	t.Helper()
	missing := func(why string) {
		msg := "ZPL oracle unavailable: " + why + " (npm install --prefix .tools/node zpl-renderer-js@3.4.0)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node not found")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			missing("no go.mod above the test")
		}
		dir = parent
	}
	modules := filepath.Join(dir, ".tools", "node", "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "zpl-renderer-js", "package.json")); err != nil {
		missing(err.Error())
	}
	return modules
}

func TestZPL(t *testing.T) {
	t.Parallel()
	c, r := catalogue(t), renderer(t)
	tag, _ := c.Issue(check.DevelopmentKeys(), "MNDD", 2026, 77, "dog")
	l, err := r.ZPL(tag, &ZPLOpts{Dpmm: 12, Margin: 3, Copies: 2})
	if err != nil {
		t.Fatal(err)
	}
	z := string(l.ZPL)
	for _, want := range []string{"^XA", "^CI28", "^BXN,5,200,18,18^FD" + tag.CodeText() + "^FS", "^BCN,", "^FD>;2026000077^FS", "^PQ2", "^XZ"} {
		if !strings.Contains(z, want) {
			t.Errorf("ZPL lacks %q:\n%s", want, z)
		}
	}
	// The outline graphic decodes and is black on the blank's edge only.
	i := strings.Index(z, "^GFA")
	gfa, err := zplgf.Decode([]byte(z[i : i+strings.Index(z[i:], "^FS")]))
	if err != nil {
		t.Fatalf("zplgf.Decode(outline) = %v", err)
	}
	black := 0
	for _, b := range gfa.Pix {
		for ; b != 0; b &= b - 1 {
			black++
		}
	}
	// Two circles (blank and hole) 3 dots wide: about 3*pi*(38.1+3.5)*12 dots.
	if want := 3 * math.Pi * (38.1 + 3.5) * 12; math.Abs(float64(black)-want) > want/5 {
		t.Errorf("outline has %d black dots, want about %.0f", black, want)
	}
	if _, err := r.ZPL(tag, &ZPLOpts{Dpmm: 7}); err == nil {
		t.Error("ZPL(7 dots/mm) = nil error")
	}
	if got := zplEscape("A^B~C_D"); got != "A_5EB_7EC_5FD" {
		t.Errorf("zplEscape = %q", got)
	}
}

// TestPaths: the engraving stays on the blank, its contours are closed,
// the hatch covers about the marked area, and the DataMatrix drawn from
// the outline contours alone decodes.
func TestPaths(t *testing.T) {
	t.Parallel()
	c, r := catalogue(t), renderer(t)
	for _, tag := range samples(t, c) {
		d := tag.Design
		j, err := r.Paths(tag)
		if err != nil {
			t.Fatal(err)
		}
		if len(j.Cut) != 2 || len(j.Outline) == 0 || len(j.Hatch) == 0 {
			t.Fatalf("Paths(%v) = %d cut, %d outline, %d hatch lines", tag, len(j.Cut), len(j.Outline), len(j.Hatch))
		}
		blank := d.Outline(0.01)
		for _, set := range [][]toolpath.Polyline{j.Outline, j.Hatch} {
			for _, p := range set {
				for _, q := range p {
					if !inside(blank, q) {
						t.Fatalf("Paths(%v): point %v is off the blank", tag, q)
					}
				}
			}
		}
		for _, p := range j.Outline {
			if !p.Closed() {
				t.Fatalf("Paths(%v): outline %v is not closed", tag, p)
			}
		}
		// Hatch length × spacing ≈ marked area (raster of the outlines).
		const dpi = 600
		k := dpi / 25.4
		w, h := int(math.Ceil(d.Width*k)), int(math.Ceil(d.Height*k))
		z := vector.NewRasterizer(w, h)
		for _, p := range j.Outline {
			addPoly(z, p, k, 0, 0)
		}
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
		z.Draw(img, img.Bounds(), image.Black, image.Point{})
		dark := 0
		for i := 0; i < len(img.Pix); i += 4 {
			if img.Pix[i] < 128 {
				dark++
			}
		}
		area := float64(dark) / (k * k)
		hatched := 0.0
		for _, p := range j.Hatch {
			hatched += p.Length() * DefaultOpts.Hatch
		}
		if math.Abs(hatched-area) > 0.1*area {
			t.Errorf("Paths(%v): hatch covers %.1f mm², marks are %.1f mm²", tag, hatched, area)
		}
		got, err := decode(img, codeRect(t, d, k), codeFormat(d), false)
		if err != nil || got != tag.CodeText() {
			t.Errorf("Paths(%v): code drawn from the outlines reads %q, %v, want %q", tag, got, err, tag.CodeText())
		}
	}
}

// TestCustomFont: any TrueType font can set the text.
func TestCustomFont(t *testing.T) {
	t.Parallel()
	if _, err := NewRenderer(&Opts{Font: []byte("not a font")}); err == nil {
		t.Error("NewRenderer(bad font) = nil error")
	}
	c := catalogue(t)
	tag, _ := c.Issue(check.DevelopmentKeys(), "MPLS", 2026, 1, "dog")
	mono, err := NewRenderer(&Opts{Font: gomonoTTF()})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := renderer(t).Paths(tag)
	b, err := mono.Paths(tag)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Outline) == len(b.Outline) && a.Outline[0][0] == b.Outline[0][0] {
		t.Error("Paths with Go Mono look like Go Bold")
	}
}

func TestNoHatch(t *testing.T) {
	t.Parallel()
	r, err := NewRenderer(&Opts{Hatch: -1})
	if err != nil {
		t.Fatal(err)
	}
	tag, _ := catalogue(t).Issue(check.DevelopmentKeys(), "CHAN", 2027, 9, "dog")
	j, err := r.Paths(tag)
	if err != nil || len(j.Hatch) != 0 || len(j.Outline) == 0 {
		t.Errorf("Paths without hatch = %d hatch, %d outline lines, %v", len(j.Hatch), len(j.Outline), err)
	}
}

func TestLayout(t *testing.T) {
	t.Parallel()
	c, r := catalogue(t), renderer(t)
	keys := check.DevelopmentKeys()
	var tags []*Tag
	for n := 1; n <= 25; n++ {
		tag, err := c.Issue(keys, "CHAN", 2026, n, "dog")
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, tag)
	}
	l := Layout{Width: 150, Height: 100, Margin: 5, Gap: 2}
	sheets, err := l.Place(tags)
	if err != nil {
		t.Fatal(err)
	}
	// 36x24 mm tags: 3 columns and 3 rows on 150x100 mm.
	if len(sheets) != 3 || len(sheets[0].Tags) != 9 || len(sheets[2].Tags) != 7 {
		t.Fatalf("Place(25 tags) = %d sheets", len(sheets))
	}
	s := sheets[0]
	for i, p := range s.Tags {
		if p.X < l.Margin || p.Y < l.Margin || p.X+36 > l.Width-l.Margin+1e-9 || p.Y+24 > l.Height-l.Margin+1e-9 {
			t.Errorf("tag %d at %g,%g is off the sheet", i, p.X, p.Y)
		}
		if i > 0 {
			q := s.Tags[i-1]
			if d := math.Hypot(p.X-q.X, p.Y-q.Y); d > 38.1 {
				t.Errorf("tag %d is %g mm from tag %d, want a neighbour (serpentine order)", i, d, i-1)
			}
		}
	}
	j, err := r.SheetPaths(s)
	if err != nil {
		t.Fatal(err)
	}
	// Row by row in one direction only would travel further.
	naive := &toolpath.Job{}
	for i := range s.Tags {
		p := s.Tags[i]
		col, row := i%3, i/3
		tj, _ := r.Paths(p.Tag)
		naive.Append(tj, l.Margin+float64(col)*38, l.Margin+float64(row)*26)
	}
	if got, naiveT := j.Travel(toolpath.Point{}), naive.Travel(toolpath.Point{}); got >= naiveT {
		t.Errorf("SheetPaths travel %.0f mm, want less than unordered %.0f mm", got, naiveT)
	}
	img, err := r.SheetImage(s, 100)
	if err != nil || img.Bounds().Dx() != 591 {
		t.Errorf("SheetImage = %v, %v", img.Bounds(), err)
	}
	if _, err := (Layout{Width: 20, Height: 20}).Place(tags); !errors.Is(err, ErrLayout) {
		t.Errorf("Place on a 20 mm plate = %v, want %v", err, ErrLayout)
	}
}

// TestImports: package tags and its subpackages use only the standard
// library, reader, golang.org/x/image and boombuler/barcode.
func TestImports(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out, err := exec.Command(goBin, "list", "-f", `{{join .Imports "\n"}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if !strings.Contains(strings.Split(p, "/")[0], ".") {
			continue // standard library
		}
		ok := false
		for _, allowed := range []string{"github.com/chipdesk/chipdesk/tags", "github.com/chipdesk/chipdesk/reader", "golang.org/x/image/", "github.com/boombuler/barcode"} {
			ok = ok || strings.HasPrefix(p, allowed)
		}
		if !ok {
			t.Errorf("tags depends on %s", p)
		}
	}
}

func FuzzParseDesign(f *testing.F) {
	for _, name := range []string{"designs/mpls-2026.json", "designs/mn-dangerous-dog.json", "testdata/designs/test-2027.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseDesign(data)
		if err != nil {
			return
		}
		d.Validate(nil) // must not panic
		again, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		d2, err := ParseDesign(again)
		if err != nil {
			t.Fatalf("ParseDesign(%s) = %v", again, err)
		}
		if again2, _ := json.Marshal(d2); !bytes.Equal(again, again2) {
			t.Fatalf("round trip changed the design:\n%s\n%s", again, again2)
		}
	})
}

// TestConcurrent: one Renderer serves many goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	t.Parallel()
	c, r := catalogue(t), renderer(t)
	tags := samples(t, c)
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func() {
			tag := tags[i%len(tags)]
			_, err := r.Paths(tag)
			if err == nil {
				_, err = r.ZPL(tag, nil)
			}
			if err == nil {
				_, err = r.Image(tag, 100)
			}
			done <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestDevMark: a tag issued with the public development keys carries
// DevMark on every rendering (preview, SVG, ZPL label, raster label and
// engraving), in place of its first line, and its symbol still reads;
// the same tag unmarked does not carry it.
func TestDevMark(t *testing.T) {
	t.Parallel()
	c, r := catalogue(t), renderer(t)
	for _, tag := range samples(t, c) {
		if !tag.Development {
			t.Fatalf("%v issued with the development keys is not marked Development", tag)
		}
		plain := *tag
		plain.Development = false
		fs := tag.Fields()
		if !slices.ContainsFunc(fs, func(f Field) bool { return strings.Contains(f.Text, DevMark) }) {
			t.Errorf("%v: fields %+v carry no %q", tag, fs, DevMark)
		}
		// ZPL: the mark is a text field of the label.
		l, err := r.ZPL(tag, nil)
		if err != nil {
			t.Fatal(err)
		}
		pl, err := r.ZPL(&plain, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(l.ZPL, []byte("^FD"+DevMark)) || bytes.Contains(pl.ZPL, []byte(DevMark)) {
			t.Errorf("%v: ZPL carries the mark %v, the plain one %v", tag, bytes.Contains(l.ZPL, []byte(DevMark)), bytes.Contains(pl.ZPL, []byte(DevMark)))
		}
		// Preview, SVG and the raster label differ from the plain tag's,
		// and the symbol of the marked preview still reads.
		img, err := r.Image(tag, 300)
		if err != nil {
			t.Fatal(err)
		}
		pimg, err := r.Image(&plain, 300)
		if err != nil {
			t.Fatal(err)
		}
		if differentPixels(img, pimg) == 0 {
			t.Errorf("%v: the preview is the same marked and plain", tag)
		}
		var svg, psvg bytes.Buffer
		if err := r.SVG(&svg, tag); err != nil {
			t.Fatal(err)
		}
		if err := r.SVG(&psvg, &plain); err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(svg.Bytes(), psvg.Bytes()) {
			t.Errorf("%v: the SVG is the same marked and plain", tag)
		}
		ras, err := r.Artwork(tag).Raster(12, 62)
		if err != nil {
			t.Fatal(err)
		}
		pras, err := r.Artwork(&plain).Raster(12, 62)
		if err != nil {
			t.Fatal(err)
		}
		if differentPixels(ras, pras) == 0 {
			t.Errorf("%v: the raster label is the same marked and plain", tag)
		}
		// Engraving: the mark's glyphs are engraved (more outline).
		j, err := r.Paths(tag)
		if err != nil {
			t.Fatal(err)
		}
		pj, err := r.Paths(&plain)
		if err != nil {
			t.Fatal(err)
		}
		if len(j.Outline) == len(pj.Outline) && len(j.Hatch) == len(pj.Hatch) {
			t.Errorf("%v: the engraving is the same marked and plain", tag)
		}
	}
}
