package zplgf

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/tags/mono"
)

// ErrSyntax: the text is not a ^GFA graphic field this package reads.
var ErrSyntax = errors.New("zplgf: bad graphic field")

const hexDigits = "0123456789ABCDEF"

// Encode returns the ^GFA command (without ^FO or ^FS) drawing m, one
// dot per printer dot, black = printed.
func Encode(m *mono.Image) []byte {
	bpr := m.Stride
	rows := m.Rect.Dy()
	total := bpr * rows
	var b bytes.Buffer
	b.Grow(32 + total)
	fmt.Fprintf(&b, "^GFA,%d,%d,%d,", total, total, bpr)
	hex := make([]byte, 2*bpr)
	var prev []byte
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		row := m.Row(y)
		if prev != nil && bytes.Equal(row, prev) {
			b.WriteByte(':')
			continue
		}
		prev = row
		for i, v := range row {
			hex[2*i] = hexDigits[v>>4]
			hex[2*i+1] = hexDigits[v&15]
		}
		end := len(hex)
		for end > 0 && hex[end-1] == '0' {
			end--
		}
		for i := 0; i < end; {
			j := i + 1
			for j < end && hex[j] == hex[i] {
				j++
			}
			writeCount(&b, j-i)
			b.WriteByte(hex[i])
			i = j
		}
		if end < len(hex) {
			b.WriteByte(',')
		}
	}
	return b.Bytes()
}

// writeCount writes the repeat letters for n copies of the next digit;
// nothing for n == 1.
func writeCount(b *bytes.Buffer, n int) {
	if n == 1 {
		return
	}
	for n > 400 {
		b.WriteByte('z')
		n -= 400
	}
	if n >= 20 {
		b.WriteByte(byte('g' + n/20 - 1))
		n %= 20
	}
	if n > 0 {
		b.WriteByte(byte('G' + n - 1))
	}
}

// Decode reads a "^GFA,b,c,d,data" command (a trailing ^FS and white
// space are ignored) into an image 8*d dots wide and c/d rows high.
func Decode(cmd []byte) (*mono.Image, error) {
	s := strings.TrimSpace(string(cmd))
	s = strings.TrimSuffix(s, "^FS")
	if !strings.HasPrefix(s, "^GFA,") {
		return nil, fmt.Errorf("%w: want ^GFA", ErrSyntax)
	}
	f := strings.SplitN(s[5:], ",", 4)
	if len(f) != 4 {
		return nil, fmt.Errorf("%w: want 4 parameters", ErrSyntax)
	}
	var n [3]int
	for i := range n {
		v, err := strconv.Atoi(f[i])
		if err != nil || v <= 0 || v > 1<<24 {
			return nil, fmt.Errorf("%w: parameter %d %q", ErrSyntax, i+1, f[i])
		}
		n[i] = v
	}
	bpr, total := n[2], n[1]
	if total%bpr != 0 {
		return nil, fmt.Errorf("%w: %d bytes is not whole rows of %d", ErrSyntax, total, bpr)
	}
	m := mono.New(image.Rect(0, 0, 8*bpr, total/bpr))
	return m, decodeData(m, f[3])
}

func decodeData(m *mono.Image, data string) error {
	bpr, rows := m.Stride, m.Rect.Dy()
	row := bytes.Repeat([]byte{'0'}, 2*bpr) // hex digits of the current row
	y, x, count := 0, 0, 0
	flush := func(fill byte) error {
		if y >= rows {
			return fmt.Errorf("%w: more than %d rows", ErrSyntax, rows)
		}
		for ; x < len(row); x++ {
			row[x] = fill
		}
		out := m.Row(y)
		for i := range out {
			out[i] = unhex(row[2*i])<<4 | unhex(row[2*i+1])
		}
		y, x = y+1, 0
		return nil
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
		case c >= 'G' && c <= 'Y':
			count += int(c-'G') + 1
		case c >= 'g' && c <= 'z':
			count += 20 * (int(c-'g') + 1)
		case c == ',' || c == '!':
			if count != 0 {
				return fmt.Errorf("%w: repeat count before %q", ErrSyntax, c)
			}
			fill := byte('0')
			if c == '!' {
				fill = 'F'
			}
			if err := flush(fill); err != nil {
				return err
			}
		case c == ':':
			if count != 0 || x != 0 {
				return fmt.Errorf("%w: ':' inside a row", ErrSyntax)
			}
			x = len(row) // row still holds the previous row's digits
			if err := flush(0); err != nil {
				return err
			}
		case strings.IndexByte(hexDigits, c) >= 0 || (c >= 'a' && c <= 'f'):
			if c >= 'a' {
				c -= 'a' - 'A'
			}
			if count == 0 {
				count = 1
			}
			if x+count > len(row) {
				return fmt.Errorf("%w: row %d longer than %d digits", ErrSyntax, y, len(row))
			}
			for ; count > 0; count-- {
				row[x] = c
				x++
			}
			if x == len(row) {
				if err := flush(0); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("%w: byte %q", ErrSyntax, c)
		}
	}
	if x != 0 || count != 0 || y != rows {
		return fmt.Errorf("%w: %d rows of %d", ErrSyntax, y, rows)
	}
	return nil
}

func unhex(c byte) byte {
	if c >= 'A' {
		return c - 'A' + 10
	}
	return c - '0'
}
