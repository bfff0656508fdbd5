package zplsim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
)

// Opts configures a Printer.
type Opts struct {
	// Addr is the address to listen on; empty means "127.0.0.1:0".
	Addr string
	// Status is the initial host status.
	Status zpl.HostStatus
	// OnFormat, when set, is called (with the printer locked) after each
	// complete format, with the number of formats so far; it may change
	// the status, e.g. to run out of paper during a job.
	OnFormat func(n int, st *zpl.HostStatus)
	// Mute makes the printer ignore ~HS, like a one-way link.
	Mute bool
}

// ReadyStatus is the status of a healthy 203 dpi printer on 19200 baud,
// as the ZPL II guide's example fields read.
var ReadyStatus = zpl.HostStatus{
	Comm: 159, LabelLength: 211, PrintMode: 2, WidthMode: 3, Always1: 1, GraphicsStored: 2,
}

// Job is one format received.
type Job struct {
	Conn int    // which connection or stream, from 1
	Data []byte // the bytes from ^XA to ^XZ, tilde commands removed
}

// Printer is a fake ZPL printer.
type Printer struct {
	opts Opts
	ln   net.Listener
	wg   sync.WaitGroup

	mu       sync.Mutex
	status   zpl.HostStatus
	jobs     []Job
	queries  int
	conns    int
	received int
	darkness int // last ~SDnn
	calib    int // ~JC received
	open     map[net.Conn]struct{}
	closed   bool
}

// New returns a printer that serves streams given to Serve; it does not
// listen.
func New(o *Opts) *Printer {
	if o == nil {
		o = &Opts{Status: ReadyStatus}
	}
	return &Printer{opts: *o, status: o.Status, open: map[net.Conn]struct{}{}}
}

// Listen returns a printer that accepts TCP connections on o.Addr.
func Listen(o *Opts) (*Printer, error) {
	p := New(o)
	addr := p.opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("zplsim: %w", err)
	}
	p.ln = ln
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the listening address ("127.0.0.1:40123").
func (p *Printer) Addr() string {
	if p.ln == nil {
		return ""
	}
	return p.ln.Addr().String()
}

func (p *Printer) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			return
		}
		p.open[c] = struct{}{}
		p.mu.Unlock()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			_ = p.Serve(context.Background(), c)
			p.mu.Lock()
			delete(p.open, c)
			p.mu.Unlock()
			c.Close()
		}()
	}
}

// Close stops listening and closes open connections.
func (p *Printer) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.open {
		c.Close()
	}
	p.mu.Unlock()
	var err error
	if p.ln != nil {
		err = p.ln.Close()
	}
	p.wg.Wait()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("zplsim: %w", err)
	}
	return nil
}

// SetStatus changes the host status under the printer's lock.
func (p *Printer) SetStatus(f func(st *zpl.HostStatus)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f(&p.status)
}

// Status returns the current host status.
func (p *Printer) Status() zpl.HostStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status
}

// Jobs returns the formats received so far.
func (p *Printer) Jobs() []Job {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Job, len(p.jobs))
	for i, j := range p.jobs {
		out[i] = Job{Conn: j.Conn, Data: bytes.Clone(j.Data)}
	}
	return out
}

// Darkness returns the darkness last set by ~SDnn (0 if never).
func (p *Printer) Darkness() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.darkness
}

// Calibrations returns how many ~JC (media calibration) were received.
func (p *Printer) Calibrations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calib
}

// Queries returns how many ~HS commands were answered.
func (p *Printer) Queries() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.queries
}

// Received returns the number of bytes received on all streams.
func (p *Printer) Received() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.received
}

// Serve plays the printer on one byte stream until it ends or ctx is
// done (the context is seen between reads).
func (p *Printer) Serve(ctx context.Context, rw io.ReadWriter) error {
	p.mu.Lock()
	p.conns++
	s := stream{p: p, conn: p.conns, w: rw}
	p.mu.Unlock()
	buf := make([]byte, 32<<10)
	for ctx.Err() == nil {
		n, err := rw.Read(buf)
		if n > 0 {
			if werr := s.feed(buf[:n]); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("zplsim: %w", err)
		}
	}
	return ctx.Err()
}

// stream is the parser state of one connection.
type stream struct {
	p      *Printer
	conn   int
	w      io.Writer
	tilde  []byte // a tilde command being received
	sd     []byte // the digits of ~SDnn being received
	win    []byte // the last bytes outside a format, to spot ^XA
	cur    []byte // the format being received
	inForm bool
}

func (s *stream) feed(b []byte) error {
	s.p.mu.Lock()
	s.p.received += len(b)
	s.p.mu.Unlock()
	for _, c := range b {
		if s.sd != nil {
			// ~SDnn: set darkness to nn (00-30), ZPL II guide, ~SD.
			s.sd = append(s.sd, c)
			if len(s.sd) == 2 {
				n := int(s.sd[0]-'0')*10 + int(s.sd[1]-'0')
				s.sd = nil
				s.p.mu.Lock()
				s.p.darkness = n
				s.p.mu.Unlock()
			}
			continue
		}
		if len(s.tilde) > 0 || c == '~' {
			s.tilde = append(s.tilde, c)
			if len(s.tilde) < 3 {
				continue
			}
			cmd := s.tilde
			s.tilde = nil
			switch string(cmd) {
			case zpl.HostStatusCommand:
				if err := s.answer(); err != nil {
					return err
				}
				continue
			case "~SD":
				s.sd = []byte{}
				continue
			case zpl.CalibrateCommand:
				s.p.mu.Lock()
				s.p.calib++
				s.p.mu.Unlock()
				continue
			}
			for _, x := range cmd { // another tilde command: keep as data
				s.data(x)
			}
			continue
		}
		s.data(c)
	}
	return nil
}

func (s *stream) data(c byte) {
	if !s.inForm {
		s.win = append(s.win, c)
		if len(s.win) > 3 {
			s.win = s.win[1:]
		}
		if string(s.win) == "^XA" {
			s.inForm = true
			s.cur = []byte("^XA")
			s.win = s.win[:0]
		}
		return
	}
	s.cur = append(s.cur, c)
	if bytes.HasSuffix(s.cur, []byte("^XZ")) {
		p := s.p
		p.mu.Lock()
		p.jobs = append(p.jobs, Job{Conn: s.conn, Data: s.cur})
		if p.opts.OnFormat != nil {
			p.opts.OnFormat(len(p.jobs), &p.status)
		}
		p.mu.Unlock()
		s.cur = nil
		s.inForm = false
	}
}

func (s *stream) answer() error {
	p := s.p
	p.mu.Lock()
	if p.opts.Mute {
		p.mu.Unlock()
		return nil
	}
	p.queries++
	reply := p.status.Encode()
	p.mu.Unlock()
	if _, err := s.w.Write(reply); err != nil {
		return fmt.Errorf("zplsim: reply: %w", err)
	}
	return nil
}
