package zplgf

import (
	"bytes"
	"errors"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/chipdesk/chipdesk/tags/mono"
)

func fromRows(width int, rows ...string) *mono.Image {
	m := mono.New(image.Rect(0, 0, width, len(rows)))
	for y, r := range rows {
		for x, c := range r {
			m.SetBit(x, y, c == '#')
		}
	}
	return m
}

func TestEncode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		img  *mono.Image
		want string
	}{
		{"white rows", fromRows(16, "", ""), "^GFA,4,4,2,,:"},
		{"black row uses repeat letters, never !", fromRows(16, "################"), "^GFA,2,2,2,JF"},
		{"left dot then white", fromRows(24, "#"), "^GFA,3,3,3,8,"},
		{"repeat previous row", fromRows(8, "#.#.#.#.", "#.#.#.#.", "........"), "^GFA,3,3,1,HA:,"},
		{"long run 20+", fromRows(8*24, "################################################################################################################################################################################################"), "^GFA,24,24,24,hNF"},
	}
	for _, tt := range tests {
		if got := string(Encode(tt.img)); got != tt.want {
			t.Errorf("%s: Encode = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  string
		row0 []byte
		err  error
	}{
		{"plain hex", "^GFA,2,2,2,F00F^FS", []byte{0xf0, 0x0f}, nil},
		{"bang fills black (guide)", "^GFA,2,2,2,8!", []byte{0x8f, 0xff}, nil},
		{"count letters add", "^GFA,48,48,48,zJ0", make([]byte, 48), ErrSyntax},
		{"lower case hex", "^GFA,1,1,1,ff", []byte{0xff}, nil},
		{"too few rows", "^GFA,4,4,2,FFFF", nil, ErrSyntax},
		{"row too long", "^GFA,1,1,1,FFF", nil, ErrSyntax},
		{"not GFA", "^GFB,1,1,1,F", nil, ErrSyntax},
		{"bad byte", "^GFA,1,1,1,F*", nil, ErrSyntax},
		{"uneven rows", "^GFA,3,3,2,FFFFFF", nil, ErrSyntax},
	}
	for _, tt := range tests {
		m, err := Decode([]byte(tt.cmd))
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: Decode(%q) = %v, want %v", tt.name, tt.cmd, err, tt.err)
			continue
		}
		if err == nil && !bytes.Equal(m.Row(0), tt.row0) {
			t.Errorf("%s: Decode(%q) row 0 = %x, want %x", tt.name, tt.cmd, m.Row(0), tt.row0)
		}
	}
}

// FuzzRoundTrip: Decode(Encode(m)) == m for any picture, and Decode of
// any text does not panic.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{0xff, 0, 0, 0xff, 0xff, 0x10}, uint8(2))
	f.Add(bytes.Repeat([]byte{0xaa}, 100), uint8(50))
	f.Fuzz(func(t *testing.T, pix []byte, bpr uint8) {
		if bpr == 0 || len(pix) < int(bpr) {
			return
		}
		rows := len(pix) / int(bpr)
		m := mono.New(image.Rect(0, 0, 8*int(bpr), rows))
		copy(m.Pix, pix)
		enc := Encode(m)
		got, err := Decode(enc)
		if err != nil {
			t.Fatalf("Decode(%q) = %v", enc, err)
		}
		if !bytes.Equal(got.Pix, m.Pix) {
			t.Fatalf("Decode(Encode(%x)) = %x", m.Pix, got.Pix)
		}
		Decode(pix) // arbitrary bytes: must not panic
	})
}

func TestRoundTripRandom(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		w, h := 1+r.IntN(300), 1+r.IntN(40)
		m := mono.New(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			if y > 0 && r.IntN(3) == 0 {
				copy(m.Row(y), m.Row(y-1))
				continue
			}
			run := r.IntN(2) == 0
			for x := 0; x < w; x++ {
				if r.IntN(10) == 0 {
					run = !run
				}
				m.SetBit(x, y, run)
			}
		}
		enc := Encode(m)
		if bytes.IndexByte(enc, '!') >= 0 {
			t.Fatalf("Encode emitted '!': %q", enc)
		}
		got, err := Decode(enc)
		if err != nil || !bytes.Equal(got.Pix, m.Pix) {
			t.Fatalf("Decode(Encode(%dx%d image)) = %v, differs", w, h, err)
		}
	}
}
