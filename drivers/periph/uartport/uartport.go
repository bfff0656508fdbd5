package uartport

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/uart"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// Opts configures a Port.
type Opts struct {
	// ReadTimeout bounds each Read; 0 blocks until data arrives.
	ReadTimeout time.Duration
	// Chunk is the number of bytes asked of each Tx when the connection
	// is not an io.Reader (Tx waits until its buffer is full, so a
	// chunk of 1 is the only safe size for a reader that sends frames
	// of unknown length).
	Chunk int
}

// DefaultOpts reads one byte per Tx with a one-second read timeout.
var DefaultOpts = Opts{ReadTimeout: time.Second, Chunk: 1}

// Port is a UART connection as a port.Port and port.Timeouter.
type Port struct {
	c     conn.Conn
	chunk int

	data   chan chunk // from the pump
	closed chan struct{}
	once   sync.Once
	pump   sync.Once

	mu       sync.Mutex
	rTimeout time.Duration

	rmu sync.Mutex // one reader at a time; guards buf and err
	buf []byte
	err error
	wmu sync.Mutex
}

type chunk struct {
	b   []byte
	err error
}

var (
	_ port.Port      = (*Port)(nil)
	_ port.Timeouter = (*Port)(nil)
)

// New wraps a connection; a nil o means DefaultOpts. Nothing is read
// until the first Read.
func New(c conn.Conn, o *Opts) *Port {
	if o == nil {
		o = &DefaultOpts
	}
	n := o.Chunk
	if n <= 0 {
		n = 1
	}
	return &Port{c: c, chunk: n, rTimeout: o.ReadTimeout, data: make(chan chunk), closed: make(chan struct{})}
}

// Connect sets the UART's line as m says (periph's uart.Port.Connect,
// no flow control) and wraps the connection.
func Connect(p uart.Port, m port.Mode, o *Opts) (*Port, error) {
	bits := m.DataBits
	if bits == 0 {
		bits = 8
	}
	stop := uart.One
	if m.StopBits == 2 {
		stop = uart.Two
	}
	parity := uart.Parity(m.Parity)
	if m.Parity == 0 {
		parity = uart.NoParity
	}
	if m.Baud <= 0 {
		return nil, fmt.Errorf("uartport: %s: baud %d", p, m.Baud)
	}
	c, err := p.Connect(physic.Frequency(m.Baud)*physic.Hertz, stop, parity, uart.NoFlow, bits)
	if err != nil {
		return nil, fmt.Errorf("uartport: %s: %w", p, err)
	}
	return New(c, o), nil
}

// String names the connection.
func (p *Port) String() string { return p.c.String() }

// SetReadTimeout implements port.Timeouter.
func (p *Port) SetReadTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("uartport: negative read timeout %v", d)
	}
	p.mu.Lock()
	p.rTimeout = d
	p.mu.Unlock()
	return nil
}

// Read returns what the UART received, port.ErrTimeout (wrapped) when
// nothing came within the read timeout, and port.ErrClosed after Close.
func (p *Port) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	p.rmu.Lock()
	defer p.rmu.Unlock()
	if p.isClosed() {
		return 0, port.ErrClosed
	}
	if len(p.buf) == 0 && p.err == nil {
		p.pump.Do(func() { go p.run() })
		p.mu.Lock()
		d := p.rTimeout
		p.mu.Unlock()
		var timeout <-chan time.Time
		if d > 0 {
			t := time.NewTimer(d)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case c := <-p.data:
			p.buf, p.err = c.b, c.err
		case <-timeout:
			return 0, fmt.Errorf("uartport: %s: %w", p, port.ErrTimeout)
		case <-p.closed:
			return 0, port.ErrClosed
		}
	}
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	err := p.err
	return 0, err
}

// run reads the connection until it fails or the port closes.
func (p *Port) run() {
	r, isReader := p.c.(io.Reader)
	for {
		b := make([]byte, max(p.chunk, 64))
		var (
			n   int
			err error
		)
		if isReader {
			n, err = r.Read(b)
		} else {
			err = p.c.Tx(nil, b[:p.chunk])
			if err == nil {
				n = p.chunk
			}
		}
		switch {
		case err == nil && n == 0:
			continue // a read timeout of the underlying file
		case errors.Is(err, io.EOF):
			err = fmt.Errorf("uartport: %s: %w", p, port.ErrHangup)
		case err != nil:
			err = fmt.Errorf("uartport: %s: %w", p, err)
		}
		select {
		case p.data <- chunk{b[:n], err}:
		case <-p.closed:
			return
		}
		if err != nil {
			return
		}
	}
}

// Write sends b through Tx.
func (p *Port) Write(b []byte) (int, error) {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.isClosed() {
		return 0, port.ErrClosed
	}
	if len(b) == 0 {
		return 0, nil
	}
	if err := p.c.Tx(b, nil); err != nil {
		return 0, fmt.Errorf("uartport: %s: %w", p, err)
	}
	return len(b), nil
}

// Close stops the port; it closes the connection when the connection
// is an io.Closer, which ends a Tx blocked in the reading goroutine.
func (p *Port) Close() error {
	var err error
	p.once.Do(func() {
		close(p.closed)
		if c, ok := p.c.(io.Closer); ok {
			err = c.Close()
		}
	})
	if err != nil {
		return fmt.Errorf("uartport: %s: close: %w", p, err)
	}
	return nil
}

func (p *Port) isClosed() bool {
	select {
	case <-p.closed:
		return true
	default:
		return false
	}
}
