package brotherql

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"image"
	"image/color"
	"image/draw"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden job streams in testdata")

func testPicture(w, h int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for y := range h {
		for x := range w {
			if x < 4 || y < 4 || (x/16+y/16)%2 == 0 && x > w/2 {
				img.SetGray(x, y, color.Gray{})
			}
		}
	}
	return img
}

// TestJobLayout checks a QL-700 job against the documented stream:
// invalidate, ESC @, ESC i S, (no ESC i a on the QL-700), ESC i z,
// ESC i M, ESC i A, ESC i K, ESC i d, raster lines g 00 5A + 90 bytes,
// SUB (research notes §2.2).
func TestJobLayout(t *testing.T) {
	t.Parallel()
	mo, _ := LookupModel("QL-700")
	me, _ := LookupMedia("62")
	lines := make([][]byte, 3)
	for i := range lines {
		lines[i] = make([]byte, 90)
		lines[i][i] = 0x80
	}
	job, err := EncodeJob(mo, me, []Raster{{Lines: lines}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	want = append(want, make([]byte, 200)...)
	want = append(want, 0x1b, 0x40)                                            // ESC @
	want = append(want, 0x1b, 0x69, 0x53)                                      // ESC i S
	want = append(want, 0x1b, 0x69, 0x7a, 0xc6, 0x0a, 62, 0, 3, 0, 0, 0, 0, 0) // ESC i z: recover|quality|width|type, continuous, 62 mm, 3 lines, first page
	want = append(want, 0x1b, 0x69, 0x4d, 0x40)                                // ESC i M: auto cut
	want = append(want, 0x1b, 0x69, 0x41, 0x01)                                // ESC i A 1: cut every label
	want = append(want, 0x1b, 0x69, 0x4b, 0x08)                                // ESC i K: cut at end
	want = append(want, 0x1b, 0x69, 0x64, 35, 0)                               // ESC i d 35: continuous feed margin
	for _, l := range lines {
		want = append(want, 'g', 0, 90)
		want = append(want, l...)
	}
	want = append(want, 0x1a)
	if !bytes.Equal(job, want) {
		t.Errorf("EncodeJob(QL-700, 62) =\n%s\nwant\n%s", hex.Dump(job), hex.Dump(want))
	}
	if len(job) != 515 {
		t.Errorf("3-line QL-700 job is %d bytes, want 515", len(job))
	}
}

func TestJobGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, model, media string
		w, h               int
		pages              int
		o                  *JobOpts
	}{
		{"ql700_62", "QL-700", "62", 696, 160, 1, nil},
		{"ql820nwb_29x90", "QL-820NWB", "29x90", 306, 400, 1, nil},
		{"ql720nw_29_two_pages_nocut", "QL-720NW", "29", 306, 200, 2, &JobOpts{NoCut: true}},
		{"ql1060n_102", "QL-1060N", "102", 1164, 300, 1, &JobOpts{Fast: true}},
		{"ql500_38", "QL-500", "38", 413, 300, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mo, err := LookupModel(tt.model)
			if err != nil {
				t.Fatal(err)
			}
			me, err := LookupMedia(tt.media)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Rasterize(testPicture(tt.w, tt.h), mo, me, nil)
			if err != nil {
				t.Fatal(err)
			}
			pages := make([]Raster, tt.pages)
			for i := range pages {
				pages[i] = r
			}
			job, err := EncodeJob(mo, me, pages, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.name+".bin")
			if *update {
				if err := os.WriteFile(path, job, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(job, want) {
				t.Errorf("EncodeJob(%s, %s) differs from %s (%d vs %d bytes)", tt.model, tt.media, path, len(job), len(want))
			}
			// And it reads back.
			pj, err := ParseJob(job, mo.BytesPerLine)
			if err != nil {
				t.Fatalf("ParseJob: %v", err)
			}
			if len(pj.Pages) != tt.pages || pj.RasterMode != mo.ModeSetting || !pj.StatusRequest || pj.Invalidate != InvalidateLen {
				t.Errorf("ParseJob = %d pages, raster mode %v, status request %v, invalidate %d", len(pj.Pages), pj.RasterMode, pj.StatusRequest, pj.Invalidate)
			}
			for i, p := range pj.Pages {
				if !reflect.DeepEqual(p.Lines, r.Lines) {
					t.Errorf("page %d lines differ from the raster", i+1)
				}
				if p.Compressed != (mo.Compression && (tt.o == nil || !tt.o.NoCompression)) {
					t.Errorf("page %d compressed = %v on %s", i+1, p.Compressed, mo.Name)
				}
				if want := byte(min(i, 1)); p.Info.Page != want {
					t.Errorf("page %d: print information page byte %d, want %d", i+1, p.Info.Page, want)
				}
				if p.Last != (i == tt.pages-1) {
					t.Errorf("page %d: last = %v", i+1, p.Last)
				}
			}
		})
	}
}

func TestRasterize(t *testing.T) {
	t.Parallel()
	mo, _ := LookupModel("QL-820NWB")
	m29, _ := LookupMedia("29")
	// One black dot at the picture's left edge lands on bit 6+305 (mirrored,
	// after the 6-dot offset of 29 mm media); one at the right edge on bit 6.
	img := image.NewGray(image.Rect(0, 0, 306, 1))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	img.SetGray(0, 0, color.Gray{})
	img.SetGray(305, 0, color.Gray{})
	r, err := Rasterize(img, mo, m29, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lines) != mo.MinLines {
		t.Errorf("1-row picture gave %d lines, want the minimum %d", len(r.Lines), mo.MinLines)
	}
	want := make([]byte, 90)
	want[311/8] |= 0x80 >> (311 % 8)
	want[6/8] |= 0x80 >> (6 % 8)
	if !bytes.Equal(r.Lines[0], want) {
		t.Errorf("Rasterize line 0 = %x, want %x", r.Lines[0], want)
	}
	// Scaling: a 153-wide picture doubles to 306.
	half := testPicture(153, 100)
	r, err = Rasterize(half, mo, m29, nil)
	if err != nil {
		t.Fatal(err)
	}
	back := r.Image(mo, m29)
	if back.Bounds().Dy() != 200 || back.GrayAt(0, 50).Y != 0 || back.GrayAt(100, 100).Y != 0xff {
		t.Errorf("scaled raster: %v, dot (0,50) %d, (100,100) %d", back.Bounds(), back.GrayAt(0, 50).Y, back.GrayAt(100, 100).Y)
	}
	// Die-cut: too long is refused, shorter is padded to the label.
	dc, _ := LookupMedia("29x42")
	if _, err := Rasterize(testPicture(306, 426), mo, dc, nil); !errors.Is(err, ErrImage) {
		t.Errorf("Rasterize(426 rows on 29x42) = %v, want ErrImage", err)
	}
	r, err = Rasterize(testPicture(306, 100), mo, dc, nil)
	if err != nil || len(r.Lines) != dc.Lines {
		t.Errorf("Rasterize(100 rows on 29x42) = %d lines, %v, want %d", len(r.Lines), err, dc.Lines)
	}
	wide, _ := LookupMedia("102")
	if _, err := Rasterize(img, mo, wide, nil); !errors.Is(err, ErrMedia) {
		t.Errorf("Rasterize(102 mm on QL-820NWB) = %v, want ErrMedia", err)
	}
	if _, err := Rasterize(image.NewGray(image.Rectangle{}), mo, m29, nil); !errors.Is(err, ErrImage) {
		t.Errorf("Rasterize(empty) = %v, want ErrImage", err)
	}
}

// TestDither: a flat 25 % grey comes out as about a quarter black dots
// with error diffusion, and all white with a plain threshold.
func TestDither(t *testing.T) {
	t.Parallel()
	mo, _ := LookupModel("QL-720NW")
	me, _ := LookupMedia("62")
	img := image.NewGray(image.Rect(0, 0, 696, 200))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.Gray{Y: 192}), image.Point{}, draw.Src)
	count := func(r Raster) int {
		n := 0
		for _, l := range r.Lines[:200] {
			for _, b := range l {
				for ; b != 0; b &= b - 1 {
					n++
				}
			}
		}
		return n
	}
	r, err := Rasterize(img, mo, me, &RasterOpts{Dither: true})
	if err != nil {
		t.Fatal(err)
	}
	frac := float64(count(r)) / (696 * 200)
	if frac < 0.22 || frac > 0.28 {
		t.Errorf("dithered 25%% grey: %.3f black, want 0.22–0.28", frac)
	}
	r, err = Rasterize(img, mo, me, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(r); n != 0 {
		t.Errorf("thresholded light grey: %d black dots, want 0", n)
	}
}

func TestParseJobErrors(t *testing.T) {
	t.Parallel()
	mo, _ := LookupModel("QL-820NWB")
	me, _ := LookupMedia("62")
	job, err := EncodeJob(mo, me, []Raster{{Lines: [][]byte{make([]byte, 90), make([]byte, 90)}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"truncated", job[:len(job)-5]},
		{"no final print", job[:len(job)-1]},
		{"unknown command", append(bytes.Clone(job[:len(job)-1]), 0x07, 0x1a)},
		{"bytes after the end", append(bytes.Clone(job), 0x1b, 0x40)},
		{"line count differs", bytes.Replace(bytes.Clone(job), []byte{0x1b, 'i', 'z', 0xc6, 0x0a, 62, 0, 2}, []byte{0x1b, 'i', 'z', 0xc6, 0x0a, 62, 0, 3}, 1)},
	}
	for _, tt := range tests {
		if _, err := ParseJob(tt.in, 90); !errors.Is(err, ErrJob) {
			t.Errorf("%s: ParseJob = %v, want ErrJob", tt.name, err)
		}
	}
	if _, err := EncodeJob(mo, me, nil, nil); !errors.Is(err, ErrJob) {
		t.Errorf("EncodeJob(no pages) = %v, want ErrJob", err)
	}
	if _, err := EncodeJob(mo, me, []Raster{{Lines: [][]byte{make([]byte, 89)}}}, nil); !errors.Is(err, ErrJob) {
		t.Errorf("EncodeJob(89-byte line) = %v, want ErrJob", err)
	}
}

func FuzzParseJob(f *testing.F) {
	mo, _ := LookupModel("QL-820NWB")
	me, _ := LookupMedia("29")
	r, _ := Rasterize(testPicture(306, 20), mo, me, nil)
	job, _ := EncodeJob(mo, me, []Raster{{Lines: r.Lines[:20]}}, nil)
	f.Add(job)
	f.Add([]byte{0x1b, 'i', 'z', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'Z', 0x1a})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = NextCommand(b)
		_, _ = ParseJob(b, 90)
	})
}

// FuzzJobRoundTrip: random raster lines encode to a stream that parses
// back to the same lines, on a model with and one without PackBits.
func FuzzJobRoundTrip(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0xff, 0x12, 0x34}, uint8(3), false)
	f.Add(bytes.Repeat([]byte{0xaa}, 200), uint8(1), true)
	f.Fuzz(func(t *testing.T, seed []byte, pages uint8, wide bool) {
		model, media := "QL-720NW", "62"
		if wide {
			model, media = "QL-1050", "102"
		}
		mo, _ := LookupModel(model)
		me, _ := LookupMedia(media)
		n := len(seed)/8 + 1
		lines := make([][]byte, n)
		for i := range lines {
			lines[i] = make([]byte, mo.BytesPerLine)
			for k := range lines[i] {
				if len(seed) > 0 {
					lines[i][k] = seed[(i*7+k)%len(seed)] & byte(k*31+i)
				}
			}
		}
		np := int(pages%4) + 1
		ps := make([]Raster, np)
		for i := range ps {
			ps[i] = Raster{Lines: lines}
		}
		job, err := EncodeJob(mo, me, ps, nil)
		if err != nil {
			t.Fatal(err)
		}
		pj, err := ParseJob(job, mo.BytesPerLine)
		if err != nil {
			t.Fatalf("ParseJob(EncodeJob) = %v", err)
		}
		if len(pj.Pages) != np {
			t.Fatalf("%d pages back, want %d", len(pj.Pages), np)
		}
		for _, p := range pj.Pages {
			if !reflect.DeepEqual(p.Lines, lines) {
				t.Fatalf("lines differ after the round trip")
			}
		}
	})
}

func TestLookup(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"QL-820NWB", "ql-700", "1060N"} {
		if _, err := LookupModel(name); err != nil {
			t.Errorf("LookupModel(%q) = %v", name, err)
		}
	}
	if _, err := LookupModel("QL-9999"); !errors.Is(err, ErrModel) {
		t.Errorf("LookupModel(QL-9999) = %v, want ErrModel", err)
	}
	if m, ok := ModelByProductID(0x209d); !ok || m.Name != "QL-820NWB" {
		t.Errorf("ModelByProductID(0x209d) = %v, %v", m.Name, ok)
	}
	// Every model's head takes its narrow media; ids are unique.
	seen := map[uint16]string{}
	for _, m := range Models {
		if other, dup := seen[m.ProductID]; dup {
			t.Errorf("%s and %s share product id %#04x", m.Name, other, m.ProductID)
		}
		seen[m.ProductID] = m.Name
		me, _ := LookupMedia("62")
		if err := me.fits(m); err != nil {
			t.Errorf("62 mm on %s: %v", m.Name, err)
		}
	}
	for _, me := range Medias {
		if me.Offset+me.Dots > 1296 || (!me.Wide && me.Offset+me.Dots > 720) {
			t.Errorf("media %s: offset %d + %d dots past the head", me.ID, me.Offset, me.Dots)
		}
	}
}

// TestPrintInfoFlags: the ESC i z valid-flags byte for each kind of
// media, against the command reference's QL-700 example (0x8E, die-cut)
// as the package doc explains.
func TestPrintInfoFlags(t *testing.T) {
	t.Parallel()
	mo, err := LookupModel("QL-700")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		media string
		fast  bool
		want  byte
	}{
		{"62", false, 0xC6},    // continuous: no length bit, quality
		{"29x90", false, 0xCE}, // die-cut: the example's bits plus quality
		{"29x90", true, 0x8E},  // die-cut, fast: the documented example
		{"62", true, 0x86},
	} {
		me, err := LookupMedia(tt.media)
		if err != nil {
			t.Fatal(err)
		}
		lines := me.Lines
		if lines == 0 {
			lines = 200
		}
		r := Raster{Lines: make([][]byte, lines)}
		for i := range r.Lines {
			r.Lines[i] = make([]byte, mo.BytesPerLine)
		}
		b, err := EncodeJob(mo, me, []Raster{r}, &JobOpts{Fast: tt.fast})
		if err != nil {
			t.Fatal(err)
		}
		pj, err := ParseJob(b, mo.BytesPerLine)
		if err != nil || len(pj.Pages) != 1 {
			t.Fatalf("ParseJob = %v, %v", pj, err)
		}
		if got := pj.Pages[0].Info.Flags; got != tt.want {
			t.Errorf("media %s fast %v: flags %#02x, want %#02x", tt.media, tt.fast, got, tt.want)
		}
	}
}
