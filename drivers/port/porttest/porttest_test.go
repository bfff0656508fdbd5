package porttest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port"
	"github.com/chipdesk/chipdesk/internal/testtime"
)

func TestPlayback(t *testing.T) {
	t.Parallel()
	p := &Playback{Name: "dev", Ops: []IO{
		{R: []byte("hello\r")},
		{W: []byte("VER\r"), R: []byte("V1\r")},
	}}
	buf := make([]byte, 16)
	if n, err := p.Read(buf); err != nil || string(buf[:n]) != "hello\r" {
		t.Fatalf("Read() = %q, %v", buf[:n], err)
	}
	if _, err := p.Read(buf); !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Read() before the write = %v, want port.ErrTimeout", err)
	}
	// The write may come in pieces.
	for _, w := range []string{"VE", "R\r"} {
		if _, err := p.Write([]byte(w)); err != nil {
			t.Fatalf("Write(%q) = %v", w, err)
		}
	}
	if n, err := p.Read(buf); err != nil || string(buf[:n]) != "V1\r" {
		t.Fatalf("Read() = %q, %v", buf[:n], err)
	}
	if err := p.Done(); err != nil {
		t.Error(err)
	}
	if _, err := p.Read(buf); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Read() after the script = %v, want port.ErrHangup", err)
	}
	if _, err := p.Write([]byte("X")); !errors.Is(err, ErrUnexpected) {
		t.Errorf("Write() after the script = %v, want ErrUnexpected", err)
	}
	p.Close()
	if _, err := p.Read(buf); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Read() after Close = %v, want port.ErrClosed", err)
	}
}

func TestPlaybackMismatch(t *testing.T) {
	t.Parallel()
	p := &Playback{Ops: []IO{{W: []byte("SRA\r"), R: []byte("OK\r")}}}
	if _, err := p.Write([]byte("SRD\r")); !errors.Is(err, ErrUnexpected) {
		t.Errorf("Write(SRD) = %v, want ErrUnexpected", err)
	}
	if err := p.Done(); err == nil {
		t.Error("Done() = nil with the script unplayed")
	}
}

// Record keeps what went each way, and its Ops replay as a Playback.
func TestRecordReplays(t *testing.T) {
	t.Parallel()
	host, dev := Pipe("rec")
	rec := &Record{Port: host}
	go func() {
		b := make([]byte, 16)
		n, _ := dev.Read(b)
		dev.Write(bytes.ToUpper(b[:n]))
	}()
	if _, err := rec.Write([]byte("ver\r")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 4)
	if _, err := io.ReadFull(rec, got); err != nil {
		t.Fatal(err)
	}
	want := []IO{{W: []byte("ver\r"), R: []byte("VER\r")}}
	if fmt.Sprintf("%q", rec.Ops) != fmt.Sprintf("%q", want) {
		t.Fatalf("Ops = %q, want %q", rec.Ops, want)
	}
	pb := &Playback{Ops: rec.Ops}
	pb.Write([]byte("ver\r"))
	b := make([]byte, 8)
	if n, err := pb.Read(b); err != nil || string(b[:n]) != "VER\r" {
		t.Errorf("replay Read() = %q, %v", b[:n], err)
	}
}

func TestPipe(t *testing.T) {
	t.Parallel()
	host, dev := Pipe("pipe")
	host.SetReadTimeout(20 * time.Millisecond)
	b := make([]byte, 8)
	if _, err := host.Read(b); !errors.Is(err, port.ErrTimeout) {
		t.Errorf("Read() with nothing sent = %v, want port.ErrTimeout", err)
	}
	dev.Write([]byte("abc"))
	dev.Close()
	if n, err := host.Read(b); err != nil || string(b[:n]) != "abc" {
		t.Errorf("Read() = %q, %v; bytes sent before a hang-up are read first", b[:n], err)
	}
	if _, err := host.Read(b); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Read() after the device closed = %v, want port.ErrHangup", err)
	}
	if _, err := host.Write(b); !errors.Is(err, port.ErrHangup) {
		t.Errorf("Write() after the device closed = %v, want port.ErrHangup", err)
	}
	host.SetMode(port.Mode{Baud: 9600, StopBits: 2})
	if m := host.Mode(); m.Baud != 9600 || len(host.Modes()) != 1 {
		t.Errorf("Mode() = %+v", m)
	}
	host.Close()
	if _, err := host.Read(b); !errors.Is(err, port.ErrClosed) {
		t.Errorf("Read() after Close = %v, want port.ErrClosed", err)
	}
}

// Close wakes a Read blocked on the same end.
func TestPipeCloseWakesRead(t *testing.T) {
	t.Parallel()
	host, _ := Pipe("pipe")
	done := make(chan error)
	go func() {
		_, err := host.Read(make([]byte, 1))
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	host.Close()
	select {
	case err := <-done:
		if !errors.Is(err, port.ErrClosed) {
			t.Errorf("Read() = %v, want port.ErrClosed", err)
		}
	case <-time.After(testtime.Scale(2 * time.Second)):
		t.Fatal("Read did not return after Close")
	}
}
