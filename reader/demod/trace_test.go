package demod_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/reader/demod"
)

func TestReadTrace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		in     string
		format demod.Format
		want   []int16
		err    bool
	}{
		{name: "pm3", in: "1\n-2\n127\n-128\n", format: demod.FormatPM3, want: []int16{1, -2, 127, -128}},
		{name: "pm3 CRLF, blanks, spaces", in: " 5\r\n\r\n-6 \r\n", format: demod.FormatPM3, want: []int16{5, -6}},
		{name: "pm3 clamps to int16", in: "40000\n-40000\n", format: demod.FormatPM3, want: []int16{32767, -32768}},
		{name: "pm3 empty", in: "", format: demod.FormatPM3, want: nil},
		{name: "pm3 text", in: "1\nabc\n", format: demod.FormatPM3, err: true},
		{name: "pm3 float", in: "1.5\n", format: demod.FormatPM3, err: true},
		{name: "pm3 huge line", in: strings.Repeat("1", 5000) + "\n", format: demod.FormatPM3, err: true},
		{name: "int8", in: "\x01\xff\x80\x7f", format: demod.FormatInt8, want: []int16{1, -1, -128, 127}},
		{name: "int16 LE", in: "\x01\x00\xff\xff\x00\x80", format: demod.FormatInt16, want: []int16{1, -1, -32768}},
		{name: "int16 odd", in: "\x01\x00\xff", format: demod.FormatInt16, err: true},
		{name: "unknown format", in: "1\n", format: "wav", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := demod.ReadTrace(strings.NewReader(tt.in), tt.format)
			if tt.err {
				if !errors.Is(err, demod.ErrTrace) {
					t.Errorf("ReadTrace(%q) error = %v, want ErrTrace", tt.in, err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("ReadTrace(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestWritePM3(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := demod.WritePM3(&b, []int16{0, -128, 127, 32767}); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "0\n-128\n127\n32767\n"; got != want {
		t.Errorf("WritePM3 = %q, want %q", got, want)
	}
}
