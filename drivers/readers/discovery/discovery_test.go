package discovery

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/readers/wl134"
)

var quick = &Opts{Listen: 60 * time.Millisecond, Reply: 60 * time.Millisecond}

// device plays a reader on the far end of a pipe: answer maps each
// command line (CR ended) to its reply; echo repeats every byte first.
func device(dev *porttest.End, echo bool, answer func(cmd string) string, got *bytes.Buffer) {
	var line []byte
	b := make([]byte, 64)
	for {
		n, err := dev.Read(b)
		if err != nil {
			return
		}
		got.Write(b[:n])
		for _, c := range b[:n] {
			if echo {
				dev.Write([]byte{c})
			}
			if c != '\r' {
				line = append(line, c)
				continue
			}
			if r := answer(string(line)); r != "" {
				dev.Write([]byte(r))
			}
			line = line[:0]
		}
	}
}

func TestProbeRFIDRW(t *testing.T) {
	t.Parallel()
	host, dev := porttest.Pipe("rfidrw")
	var got bytes.Buffer
	go device(dev, false, func(cmd string) string {
		if cmd == "VER" {
			return "RFIDRW-E V308\r"
		}
		return "?0\r"
	}, &got)
	r, err := Probe(context.Background(), host, quick)
	if err != nil || r.Protocol != "rfidrw" || r.Evidence != "answer" || !bytes.Contains(r.Reply, []byte("V308")) {
		t.Fatalf("Probe() = %+v, %v", r, err)
	}
	if r.Mode.Baud != 9600 || r.Mode.StopBits != 1 {
		t.Errorf("Mode = %+v, want 9600 8N1", r.Mode)
	}
}

// An Allflex echoes: its answer to P starts with the echo. An RFIDRW-E
// would answer ?0.
func TestProbeAllflex(t *testing.T) {
	t.Parallel()
	host, dev := porttest.Pipe("allflex")
	var got bytes.Buffer
	go device(dev, true, func(cmd string) string {
		if cmd == "P" {
			return "\nB000000\r\n"
		}
		return ""
	}, &got)
	r, err := Probe(context.Background(), host, quick)
	if err != nil || r.Protocol != "allflex" || r.Evidence != "answer" {
		t.Fatalf("Probe() = %+v, %v", r, err)
	}
}

// A push-only reader is recognised by a frame it sends while listened
// to, at its own framing (WL-134: 8N1).
func TestProbePassiveRead(t *testing.T) {
	t.Parallel()
	host, dev := porttest.Pipe("wl134")
	frame, _ := wl134.Encode(wl134.Frame{Country: 999, National: 1008, Animal: true})
	dev.Write(append([]byte{0x13, 0x37}, frame...))
	r, err := Probe(context.Background(), host, &Opts{Listen: 60 * time.Millisecond, Passive: true})
	if err != nil || r.Protocol != "wl134" || r.Evidence != "read" || r.Read.ID.Code != "999000000001008" {
		t.Fatalf("Probe() = %+v, %v", r, err)
	}
	if modes := host.Modes(); len(modes) == 0 || modes[0] != wl134.Mode {
		t.Errorf("modes set = %+v, want %v first", modes, wl134.Mode)
	}
}

// Nothing answers: ErrNoReader, and a passive probe sends nothing.
func TestProbeSilent(t *testing.T) {
	t.Parallel()
	for _, passive := range []bool{true, false} {
		host, dev := porttest.Pipe("silent")
		var got bytes.Buffer
		go device(dev, false, func(string) string { return "" }, &got)
		o := *quick
		o.Passive = passive
		o.Bauds = []int{19200}
		if _, err := Probe(context.Background(), host, &o); !errors.Is(err, ErrNoReader) {
			t.Errorf("Passive=%v: Probe() = %v, want ErrNoReader", passive, err)
		}
		host.Close()
		time.Sleep(5 * time.Millisecond)
		if passive && got.Len() > 0 {
			t.Errorf("passive probe sent %q", got.Bytes())
		}
		if !passive && !bytes.Contains(got.Bytes(), []byte("VER\r")) {
			t.Errorf("probe sent %q, want the queries", got.Bytes())
		}
		if bauds := host.Modes(); len(bauds) != 2 {
			t.Errorf("Passive=%v: %d modes tried, want 2 (8N1 at 9600 and 19200)", passive, len(bauds))
		}
	}
}

func TestModes(t *testing.T) {
	t.Parallel()
	m := modes(catalog.Protocols(), []int{9600, 115200})
	want := []port.Mode{
		{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 1},
		{Baud: 115200, DataBits: 8, Parity: port.ParityNone, StopBits: 1},
	}
	if len(m) != len(want) {
		t.Fatalf("modes() = %+v, want %+v", m, want)
	}
	for i := range m {
		if m[i] != want[i] {
			t.Errorf("modes()[%d] = %+v, want %+v", i, m[i], want[i])
		}
	}
}

func TestPorts(t *testing.T) {
	t.Parallel()
	ports, err := Ports()
	if err != nil {
		t.Skipf("no serial port enumeration here: %v", err)
	}
	for _, p := range ports {
		if p.Known && !p.IsUSB {
			t.Errorf("%s: adapter %v on a non-USB port", p.Name, p.Adapter)
		}
	}
}

// The listening windows are timed by Opts.Now: a clock that jumps an
// hour at each call ends every window at its first check, so the one
// mode every protocol shares (9600 8N1) reads the clock twice.
func TestProbeClock(t *testing.T) {
	t.Parallel()
	host, dev := porttest.Pipe("silent")
	defer dev.Close()
	var calls int
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	now := func() time.Time {
		calls++
		at = at.Add(time.Hour)
		return at
	}
	_, err := Probe(context.Background(), host, &Opts{Passive: true, Now: now})
	if !errors.Is(err, ErrNoReader) {
		t.Fatalf("Probe() = %v, want ErrNoReader", err)
	}
	if calls != 2 {
		t.Errorf("Probe read Opts.Now %d times, want 2 (start and end of one window)", calls)
	}
}
