package uartport_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/uart"

	"github.com/chipdesk/chipdesk/drivers/periph/uartport"
	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/drivers/readers/wl134"
	"github.com/chipdesk/chipdesk/reader"
)

// bytewise returns playback ops that deliver b one byte per Tx, as a
// UART conn with a one-byte read buffer sees it.
func bytewise(b []byte) []conntest.IO {
	ops := make([]conntest.IO, len(b))
	for i := range b {
		ops[i] = conntest.IO{R: b[i : i+1]}
	}
	return ops
}

// wl134Frame is the WL-134A sheet's example (rfid-protocols §7.1):
// 900 250000023921, animal, FDX-B end byte.
var wl134Frame = []byte{0x02, 0x31, 0x37, 0x31, 0x41, 0x39, 0x32, 0x35, 0x33, 0x41, 0x33, 0x34, 0x38, 0x33,
	0x30, 0x30, 0x31, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x30, 0x07, 0xF8, 0x03}

// TestWL134OnUART runs the serial reader driver of drivers/readers/wl134,
// unchanged, on a periph UART connection.
func TestWL134OnUART(t *testing.T) {
	t.Parallel()
	pb := &conntest.Playback{Ops: bytewise(append(append([]byte{0x55, 0x00}, wl134Frame...), wl134Frame...)), DontPanic: true}
	p := uartport.New(pb, nil)
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	d, err := wl134.New(p, &wl134.Opts{Mode: wl134.Mode, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 2 {
		r, err := d.Next(ctx)
		if err != nil {
			t.Fatalf("Next #%d = %v", i, err)
		}
		if r.ID.Code != "900250000023921" || r.Protocol != reader.AirISO || !r.At.Equal(at) {
			t.Errorf("Next #%d = %s %s at %v, want 900250000023921 ISO", i, r.ID.Code, r.Protocol, r.At)
		}
	}
	// The playback is used up: the next Tx fails, and Next says so.
	if _, err := d.Next(ctx); err == nil || errors.Is(err, reader.ErrClosed) {
		t.Errorf("Next past the script = %v, want an error", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close = %v (a playback op left unused?)", err)
	}
}

// slowConn blocks in Tx until released, as a UART read with no data.
type slowConn struct {
	conntest.Discard
	release chan []byte
	closed  chan struct{}
}

func (s *slowConn) Tx(w, r []byte) error {
	if len(r) == 0 {
		return nil
	}
	select {
	case b := <-s.release:
		copy(r, b)
		return nil
	case <-s.closed:
		return io.EOF
	}
}

func (s *slowConn) Close() error { close(s.closed); return nil }

func TestReadTimeoutAndClose(t *testing.T) {
	t.Parallel()
	c := &slowConn{release: make(chan []byte), closed: make(chan struct{})}
	p := uartport.New(c, &uartport.Opts{ReadTimeout: 20 * time.Millisecond})
	buf := make([]byte, 4)
	if n, err := p.Read(buf); n != 0 || !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Read with no data = %d, %v, want 0, ErrTimeout", n, err)
	}
	go func() { c.release <- []byte{'A'} }()
	if err := p.SetReadTimeout(0); err != nil {
		t.Fatal(err)
	}
	if n, err := p.Read(buf); n != 1 || buf[0] != 'A' || err != nil {
		t.Errorf("Read = %d %q, %v, want 1 'A'", n, buf[:n], err)
	}
	errc := make(chan error)
	go func() {
		_, err := p.Read(buf)
		errc <- err
	}()
	time.Sleep(10 * time.Millisecond)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, port.ErrClosed) {
		t.Errorf("Read during Close = %v, want ErrClosed", err)
	}
	if _, err := p.Write([]byte("x")); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
	if err := p.SetReadTimeout(-time.Second); err == nil {
		t.Error("SetReadTimeout(-1s) = nil")
	}
}

// readerConn is a conn that is also an io.Reader, as periph's host
// serial conn is; Read may return fewer bytes than asked.
type readerConn struct {
	conntest.Discard
	r io.Reader
}

func (c *readerConn) Read(b []byte) (int, error) { return c.r.Read(b) }

func TestReaderConnAndHangup(t *testing.T) {
	t.Parallel()
	p := uartport.New(&readerConn{r: bytes.NewReader([]byte("LA 982 000001088420\r\n"))}, &uartport.Opts{Chunk: 1})
	got, err := io.ReadAll(io.LimitReader(p, 21))
	if err != nil || string(got) != "LA 982 000001088420\r\n" {
		t.Errorf("Read = %q, %v", got, err)
	}
	if _, err := p.Read(make([]byte, 8)); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Read at EOF = %v, want ErrHangup", err)
	}
}

func TestWrite(t *testing.T) {
	t.Parallel()
	pb := &conntest.Playback{Ops: []conntest.IO{{W: []byte("RAT\r")}}, DontPanic: true}
	p := uartport.New(pb, nil)
	if n, err := p.Write([]byte("RAT\r")); n != 4 || err != nil {
		t.Errorf("Write = %d, %v", n, err)
	}
	if _, err := p.Write([]byte("XX")); err == nil {
		t.Error("Write off the script = nil error")
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
}

// fakeUART records the line Connect was asked for.
type fakeUART struct {
	f      physic.Frequency
	stop   uart.Stop
	parity uart.Parity
	bits   int
}

func (u *fakeUART) String() string { return "UART1" }

func (u *fakeUART) Connect(f physic.Frequency, stop uart.Stop, parity uart.Parity, flow uart.Flow, bits int) (conn.Conn, error) {
	u.f, u.stop, u.parity, u.bits = f, stop, parity, bits
	return &conntest.Discard{}, nil
}

func TestConnectSetsLine(t *testing.T) {
	t.Parallel()
	u := &fakeUART{}
	// 9600 8N2, as the CZSTAR-R134 table gives its transmitter.
	m8n2 := port.Mode{Baud: 9600, DataBits: 8, Parity: port.ParityNone, StopBits: 2}
	if _, err := uartport.Connect(u, m8n2, nil); err != nil {
		t.Fatal(err)
	}
	if u.f != 9600*physic.Hertz || u.stop != uart.Two || u.parity != uart.NoParity || u.bits != 8 {
		t.Errorf("Connect(%v) set %v %d%c%d", m8n2, u.f, u.bits, u.parity, u.stop)
	}
	if _, err := uartport.Connect(u, port.Mode{}, nil); err == nil {
		t.Error("Connect with baud 0 = nil error")
	}
}
