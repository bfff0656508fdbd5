package tags

import (
	"fmt"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/datamatrix"
	"github.com/boombuler/barcode/qr"

	"github.com/chipdesk/chipdesk/tags/check"
)

// modules is a square 2D symbol: dark[y*n+x] is a dark (marked) module.
type modules struct {
	n    int
	dark []bool
}

// codeText is what the tag's symbol carries: the payload, or for a QR
// the payload as a URL.
func codeText(c Code, p check.Payload) string {
	if c.Symbology == "qr" {
		return p.URL(c.URLPrefix)
	}
	return p.String()
}

// encodeCode makes the symbol for payload p.
func encodeCode(c Code, p check.Payload) (modules, error) {
	var bc barcode.Barcode
	var err error
	text := codeText(c, p)
	switch c.Symbology {
	case "qr":
		bc, err = qr.Encode(text, qr.M, qr.Auto)
	case "datamatrix":
		bc, err = datamatrix.Encode(text)
	default:
		err = fmt.Errorf("symbology %q", c.Symbology)
	}
	if err != nil {
		return modules{}, fmt.Errorf("tags: encoding %q: %w", text, err)
	}
	b := bc.Bounds()
	if b.Dx() != b.Dy() {
		return modules{}, fmt.Errorf("tags: %s symbol %dx%d is not square", c.Symbology, b.Dx(), b.Dy())
	}
	m := modules{n: b.Dx(), dark: make([]bool, b.Dx()*b.Dy())}
	for y := 0; y < m.n; y++ {
		for x := 0; x < m.n; x++ {
			r, _, _, _ := bc.At(b.Min.X+x, b.Min.Y+y).RGBA()
			m.dark[y*m.n+x] = r < 0x8000
		}
	}
	return m, nil
}
