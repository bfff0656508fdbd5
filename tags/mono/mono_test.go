package mono

import (
	"image"
	"image/color"
	"testing"
)

func TestBits(t *testing.T) {
	t.Parallel()
	m := New(image.Rect(-3, 2, 10, 5)) // 13 wide: 2 bytes per row
	if m.Stride != 2 {
		t.Fatalf("Stride = %d, want 2", m.Stride)
	}
	m.SetBit(-3, 2, true)
	m.SetBit(9, 4, true)
	m.Set(4, 3, color.Black)
	m.SetBit(100, 100, true) // outside: ignored
	tests := []struct {
		name string
		x, y int
		want bool
	}{
		{"first dot", -3, 2, true},
		{"last dot", 9, 4, true},
		{"set by colour", 4, 3, true},
		{"white", 0, 3, false},
		{"outside", 100, 100, false},
	}
	for _, tt := range tests {
		if got := m.Bit(tt.x, tt.y); got != tt.want {
			t.Errorf("%s: Bit(%d, %d) = %v, want %v", tt.name, tt.x, tt.y, got, tt.want)
		}
	}
	if got := m.Row(2)[0]; got != 0x80 {
		t.Errorf("Row(2)[0] = %#x, want 0x80 (MSB = leftmost dot)", got)
	}
	if got := m.Row(4)[1]; got != 0x08 {
		t.Errorf("Row(4)[1] = %#x, want 0x08", got)
	}
	m.SetBit(-3, 2, false)
	if m.Bit(-3, 2) {
		t.Error("SetBit(false) left the dot black")
	}
}

func TestBlack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    color.Color
		want bool
	}{
		{"black", color.Black, true},
		{"white", color.White, false},
		{"transparent", color.Transparent, false},
		{"dark blue", color.RGBA{0x10, 0x20, 0x80, 0xff}, true},
		{"half transparent black", color.NRGBA{0, 0, 0, 0x60}, false},
		{"light grey", color.Gray{0xc0}, false},
	}
	for _, tt := range tests {
		if got := Black(tt.c); got != tt.want {
			t.Errorf("%s: Black(%v) = %v, want %v", tt.name, tt.c, got, tt.want)
		}
	}
}

func TestFromImage(t *testing.T) {
	t.Parallel()
	src := image.NewGray(image.Rect(0, 0, 9, 2))
	for x := 0; x < 9; x++ {
		src.SetGray(x, 0, color.Gray{uint8(255 * (x % 2))})
		src.SetGray(x, 1, color.Gray{0xff})
	}
	m := FromImage(src)
	if got := m.Row(0); got[0] != 0xaa || got[1] != 0x80 {
		t.Errorf("FromImage row 0 = %x, want aa80", got)
	}
	if got := m.Row(1); got[0] != 0 || got[1] != 0 {
		t.Errorf("FromImage row 1 = %x, want 0000", got)
	}
}
