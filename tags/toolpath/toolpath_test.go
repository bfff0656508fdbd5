package toolpath

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func square(x, y, s float64, clockwise bool) Polyline {
	p := Polyline{{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}, {x, y}}
	if !clockwise {
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
	}
	return p
}

func total(lines []Polyline) float64 {
	t := 0.0
	for _, l := range lines {
		t += l.Length()
	}
	return t
}

func TestHatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		contours []Polyline
		spacing  float64
		strokes  int
		length   float64
	}{
		{"square", []Polyline{square(0, 0, 10, true)}, 1, 10, 100},
		{"square with reversed hole (a glyph counter)", []Polyline{square(0, 0, 10, true), square(2, 2, 6, false)}, 1, 16, 100 - 36},
		{"overlapping same winding (non-zero: one area)", []Polyline{square(0, 0, 10, true), square(2, 2, 6, true)}, 1, 10, 100},
		{"two squares apart", []Polyline{square(0, 0, 2, true), square(5, 0, 2, true)}, 0.5, 8, 16},
		{"no spacing", []Polyline{square(0, 0, 10, true)}, 0, 0, 0},
	}
	for _, tt := range tests {
		got := Hatch(tt.contours, tt.spacing)
		if len(got) != tt.strokes || math.Abs(total(got)-tt.length) > 1e-9 {
			t.Errorf("%s: Hatch = %d strokes, %.3f mm, want %d, %.3f mm", tt.name, len(got), total(got), tt.strokes, tt.length)
		}
	}
	// Alternate directions: a boustrophedon.
	h := Hatch([]Polyline{square(0, 0, 4, true)}, 1)
	for i, s := range h {
		if (s[1].X > s[0].X) != (i%2 == 0) {
			t.Errorf("Hatch stroke %d runs %v, want alternating directions", i, s)
		}
	}
}

func TestOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	var lines []Polyline
	for i := 0; i < 2000; i++ {
		x, y := r.Float64()*100, r.Float64()*100
		if i%5 == 0 {
			lines = append(lines, square(x, y, 1, true))
			continue
		}
		lines = append(lines, Polyline{{x, y}, {x + r.Float64(), y + r.Float64()}})
	}
	in := &Job{Hatch: lines}
	before := in.Travel(Point{})
	out := &Job{Hatch: Order(lines, Point{})}
	after := out.Travel(Point{})
	if after > before/5 {
		t.Errorf("Order: travel %.0f mm, was %.0f mm, want at most a fifth", after, before)
	}
	if len(out.Hatch) != len(lines) || math.Abs(total(out.Hatch)-total(lines)) > 1e-6 {
		t.Errorf("Order changed the marks: %d lines %.3f mm, want %d, %.3f mm", len(out.Hatch), total(out.Hatch), len(lines), total(lines))
	}
	for _, p := range out.Hatch {
		if len(p) == 5 && !p.Closed() {
			t.Fatalf("Order opened a closed contour: %v", p)
		}
	}
}

func TestWriteSVG(t *testing.T) {
	t.Parallel()
	j := &Job{Width: 10, Height: 5, Outline: []Polyline{square(1, 1, 2, true)}, Hatch: []Polyline{{{1, 1.5}, {3, 1.5}}}}
	var b strings.Builder
	if err := j.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`viewBox="0 0 10 5"`, `d="M1 1L3 1L3 3L1 3Z"`, `d="M1 1.5L3 1.5"`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("WriteSVG = %s, want it to contain %s", b.String(), want)
		}
	}
}

func BenchmarkOrder(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var lines []Polyline
	for i := 0; i < 20000; i++ {
		x, y := r.Float64()*300, r.Float64()*200
		lines = append(lines, Polyline{{x, y}, {x + 1, y}})
	}
	for b.Loop() {
		Order(lines, Point{})
	}
}
