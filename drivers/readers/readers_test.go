package readers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/reader"
)

var errBad = errors.New("test: bad frame")

// matchOK takes lines "OK<digits>" as frames, "BAD" as bad frames, and
// finds the frame after noise on the same line.
func matchOK(line []byte) (int, error) {
	if i := bytes.LastIndex(line, []byte("OK")); i >= 0 {
		return i, nil
	}
	if bytes.Equal(line, []byte("BAD")) {
		return 0, errBad
	}
	return -1, nil
}

func frames(split SplitFunc, in string) ([]string, Stats) {
	sc := NewScanner(split, 16)
	sc.Write([]byte(in))
	var out []string
	for f := sc.Frame(); f != nil; f = sc.Frame() {
		out = append(out, string(f))
	}
	return out, sc.Stats()
}

func TestSplitLine(t *testing.T) {
	t.Parallel()
	split := LineSplit(16, matchOK)
	for _, tc := range []struct {
		name, in string
		want     []string
		garbage  uint64
		bad      uint64
	}{
		{"CR, LF and CR LF", "OK1\rOK2\nOK3\r\n", []string{"OK1\r", "OK2\n", "OK3\r\n"}, 0, 0},
		{"blank lines are not garbage", "\r\n\r\nOK1\r\n", []string{"OK1\r\n"}, 0, 0},
		{"noise before the frame", "xyzOK1\r\n", []string{"OK1\r\n"}, 3, 0},
		{"a line without frame (its end counted)", "hello\r\nOK2\r", []string{"OK2\r"}, 7, 0},
		{"bad frame", "BAD\rOK1\r", []string{"OK1\r"}, 0, 1},
		{"partial line waits", "OK1", nil, 0, 0},
		// A line longer than max keeps its last 16 bytes.
		{"long line", "0123456789abcdefghijOK7\r", []string{"OK7\r"}, 20, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, st := frames(split, tc.in)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || st.Garbage != tc.garbage || st.Bad != tc.bad {
				t.Errorf("frames(%q) = %q, %v, want %q, %d garbage, %d bad", tc.in, got, st, tc.want, tc.garbage, tc.bad)
			}
		})
	}
}

// A split function that misbehaves cannot make the scanner loop or
// panic; a buffer that grows past max without a frame is trimmed.
func TestScannerGuards(t *testing.T) {
	t.Parallel()
	sc := NewScanner(func(b []byte) (int, error) { return len(b) + 5, nil }, 0)
	sc.Write([]byte("abc"))
	if f := sc.Frame(); f != nil || sc.Stats().Garbage != 3 {
		t.Errorf("Frame() = %q, %v", f, sc.Stats())
	}
	sc = NewScanner(func(b []byte) (int, error) { return 0, nil }, 8)
	sc.Write(make([]byte, 20))
	if f := sc.Frame(); f != nil || sc.Buffered() != 8 || sc.Stats().Garbage != 12 {
		t.Errorf("Frame() = %q, buffered %d, %v", f, sc.Buffered(), sc.Stats())
	}
}

// Frames received before a hang-up are read before the error.
func TestDevFramesBeforeHangup(t *testing.T) {
	t.Parallel()
	pb := &porttest.Playback{Ops: []porttest.IO{{R: []byte("OK1\rOK1\n")}}}
	s, err := Open(pb, testProto(), &Opts{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, want := range []string{"OK1\r", "OK1\n"} {
		if r, err := s.Next(ctx); err != nil || string(r.Raw) != want || r.At.IsZero() {
			t.Fatalf("Next() = %q, %v, %v, want %q", r.Raw, r.At, err, want)
		}
	}
	if _, err := s.Next(ctx); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Next() = %v, want port.ErrHangup", err)
	}
}

func TestDevContextAndClose(t *testing.T) {
	t.Parallel()
	host, _ := porttest.Pipe("idle")
	s, err := Open(host, testProto(), &Opts{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := s.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next() = %v, want context.DeadlineExceeded", err)
	}
	done := make(chan error)
	go func() {
		_, err := s.Next(context.Background())
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	s.Close()
	select {
	case err := <-done:
		if !errors.Is(err, reader.ErrClosed) {
			t.Errorf("Next() after Close = %v, want reader.ErrClosed", err)
		}
	case <-time.After(testtime.Scale(2 * time.Second)):
		t.Fatal("Next did not return after Close")
	}
	if err := s.write([]byte("x")); !errors.Is(err, reader.ErrClosed) {
		t.Errorf("write() after Close = %v", err)
	}
}

// testProto reads "OK1" lines as chips; "OK0" is a reply without a
// chip and anything else matched a bad frame.
func testProto() Protocol {
	return Protocol{
		Name: "test", Split: LineSplit(16, matchOK),
		Decode: func(f []byte) (reader.Read, bool, error) {
			switch string(TrimEOL(f)) {
			case "OK0":
				return reader.Read{}, false, nil
			case "OK1":
				return reader.Read{Protocol: reader.AirISO}, true, nil
			}
			return reader.Read{}, false, errBad
		},
	}
}

// Dev fills Raw, At, Source and Format, counts what it skips and tells
// Rejected of each rejected frame.
func TestDev(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	pb := &porttest.Playback{Name: "dev", Ops: []porttest.IO{{R: []byte("junk\rOK0\rOK7\rOK1\r")}}}
	var rejected []string
	d, err := Open(pb, testProto(), &Opts{
		Now: func() time.Time { return at },
		Rejected: func(f []byte, err error) {
			rejected = append(rejected, fmt.Sprintf("%q %v", f, errors.Is(err, errBad)))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Next(context.Background())
	if err != nil || string(r.Raw) != "OK1\r" || !r.At.Equal(at) || r.Source != "test on dev" || r.Format != "test" {
		t.Errorf("Next() = %+v, %v", r, err)
	}
	if _, err := d.Next(context.Background()); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Next() = %v, want port.ErrHangup", err)
	}
	if st := d.Stats(); st.Reads != 1 || st.Other != 1 || st.Bad != 1 || st.Garbage != 5 {
		t.Errorf("Stats() = %v", st)
	}
	if want := []string{`"OK7\r" true`}; fmt.Sprint(rejected) != fmt.Sprint(want) {
		t.Errorf("Rejected saw %q, want %q", rejected, want)
	}
	d.Close()
	if _, err := d.Next(context.Background()); !errors.Is(err, reader.ErrClosed) {
		t.Errorf("Next() after Close = %v, want reader.ErrClosed", err)
	}
}

// Exchange returns the reply to its command and keeps the chips read
// while it waited for Next, in order.
func TestDevExchange(t *testing.T) {
	t.Parallel()
	pb := &porttest.Playback{Name: "dev", Ops: []porttest.IO{
		{W: []byte("Q\r")},
		{R: []byte("OK1\rBAD\rOK0\rOK1\r")},
	}}
	d, err := Open(pb, testProto(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	reply, err := d.Exchange(ctx, []byte("Q\r"), func(f []byte) bool { return string(TrimEOL(f)) == "OK0" })
	if err != nil || string(reply) != "OK0\r" {
		t.Fatalf("Exchange() = %q, %v, want the OK0 reply", reply, err)
	}
	for i := range 2 {
		if r, err := d.Next(ctx); err != nil || string(r.Raw) != "OK1\r" {
			t.Fatalf("Next() %d = %+v, %v, want a chip line", i, r, err)
		}
	}
	if st := d.Stats(); st.Reads != 2 || st.Other != 1 || st.Bad != 1 {
		t.Errorf("Stats() = %v", st)
	}
}

// Open: nil Opts means the protocol's line; given Opts replace it, and
// their clock stamps the reads.
func TestOpenOpts(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	proto := testProto()
	proto.Mode = port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 2}
	set := Opts{Mode: port.Mode{Baud: 19200, DataBits: 8, Parity: port.ParityNone, StopBits: 1}, Now: func() time.Time { return at }}
	tests := []struct {
		name string
		o    *Opts
		want port.Mode
	}{
		{"nil opts", nil, proto.Mode},
		{"given opts", &set, set.Mode},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			host, dev := porttest.Pipe("dev")
			defer dev.Close()
			d, err := Open(host, proto, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if got := host.Mode(); got != tt.want {
				t.Errorf("Open(%v) set mode %v, want %v", tt.o, got, tt.want)
			}
			if _, err := dev.Write([]byte("OK1\r")); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(5*time.Second))
			defer cancel()
			r, err := d.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if tt.o != nil && !r.At.Equal(at) {
				t.Errorf("Next().At = %v, want %v from Opts.Now", r.At, at)
			}
		})
	}
}

func TestCharClasses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                   string
		in                     string
		digits, hex, printable bool
	}{
		{"empty", "", true, true, true},
		{"digits", "0123456789", true, true, true},
		{"upper hex", "09AF", false, true, true},
		{"lower hex", "09af", false, true, true},
		{"past F", "0G", false, false, true},
		{"space", "12 3", false, false, true},
		{"tilde", "~", false, false, true},
		{"control", "1\r", false, false, false},
		{"DEL", "\x7f", false, false, false},
		{"high byte", "\xAA", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Digits(tt.in); got != tt.digits {
				t.Errorf("Digits(%q) = %v, want %v", tt.in, got, tt.digits)
			}
			if got := HexDigits([]byte(tt.in)); got != tt.hex {
				t.Errorf("HexDigits(%q) = %v, want %v", tt.in, got, tt.hex)
			}
			if got := Printable(tt.in); got != tt.printable {
				t.Errorf("Printable(%q) = %v, want %v", tt.in, got, tt.printable)
			}
		})
	}
}
