package hidwedge_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers/hidwedge"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Linux key codes the tests type (linux/input-event-codes.h).
const (
	keyEsc, key1, key9, key0       = 1, 2, 10, 11
	keyA, keyEnter, keyLeftShift   = 30, 28, 42
	keyRightAlt, keyQ, keyBackslsh = 100, 16, 43
	keyCapsLock, keyKP5, keyF1     = 58, 76, 59
)

func ev(typ, code uint16, value int32) []byte {
	return hidwedge.AppendEvent(nil, hidwedge.Event{Type: typ, Code: code, Value: value})
}

func key(code uint16, value int32) []byte { return ev(hidwedge.EvKey, code, value) }

// Events the kernel delivers, one at a time, to characters.
func TestEventDecoder(t *testing.T) {
	t.Parallel()
	syn := ev(hidwedge.EvSyn, 0, 0)
	msc := ev(hidwedge.EvMsc, 4, 0x7001e) // MSC_SCAN with the HID usage
	for _, tc := range []struct {
		name   string
		layout *hidwedge.Layout
		events [][]byte
		want   string
	}{
		{"digits and Enter", nil, [][]byte{key(key1, 1), syn, key(key1, 0), key(key0, 1), key(key0, 0), key(keyEnter, 1), key(keyEnter, 0)}, "10\n"},
		{"scan codes and syncs type nothing", nil, [][]byte{msc, syn, key(key9, 1), msc, syn, key(key9, 0), syn}, "9"},
		{"shift", nil, [][]byte{key(keyLeftShift, 1), key(keyA, 1), key(keyA, 0), key(keyLeftShift, 0), key(keyA, 1), key(keyA, 0)}, "Aa"},
		{"autorepeat types once", nil, [][]byte{key(key1, 1), key(key1, 2), key(key1, 2), key(key1, 0)}, "1"},
		{"caps lock shifts letters, not digits", nil, [][]byte{key(keyCapsLock, 1), key(keyCapsLock, 0), key(keyA, 1), key(keyA, 0), key(key1, 1), key(key1, 0)}, "A1"},
		{"keypad digit", nil, [][]byte{key(keyKP5, 1), key(keyKP5, 0)}, "5"},
		{"keys no layout types", nil, [][]byte{key(keyEsc, 1), key(keyEsc, 0), key(keyF1, 1), key(keyF1, 0), key(999, 1)}, ""},
		{"release without press", nil, [][]byte{key(keyA, 0)}, ""},
		{"AltGr on de", hidwedge.DE(), [][]byte{key(keyRightAlt, 1), key(keyQ, 1), key(keyQ, 0), key(keyRightAlt, 0)}, "@"},
		{"the ISO key beside Enter on de", hidwedge.DE(), [][]byte{key(keyBackslsh, 1), key(keyBackslsh, 0)}, "#"},
		{"backslash on us", nil, [][]byte{key(keyBackslsh, 1), key(keyBackslsh, 0)}, "\\"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := hidwedge.NewEventDecoder(tc.layout)
			var got strings.Builder
			for _, e := range tc.events {
				rs, err := d.Decode(e)
				if err != nil {
					t.Fatalf("Decode(%x) = %v", e, err)
				}
				got.WriteString(string(rs))
			}
			if got.String() != tc.want {
				t.Errorf("typed %q, want %q", got.String(), tc.want)
			}
		})
	}
	if _, err := hidwedge.NewEventDecoder(nil).Decode(make([]byte, 7)); !errors.Is(err, hidwedge.ErrEvent) {
		t.Errorf("Decode of 7 bytes = %v, want ErrEvent", err)
	}
}

func TestParseEvent(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 4, 0, 0, 123456000, time.UTC)
	want := hidwedge.Event{Time: at, Type: hidwedge.EvKey, Code: keyEnter, Value: 1}
	b := hidwedge.AppendEvent(nil, want)
	if len(b) != hidwedge.EventSize {
		t.Fatalf("AppendEvent wrote %d bytes, want %d", len(b), hidwedge.EventSize)
	}
	if got, err := hidwedge.ParseEvent(b); err != nil || got != want {
		t.Errorf("ParseEvent = %+v, %v, want %+v", got, err, want)
	}
}

// A wedge scanner's events through a pipe, read by the one readers.Dev:
// chips, a line that is not one, and the hang-up of an unplugged
// scanner.
func TestEvdevDev(t *testing.T) {
	t.Parallel()
	host, dev := porttest.Pipe("/dev/input/by-id/usb-scanner-event-kbd")
	at := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	var rejected []string
	o := hidwedge.DefaultOpts
	o.Now = func() time.Time { return at }
	o.Rejected = func(_ []byte, err error) {
		var le *hidwedge.LineError
		if errors.As(err, &le) {
			rejected = append(rejected, le.Line)
		}
	}
	d, err := hidwedge.NewEvdev(host, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	events, err := hidwedge.EncodeEvents("982000123456789\nTAG-2026-0042\nAVID*012*345*678\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Written in pieces that split events, as reads may return them.
	go func() {
		for len(events) > 0 {
			n := min(len(events), 37)
			if _, err := dev.Write(events[:n]); err != nil {
				return
			}
			events = events[n:]
		}
		dev.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(5*time.Second))
	defer cancel()
	for _, want := range []struct {
		kind  chipid.Kind
		code  string
		proto reader.Air
	}{
		{chipid.KindISO, "982000123456789", reader.AirISO},
		{chipid.KindAVID, "012345678", reader.AirAVID},
	} {
		r, err := d.Next(ctx)
		if err != nil {
			t.Fatalf("Next = %v", err)
		}
		if r.ID.Kind != want.kind || r.ID.Code != want.code || r.Protocol != want.proto || r.Format != hidwedge.EvdevFormat ||
			!r.At.Equal(at) || r.Source != "evdev on /dev/input/by-id/usb-scanner-event-kbd" {
			t.Errorf("Next = %+v, want %s %s", r, want.kind, want.code)
		}
	}
	if len(rejected) != 1 || rejected[0] != "TAG-2026-0042" {
		t.Errorf("Rejected saw %q, want the tag barcode", rejected)
	}
	if _, err := d.Next(ctx); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Next after the scanner left = %v, want ErrHangup", err)
	}
}

// Round trip: what EncodeEvents types, the event decoder reads back,
// on both layouts; and no event stream makes the decoder fail or panic.
func FuzzEvdevRoundTrip(f *testing.F) {
	f.Add("982000123456789\n", false, []byte(nil))
	f.Add("AVID*012*345*678\t", false, key(keyA, 1))
	f.Add("Größe 4A3D5C1B2E @ #yz\n", true, key(keyLeftShift, 1))
	f.Fuzz(func(t *testing.T, s string, de bool, noise []byte) {
		l := hidwedge.US()
		if de {
			l = hidwedge.DE()
		}
		d := hidwedge.NewEventDecoder(l)
		for len(noise) >= hidwedge.EventSize {
			if _, err := d.Decode(noise[:hidwedge.EventSize]); err != nil {
				t.Fatalf("Decode(%x) = %v", noise[:hidwedge.EventSize], err)
			}
			noise = noise[hidwedge.EventSize:]
		}
		if !utf8.ValidString(s) {
			return
		}
		events, err := hidwedge.EncodeEvents(s, l)
		if err != nil {
			if !errors.Is(err, hidwedge.ErrUnmappable) {
				t.Fatalf("EncodeEvents(%q) = %v", s, err)
			}
			return
		}
		if len(events)%hidwedge.EventSize != 0 {
			t.Fatalf("EncodeEvents(%q) gave %d bytes, not whole events", s, len(events))
		}
		d = hidwedge.NewEventDecoder(l)
		var got strings.Builder
		for ; len(events) > 0; events = events[hidwedge.EventSize:] {
			rs, err := d.Decode(events[:hidwedge.EventSize])
			if err != nil {
				t.Fatal(err)
			}
			got.WriteString(string(rs))
		}
		if got.String() != s {
			t.Fatalf("Decode(EncodeEvents(%q)) = %q on %s", s, got.String(), l)
		}
	})
}
