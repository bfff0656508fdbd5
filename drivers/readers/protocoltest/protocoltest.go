package protocoltest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/readers"
)

// Line is one reader line quoted from a manual, with the parse the
// manual gives for it.
type Line struct {
	Reader string         `json:"reader"` // the reader or manual, "Allflex ..."
	Raw    string         `json:"raw"`    // the bytes the reader sends
	Expect map[string]any `json:"expect"` // field name to value
	Src    string         `json:"src"`    // where the line is quoted from
}

// Num returns the expected number called k, and whether there is one.
func (l Line) Num(k string) (uint64, bool) {
	v, ok := l.Expect[k].(float64)
	return uint64(v), ok
}

// ManualLines reads the reader_lines.json file at path and returns the
// lines of the readers whose name starts with prefix. It fails tb when
// the file cannot be read or holds no such line.
func ManualLines(tb testing.TB, path, prefix string) []Line {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("protocoltest: %v", err)
	}
	var v struct{ Lines []Line }
	if err := json.Unmarshal(b, &v); err != nil {
		tb.Fatalf("protocoltest: %s: %v", path, err)
	}
	var out []Line
	for _, l := range v.Lines {
		if strings.HasPrefix(l.Reader, prefix) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("protocoltest: no %q lines in %s", prefix, path)
	}
	return out
}

// RoundTrip checks the round-trip property of a protocol's frames on
// input b: when decode accepts b, encode takes the frame without error
// and decode reads the encoded bytes back to the same frame. It returns
// the encoded bytes and true, or nil and false when decode rejects b.
func RoundTrip[F comparable](tb testing.TB, b []byte, decode func([]byte) (F, error), encode func(F) ([]byte, error)) ([]byte, bool) {
	tb.Helper()
	fr, err := decode(b)
	if err != nil {
		return nil, false
	}
	enc, err := encode(fr)
	if err != nil {
		tb.Fatalf("Encode(Decode(%q)) = %v", b, err)
	}
	if back, err := decode(enc); err != nil || back != fr {
		tb.Fatalf("Decode(Encode(%+v)) = %+v, %v", fr, back, err)
	}
	return enc, true
}

// SplitDecodes writes b to a Scanner of split and fails tb when a frame
// the scanner gives is rejected by decode.
func SplitDecodes[F any](tb testing.TB, split readers.SplitFunc, b []byte, decode func([]byte) (F, error)) {
	tb.Helper()
	sc := readers.NewScanner(split, 0)
	sc.Write(b)
	for fr := sc.Frame(); fr != nil; fr = sc.Frame() {
		if _, err := decode(fr); err != nil {
			tb.Fatalf("Split gave %q, which Decode rejects: %v", fr, err)
		}
	}
}
