package brotherql

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/tiff"
)

// TestUnpackBitsSpec decodes the example of TIFF 6.0 section 9.
func TestUnpackBitsSpec(t *testing.T) {
	t.Parallel()
	packed, _ := hex.DecodeString("feaa0280002afdaa0380002a22f7aa")
	want, _ := hex.DecodeString("aaaaaa80002aaaaaaaaa80002a22aaaaaaaaaaaaaaaaaaaa")
	got, err := UnpackBits(packed, len(want))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("UnpackBits(%x) = %x, %v, want %x", packed, got, err, want)
	}
}

func TestPackBits(t *testing.T) {
	t.Parallel()
	zero := make([]byte, 90)
	ones := bytes.Repeat([]byte{0xff}, 90)
	ramp := make([]byte, 90)
	for i := range ramp {
		ramp[i] = byte(i)
	}
	tests := []struct {
		name string
		in   []byte
		want string // hex; empty = only check the round trip and the bound
	}{
		{"blank line", zero, "a700"}, // -89: 90 × 0x00
		{"black line", ones, "a7ff"}, // -89: 90 × 0xFF
		{"no runs: one 91-byte literal", ramp, "59" + hex.EncodeToString(ramp)},
		{"two equal bytes stay literal", []byte{1, 1, 2}, "02010102"},
		{"run of three", []byte{5, 5, 5}, "fe05"},
		{"literal then run", []byte{1, 2, 7, 7, 7, 7}, "010102fd07"},
		{"129-byte run splits", bytes.Repeat([]byte{9}, 129), "8109" + "0009"},
	}
	for _, tt := range tests {
		got := PackBits(tt.in)
		if tt.want != "" && hex.EncodeToString(got) != tt.want {
			t.Errorf("%s: PackBits(%x) = %x, want %s", tt.name, tt.in, got, tt.want)
		}
		back, err := UnpackBits(got, len(tt.in))
		if err != nil || !bytes.Equal(back, tt.in) {
			t.Errorf("%s: UnpackBits(PackBits(%x)) = %x, %v", tt.name, tt.in, back, err)
		}
	}
}

func TestUnpackBitsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		n    int
	}{
		{"literal past the end", "0501", 6},
		{"run without its byte", "fe", 3},
		{"too short", "fe00", 4},
		{"too long", "fe00fe00", 4},
	}
	for _, tt := range tests {
		b, _ := hex.DecodeString(tt.in)
		if got, err := UnpackBits(b, tt.n); !errors.Is(err, ErrPackBits) {
			t.Errorf("%s: UnpackBits(%s, %d) = %x, %v, want ErrPackBits", tt.name, tt.in, tt.n, got, err)
		}
	}
}

// TestPackBitsTIFF: a second decoder, golang.org/x/image/tiff, reads
// our packed rows as a PackBits-compressed bilevel TIFF strip.
func TestPackBitsTIFF(t *testing.T) {
	t.Parallel()
	const w, h = 720, 40
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([][]byte, h)
	var strip []byte
	for y := range rows {
		row := make([]byte, w/8)
		switch y % 4 {
		case 0: // sparse dots
			for i := range 5 {
				row[rng.IntN(len(row))] = byte(1 << i)
			}
		case 1: // random
			for i := range row {
				row[i] = byte(rng.UintN(256))
			}
		case 2: // bars
			for i := 10; i < 60; i++ {
				row[i] = 0xff
			}
		}
		rows[y] = row
		strip = append(strip, PackBits(row)...)
	}
	img, err := tiff.Decode(bytes.NewReader(bilevelTIFF(w, h, strip)))
	if err != nil {
		t.Fatalf("tiff.Decode: %v", err)
	}
	for y, row := range rows {
		for x := range w {
			black := row[x/8]&(0x80>>(x%8)) != 0
			r, _, _, _ := img.At(x, y).RGBA()
			if (r == 0) != black {
				t.Fatalf("TIFF dot (%d,%d) black = %v, want %v", x, y, r == 0, black)
			}
		}
	}
}

// bilevelTIFF wraps one PackBits strip in a little-endian TIFF with
// WhiteIsZero photometric (1 = black, as on the QL head).
func bilevelTIFF(w, h int, strip []byte) []byte {
	type entry struct {
		tag, typ uint16
		val      uint32
	}
	const short, long = 3, 4
	entries := []entry{
		{256, long, uint32(w)}, {257, long, uint32(h)}, {258, short, 1}, {259, short, 32773},
		{262, short, 0}, {273, long, 0}, {277, short, 1}, {278, long, uint32(h)}, {279, long, uint32(len(strip))},
	}
	ifdLen := 2 + 12*len(entries) + 4
	dataOff := uint32(8 + ifdLen)
	var b bytes.Buffer
	b.WriteString("II*\x00")
	binary.Write(&b, binary.LittleEndian, uint32(8))
	binary.Write(&b, binary.LittleEndian, uint16(len(entries)))
	for _, e := range entries {
		if e.tag == 273 {
			e.val = dataOff
		}
		binary.Write(&b, binary.LittleEndian, e.tag)
		binary.Write(&b, binary.LittleEndian, e.typ)
		binary.Write(&b, binary.LittleEndian, uint32(1))
		if e.typ == short {
			binary.Write(&b, binary.LittleEndian, uint16(e.val))
			binary.Write(&b, binary.LittleEndian, uint16(0))
		} else {
			binary.Write(&b, binary.LittleEndian, e.val)
		}
	}
	binary.Write(&b, binary.LittleEndian, uint32(0))
	b.Write(strip)
	return b.Bytes()
}

func FuzzPackBits(f *testing.F) {
	f.Add(make([]byte, 90))
	f.Add([]byte{1, 2, 3, 3, 3, 3, 4})
	f.Add(bytes.Repeat([]byte{0xaa, 0x55}, 100))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := PackBits(b)
		// Round trip, and never more than one header per 128 bytes of growth.
		if len(p) > len(b)+(len(b)+127)/128 {
			t.Fatalf("PackBits(%x) is %d bytes, more than %d", b, len(p), len(b)+(len(b)+127)/128)
		}
		got, err := UnpackBits(p, len(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("UnpackBits(PackBits(%x)) = %x, %v", b, got, err)
		}
	})
}

func FuzzUnpackBits(f *testing.F) {
	f.Add([]byte{0xfe, 0xaa, 0x02, 0x80, 0x00, 0x2a}, 6)
	f.Add([]byte{0x80}, 0)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		if n < 0 || n > 4096 {
			return
		}
		got, err := UnpackBits(b, n)
		if err != nil {
			return
		}
		// What decodes re-encodes to something that decodes the same.
		again, err := UnpackBits(PackBits(got), n)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("UnpackBits(PackBits(%x)) = %x, %v", got, again, err)
		}
	})
}
