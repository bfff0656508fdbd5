package grbl

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/engravers"
)

func TestProgram(t *testing.T) {
	t.Parallel()
	j := engravers.Job{
		Paths: []engravers.Path{
			{pt(0, 0), pt(10, 0), pt(10, 5.25)},
			{pt(3, 0)}, // a single point: skipped
			{pt(-1.0004, 2.5), pt(20.1236, 2.5)},
		},
		Power: 0.35, Speed: 600, Passes: 2,
	}
	want := []string{
		"G21 G90 G94 F600", "M5 S0", "M4 S350",
		"G0 X0 Y0", "G1 X10 Y0 F600", "G1 X10 Y5.25",
		"G0 X-1 Y2.5", "G1 X20.124 Y2.5 F600",
		"G0 X0 Y0", "G1 X10 Y0 F600", "G1 X10 Y5.25",
		"G0 X-1 Y2.5", "G1 X20.124 Y2.5 F600",
		"M5 S0", "G0 X0 Y0",
	}
	got, err := Program(j, 1000)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Program(%+v, 1000) = %q, %v, want %q", j, got, err, want)
	}
	got, err = Program(engravers.Job{Paths: j.Paths[:1], Power: 0.0001, Speed: 1}, 255)
	if err != nil || got[2] != "M4 S1" {
		t.Errorf("Program(tiny power) = %q, %v, want M4 S1 (never S0 while marking)", got, err)
	}
	if _, err := Program(engravers.Job{Power: 2, Speed: 1}, 1000); !errors.Is(err, engravers.ErrJob) {
		t.Errorf("Program(power 2) = %v, want ErrJob", err)
	}
	if _, err := Program(j, 0); err == nil {
		t.Error("Program(maxS 0) = nil error, want an error")
	}
}

func TestCheckLine(t *testing.T) {
	t.Parallel()
	long := "G1 X1" + string(make([]byte, 80))
	tests := []struct {
		name string
		line string
		rx   int
		ok   bool
	}{
		{"plain", "G1 X1 Y2", 127, true},
		{"79 characters", string(bytesOf('X', 79)), 127, true},
		{"80 characters: error:11 on grbl", string(bytesOf('X', 80)), 127, false},
		{"longer than the buffer", "G1 X1 Y2", 8, false},
		{"LF inside", "G1\nX1", 127, false},
		{"real-time ? inside", "G1 X1?", 127, false},
		{"feed hold inside", "M5!", 127, false},
		{"soft reset inside", "M5\x18", 127, false},
		{"override byte", "M5\x91", 127, false},
		{"NULs", long, 127, false},
	}
	for _, tt := range tests {
		if err := checkLine(tt.line, tt.rx); (err == nil) != tt.ok {
			t.Errorf("%s: checkLine(%q, %d) = %v, want ok=%v", tt.name, tt.line, tt.rx, err, tt.ok)
		}
	}
}

func bytesOf(c byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return b
}

func pt(x, y float64) engravers.Point { return engravers.Point{X: x, Y: y} }

func TestNeedsSync(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want bool
	}{
		{"$32=1", true}, {"$X", true}, {"$$", true}, {"$N0=G21", true},
		{"G10 L2 P1 X0", true}, {"g10l20p1x0", true}, {"G28.1", true}, {"G30.1", true},
		{"G1 X10 F100", false}, {"M4 S100", false}, {"G10 X1", false}, {"G28", false},
	}
	for _, tt := range tests {
		if got := NeedsSync(tt.line); got != tt.want {
			t.Errorf("NeedsSync(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestFrameProgram(t *testing.T) {
	t.Parallel()
	j := engravers.Job{Paths: []engravers.Path{{pt(2, 2), pt(8, 3)}}, Power: 0.5, Speed: 600}
	got, err := FrameProgram(j, 3000)
	want := []string{"G21 G90", "M5 S0", "G0 X2 Y2", "G1 X8 Y2 F3000", "G1 X8 Y3", "G1 X2 Y3", "G1 X2 Y2", "G0 X0 Y0"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("FrameProgram(bounds) = %q, %v, want %q", got, err, want)
	}
	j.Outline = engravers.Path{pt(0, 0), pt(10, 0), pt(5, 8), pt(0, 0)}
	got, err = FrameProgram(j, 3000)
	want = []string{"G21 G90", "M5 S0", "G0 X0 Y0", "G1 X10 Y0 F3000", "G1 X5 Y8", "G1 X0 Y0", "G0 X0 Y0"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("FrameProgram(outline) = %q, %v, want %q", got, err, want)
	}
	if _, err := FrameProgram(engravers.Job{Power: 1, Speed: 1}, 3000); !errors.Is(err, engravers.ErrJob) {
		t.Errorf("FrameProgram(empty) = %v, want ErrJob", err)
	}
	for _, l := range got {
		if strings.Contains(l, "M3") || strings.Contains(l, "M4") {
			t.Errorf("frame line %q switches the laser on", l)
		}
	}
}
