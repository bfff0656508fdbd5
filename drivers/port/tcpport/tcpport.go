package tcpport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// DefaultPort is the raw printing port.
const DefaultPort = "9100"

// Opts configures a Port.
type Opts struct {
	// ReadTimeout bounds one Read; 0 blocks until data arrives.
	ReadTimeout time.Duration
	// WriteTimeout bounds one Write; 0 means no limit.
	WriteTimeout time.Duration
	// Now is the clock used for deadlines.
	Now func() time.Time
}

// DefaultOpts are the options used when nil is passed.
var DefaultOpts = Opts{ReadTimeout: 2 * time.Second, WriteTimeout: 10 * time.Second, Now: time.Now}

// Port is a TCP connection used as a port.Port.
type Port struct {
	c    net.Conn
	name string
	now  func() time.Time

	mu     sync.Mutex
	rt, wt time.Duration
	closed bool
}

var (
	_ port.Port      = (*Port)(nil)
	_ port.Timeouter = (*Port)(nil)
)

// Dial connects to addr ("host" or "host:port"; the port defaults to
// 9100).
func Dial(ctx context.Context, addr string, o *Opts) (*Port, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", withPort(addr))
	if err != nil {
		return nil, fmt.Errorf("tcpport: %w", err)
	}
	return New(c, o), nil
}

// withPort adds the default port to an address that has none.
func withPort(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return net.JoinHostPort(addr, DefaultPort)
	}
	return addr
}

// New wraps an open connection.
func New(c net.Conn, o *Opts) *Port {
	if o == nil {
		o = &DefaultOpts
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Port{c: c, name: "tcp " + c.RemoteAddr().String(), now: now, rt: o.ReadTimeout, wt: o.WriteTimeout}
}

// String names the port, as in "tcp 192.0.2.7:9100".
func (p *Port) String() string { return p.name }

// SetReadTimeout implements port.Timeouter.
func (p *Port) SetReadTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("tcpport: negative read timeout %v", d)
	}
	p.mu.Lock()
	p.rt = d
	p.mu.Unlock()
	return nil
}

func (p *Port) state() (rt, wt time.Duration, closed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rt, p.wt, p.closed
}

// Read implements io.Reader with the port.Port error conventions.
func (p *Port) Read(b []byte) (int, error) {
	rt, _, closed := p.state()
	if closed {
		return 0, fmt.Errorf("tcpport: read: %w", port.ErrClosed)
	}
	var dl time.Time
	if rt > 0 {
		dl = p.now().Add(rt)
	}
	if err := p.c.SetReadDeadline(dl); err != nil {
		return 0, p.mapErr("read", err)
	}
	n, err := p.c.Read(b)
	if err != nil {
		return n, p.mapErr("read", err)
	}
	return n, nil
}

// Write implements io.Writer with the port.Port error conventions.
func (p *Port) Write(b []byte) (int, error) {
	_, wt, closed := p.state()
	if closed {
		return 0, fmt.Errorf("tcpport: write: %w", port.ErrClosed)
	}
	var dl time.Time
	if wt > 0 {
		dl = p.now().Add(wt)
	}
	if err := p.c.SetWriteDeadline(dl); err != nil {
		return 0, p.mapErr("write", err)
	}
	n, err := p.c.Write(b)
	if err != nil {
		return n, p.mapErr("write", err)
	}
	return n, nil
}

// Close closes the connection; later calls return nil.
func (p *Port) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	if err := p.c.Close(); err != nil {
		return fmt.Errorf("tcpport: close: %w", err)
	}
	return nil
}

func (p *Port) mapErr(op string, err error) error {
	if _, _, closed := p.state(); closed {
		return fmt.Errorf("tcpport: %s: %w", op, port.ErrClosed)
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("tcpport: %s: %w", op, port.ErrTimeout)
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		return fmt.Errorf("tcpport: %s: %w: %w", op, port.ErrHangup, err)
	}
	return fmt.Errorf("tcpport: %s: %w", op, err)
}
