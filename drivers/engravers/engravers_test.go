package engravers

import (
	"errors"
	"math"
	"testing"
)

func TestJobValidate(t *testing.T) {
	t.Parallel()
	sq := Path{{0, 0}, {10, 0}, {10, 10}}
	tests := []struct {
		name string
		j    Job
		want error
	}{
		{"ok", Job{Paths: []Path{sq}, Power: 0.5, Speed: 600}, nil},
		{"full power, two passes", Job{Paths: []Path{sq}, Power: 1, Speed: 600, Passes: 2}, nil},
		{"no power", Job{Paths: []Path{sq}, Speed: 600}, ErrJob},
		{"too much power", Job{Paths: []Path{sq}, Power: 1.5, Speed: 600}, ErrJob},
		{"NaN power", Job{Paths: []Path{sq}, Power: math.NaN(), Speed: 600}, ErrJob},
		{"no speed", Job{Paths: []Path{sq}, Power: 0.5}, ErrJob},
		{"infinite speed", Job{Paths: []Path{sq}, Power: 0.5, Speed: math.Inf(1)}, ErrJob},
		{"negative passes", Job{Paths: []Path{sq}, Power: 0.5, Speed: 600, Passes: -1}, ErrJob},
		{"NaN point", Job{Paths: []Path{{{0, math.NaN()}}}, Power: 0.5, Speed: 600}, ErrJob},
		{"far point", Job{Paths: []Path{{{2e5, 0}}}, Power: 0.5, Speed: 600}, ErrJob},
	}
	for _, tt := range tests {
		if err := tt.j.Validate(); !errors.Is(err, tt.want) {
			t.Errorf("%s: Validate() = %v, want %v", tt.name, err, tt.want)
		}
	}
}
