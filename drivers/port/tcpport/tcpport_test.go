package tcpport

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
)

// listen starts a loopback listener whose first connection is passed to
// serve.
func listen(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		serve(c)
	}()
	return ln.Addr().String()
}

func TestPortErrors(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	addr := listen(t, func(c net.Conn) {
		buf := make([]byte, 5)
		io.ReadFull(c, buf)
		c.Write(buf)
		<-release
		c.Close()
	})
	ctx := context.Background()
	p, err := Dial(ctx, addr, &Opts{ReadTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got, want := p.String(), "tcp "+addr; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if _, err := p.Write([]byte("hello")); err != nil {
		t.Fatalf("Write: %v", err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(p, buf); err != nil || string(buf) != "hello" {
		t.Fatalf("Read = %q, %v, want hello", buf, err)
	}
	if n, err := p.Read(buf); n != 0 || !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Read with no data = %d, %v, want 0, ErrTimeout", n, err)
	}
	close(release)
	if err := p.SetReadTimeout(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Read(buf); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Read after peer close = %v, want ErrHangup", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if _, err := p.Read(buf); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Read after Close = %v, want ErrClosed", err)
	}
	if _, err := p.Write(buf); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
	if err := p.SetReadTimeout(-1); err == nil {
		t.Error("SetReadTimeout(-1) = nil, want error")
	}
}

func TestWithPort(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"host only", "printer.local", "printer.local:9100"},
		{"ipv4", "192.0.2.7", "192.0.2.7:9100"},
		{"ipv6", "2001:db8::7", "[2001:db8::7]:9100"},
		{"with port", "192.0.2.7:6101", "192.0.2.7:6101"},
	}
	for _, tt := range tests {
		if got := withPort(tt.in); got != tt.want {
			t.Errorf("%s: withPort(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}
