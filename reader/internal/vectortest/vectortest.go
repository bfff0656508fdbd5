package vectortest

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// FDXB is one vector of fdxb_vectors.json. Numbers written in hex in the
// file stay text here.
type FDXB struct {
	Case       string `json:"case"`
	Country    uint16 `json:"country"`
	National   uint64 `json:"national"`
	Display    string `json:"display"`         // "999 000000112233"
	ID15       string `json:"id15"`            // "999000000112233"
	Animal     int    `json:"animal"`          // 1 when the animal flag is set
	DataBlock  int    `json:"data_block"`      // 1 when the data-block flag is set
	Reserved14 uint16 `json:"reserved14"`      // the 14 reserved bits
	ID64       string `json:"id64"`            // the 64-bit code, hex
	WireBytes  string `json:"id64_wire_bytes"` // the code least significant byte first, hex
	RawBitrev  string `json:"raw_bitrev64"`    // the code bit-reversed, hex
	CRC16      string `json:"crc16"`           // the ISO 11785 CRC, hex
	Ext24      string `json:"ext24"`           // the 24-bit extension, hex
	Telegram   string `json:"telegram128_hex"` // the 128-bit telegram, hex
	Reason     string `json:"reason"`          // why a negative vector is rejected
}

// Counts of the vectors in the file: a test that reads fewer has read
// the wrong file.
const (
	Positive = 18
	Negative = 4
)

// LoadFDXB reads the vectors file at path and returns its positive and
// negative vectors. It fails tb when the file cannot be read or does
// not hold Positive and Negative vectors.
func LoadFDXB(tb testing.TB, path string) (pos, neg []FDXB) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("vectortest: %v", err)
	}
	var f struct {
		Positive []FDXB `json:"positive"`
		Negative []FDXB `json:"negative"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		tb.Fatalf("vectortest: %s: %v", path, err)
	}
	if len(f.Positive) != Positive || len(f.Negative) != Negative {
		tb.Fatalf("vectortest: %s: %d positive, %d negative vectors, want %d, %d",
			path, len(f.Positive), len(f.Negative), Positive, Negative)
	}
	return f.Positive, f.Negative
}

// Hex returns the number a vector writes in hex (ID64, CRC16, Ext24),
// failing tb when s is not one.
func Hex(tb testing.TB, s string) uint64 {
	tb.Helper()
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		tb.Fatalf("vectortest: %v", err)
	}
	return v
}
