package discovery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
	"github.com/chipdesk/chipdesk/drivers/readers"
	"github.com/chipdesk/chipdesk/drivers/readers/catalog"
	"github.com/chipdesk/chipdesk/drivers/usbids"
	"github.com/chipdesk/chipdesk/reader"
)

// Port is a serial port and, when it is a known USB bridge, its entry.
type Port struct {
	serialport.Info
	Adapter usbids.Entry
	Known   bool
}

// Ports lists the serial ports with their adapters.
func Ports() ([]Port, error) {
	infos, err := serialport.List()
	if err != nil {
		return nil, fmt.Errorf("discovery: %w", err)
	}
	out := make([]Port, 0, len(infos))
	for _, i := range infos {
		p := Port{Info: i}
		if i.IsUSB {
			p.Adapter, p.Known = usbids.LookupHex(i.VID, i.PID)
		}
		out = append(out, p)
	}
	return out, nil
}

// Opts configures Probe.
type Opts struct {
	// Protocols to try; nil means catalog.Protocols().
	Protocols []catalog.Protocol
	// Bauds are tried after each protocol's own baud rate.
	Bauds []int
	// Listen is how long to listen at each baud rate; 0 means 1.5 s.
	Listen time.Duration
	// Reply is how long to wait for the answer to a query; 0 means 300 ms.
	Reply time.Duration
	// Passive turns the queries off: nothing is sent to the port.
	Passive bool
	// Now is the clock the listening windows are timed by; nil means
	// time.Now.
	Now func() time.Time
}

// Result says which reader answered and how.
type Result struct {
	Protocol string
	Mode     port.Mode
	// Evidence is "read" when a chip read was decoded, "answer" when the
	// reader answered the protocol's query.
	Evidence string
	// Read is the decoded read, for Evidence "read".
	Read reader.Read
	// Reply is what came back to the query, for Evidence "answer".
	Reply []byte
}

// ErrNoReader is returned when no protocol was recognised.
var ErrNoReader = errors.New("discovery: no reader answered")

// ProbePath opens the serial port at path and probes it.
func ProbePath(ctx context.Context, path string, o *Opts) (Result, error) {
	p, err := serialport.Open(path, nil)
	if err != nil {
		return Result{}, fmt.Errorf("discovery: %w", err)
	}
	defer p.Close()
	return Probe(ctx, p, o)
}

// Probe tries each protocol and baud rate on p and returns the first
// that answers. It changes p's mode and read timeout.
func Probe(ctx context.Context, p port.Port, o *Opts) (Result, error) {
	if o == nil {
		o = &Opts{}
	}
	protos := o.Protocols
	if protos == nil {
		protos = catalog.Protocols()
	}
	listen, reply := o.Listen, o.Reply
	if listen <= 0 {
		listen = 1500 * time.Millisecond
	}
	if reply <= 0 {
		reply = 300 * time.Millisecond
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	if t, ok := p.(port.Timeouter); ok {
		if err := t.SetReadTimeout(50 * time.Millisecond); err != nil {
			return Result{}, fmt.Errorf("discovery: %w", err)
		}
	}
	for _, m := range modes(protos, o.Bauds) {
		if err := readers.SetMode(p, m); err != nil {
			return Result{}, fmt.Errorf("discovery: %w", err)
		}
		l := newListener(protos, now)
		// Passive: any protocol's frame that decodes to a read.
		if r, ok, err := l.listen(ctx, p, listen, m); ok || err != nil {
			return r, err
		}
		if o.Passive {
			continue
		}
		for _, pr := range protos {
			if pr.Query == nil || !sameFraming(pr.Mode, m) {
				continue
			}
			if _, err := p.Write(pr.Query); err != nil {
				return Result{}, fmt.Errorf("discovery: %s query: %w", pr.Name, err)
			}
			l.reply = l.reply[:0]
			if r, ok, err := l.listen(ctx, p, reply, m); ok || err != nil {
				return r, err
			}
			if pr.Answers(l.reply) {
				return Result{Protocol: pr.Name, Mode: m, Evidence: "answer", Reply: append([]byte(nil), l.reply...)}, nil
			}
		}
	}
	return Result{}, ErrNoReader
}

// modes returns the distinct modes to try: each protocol's own, then
// the extra bauds with each framing.
func modes(protos []catalog.Protocol, bauds []int) []port.Mode {
	var out []port.Mode
	add := func(m port.Mode) {
		for _, x := range out {
			if x == m {
				return
			}
		}
		out = append(out, m)
	}
	for _, p := range protos {
		add(p.Mode)
	}
	for _, b := range bauds {
		for _, p := range protos {
			m := p.Mode
			m.Baud = b
			add(m)
		}
	}
	return out
}

func sameFraming(a, b port.Mode) bool { return a == b }

// listener runs every protocol's framing over the received bytes.
type listener struct {
	protos []catalog.Protocol
	sc     []*readers.Scanner
	buf    []byte
	reply  []byte
	now    func() time.Time
}

func newListener(protos []catalog.Protocol, now func() time.Time) *listener {
	l := &listener{protos: protos, buf: make([]byte, 256), now: now}
	for _, p := range protos {
		l.sc = append(l.sc, readers.NewScanner(p.Split, 0))
	}
	return l
}

// listen reads for d and reports the first protocol whose frames decode
// to a read.
func (l *listener) listen(ctx context.Context, p port.Port, d time.Duration, m port.Mode) (Result, bool, error) {
	end := l.now().Add(d)
	for l.now().Before(end) {
		if err := ctx.Err(); err != nil {
			return Result{}, false, err
		}
		n, err := p.Read(l.buf)
		if err != nil && !errors.Is(err, port.ErrTimeout) {
			return Result{}, false, fmt.Errorf("discovery: %w", err)
		}
		if n == 0 {
			continue
		}
		l.reply = append(l.reply, l.buf[:n]...)
		for i, sc := range l.sc {
			sc.Write(l.buf[:n])
			for f := sc.Frame(); f != nil; f = sc.Frame() {
				if r, ok, err := l.protos[i].Decode(f); ok && err == nil {
					r.Raw, r.Format = f, l.protos[i].Name
					return Result{Protocol: l.protos[i].Name, Mode: m, Evidence: "read", Read: r}, true, nil
				}
			}
		}
	}
	return Result{}, false, nil
}
