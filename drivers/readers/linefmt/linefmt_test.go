package linefmt

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
)

// siteSpec is a made-up site format: air protocol and spaced code.
var siteSpec = Spec{
	Name:      "site",
	Pattern:   `^(?P<tech>FDX|HDX) (?P<code>\d{3} \d{12})$`,
	Fields:    map[string]string{"protocol": "tech"},
	Protocols: map[string]reader.Air{"FDX": reader.AirFDXB, "HDX": reader.AirHDX},
	Baud:      19200,
	Framing:   "8N1",
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		s    Spec
	}{
		{"no name", Spec{Pattern: `(?P<code>\d+)`}},
		{"bad pattern", Spec{Name: "x", Pattern: `(`}},
		{"no chip group", Spec{Name: "x", Pattern: `(?P<id>\d+)`}},
		{"only country", Spec{Name: "x", Pattern: `(?P<country>\d+)`}},
		{"mapped to a missing group", Spec{Name: "x", Pattern: `(?P<code>\d+)`, Fields: map[string]string{"code": "id"}}},
		{"unknown field", Spec{Name: "x", Pattern: `(?P<code>\d+)`, Fields: map[string]string{"colour": "code"}}},
		{"bad framing", Spec{Name: "x", Pattern: `(?P<code>\d+)`, Framing: "9N1"}},
		{"negative baud", Spec{Name: "x", Pattern: `(?P<code>\d+)`, Baud: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Compile(tc.s); !errors.Is(err, ErrSpec) {
				t.Errorf("Compile(%+v) = %v, want ErrSpec", tc.s, err)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		spec Spec
		line string
		code string
		p    reader.Air
	}{
		{"code with protocol", siteSpec, "HDX 982 000123456789\r\n", "982000123456789", reader.AirHDX},
		{"country and national", Spec{Name: "cn", Pattern: `C=(?P<country>\d+);N=(?P<national>\d+)`, Protocol: reader.AirISO},
			"C=982;N=123456789\n", "982000123456789", reader.AirISO},
		{"air-order hex", Spec{Name: "rev", Pattern: `(?P<rev>[0-9A-F]{16})`}, "2858997D3A4F0000\r", "969123456789012", ""},
		{"AVID text", Spec{Name: "avid", Pattern: `ID (?P<code>.+)$`}, "ID AVID*012*345*678\r\n", "012345678", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Compile(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			r, err := f.Decode([]byte(tc.line))
			if err != nil || r.ID.Code != tc.code || r.Protocol != tc.p {
				t.Errorf("Decode(%q) = %s %s, %v, want %s %s", tc.line, r.ID.Code, r.Protocol, err, tc.code, tc.p)
			}
		})
	}
	f, _ := Compile(siteSpec)
	for _, bad := range []string{"FDX 982 00012345678\r\n", "XYZ\r\n", "FDX 982 999999999999 junk"} {
		if r, err := f.Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) = %+v, want an error", bad, r)
		}
	}
	if m := f.Mode(); m.Baud != 19200 || m.DataBits != 8 || m.Parity != port.ParityNone || m.StopBits != 1 {
		t.Errorf("Mode() = %+v", m)
	}
}

// A configured reader through a real pseudo-terminal, the test playing
// the device: noise and unmatched lines are skipped.
func TestDriverThroughPTY(t *testing.T) {
	t.Parallel()
	dev, sp := openPTY(t)
	d, err := New(sp, &Opts{Spec: siteSpec})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := dev.Write([]byte("boot v1.2\r\n\x00\xffHDX 982 000123456789\r\nFDX 900 250000023921\r\n")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(5*time.Second))
	defer cancel()
	for _, want := range []string{"982000123456789 HDX", "900250000023921 FDX-B"} {
		r, err := d.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.ID.Code + " " + string(r.Protocol); got != want || r.Format != "site" {
			t.Errorf("Next() = %s (%s), want %s", got, r.Format, want)
		}
	}
	if st := d.Stats(); st.Reads != 2 || st.Garbage == 0 {
		t.Errorf("Stats() = %v", st)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(uint16(982), uint64(123456789), []byte("noise"))
	spec, err := Compile(Spec{Name: "f", Pattern: `ID:(?P<country>\d{3})-(?P<national>\d{12})`})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, country uint16, national uint64, noise []byte) {
		// No panic on anything.
		spec.Decode(noise)
		sc := readers.NewScanner(spec.Split, 0)
		sc.Write(noise)
		for fr := sc.Frame(); fr != nil; fr = sc.Frame() {
			spec.Decode(fr)
		}
		// A line made from a code decodes back to it.
		if country > 999 || national > 274877906943 {
			return
		}
		line := fmt.Appendf(nil, "ID:%03d-%012d\r\n", country, national)
		r, err := spec.Decode(line)
		if err != nil || r.ID.Code != fmt.Sprintf("%03d%012d", country, national) {
			t.Fatalf("Decode(%q) = %s, %v", line, r.ID.Code, err)
		}
	})
}

func ExampleCompile() {
	f, _ := Compile(Spec{Name: "site-reader", Pattern: `^READ (?P<code>\d{15})$`, Baud: 9600})
	r, _ := f.Decode([]byte("READ 985121004515220\r\n"))
	fmt.Println(r.ID)
	// Output: 985 121004515220
}
