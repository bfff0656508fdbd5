//go:build linux

package porttest

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestPTYHangupWithChildProcess starts a child process after NewPTY: the
// child must not inherit the master (close-on-exec, fcntl(2)
// F_DUPFD_CLOEXEC), or the master stays open in the child and the
// reader of the terminal side never sees the hang-up.
func TestPTYHangupWithChildProcess(t *testing.T) {
	t.Parallel()
	p, err := NewPTY()
	if err != nil {
		t.Fatalf("NewPTY() = %v", err)
	}
	term, err := os.OpenFile(p.Path(), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		p.Close()
		t.Fatal(err)
	}
	defer term.Close()
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		p.Close()
		t.Fatalf("starting a child process: %v", err)
	}
	defer func() {
		child.Process.Kill()
		child.Wait()
	}()
	if err := p.Hangup(); err != nil {
		t.Fatalf("Hangup() = %v", err)
	}
	if err := term.SetReadDeadline(time.Now().Add(3 * time.Second)); err != nil {
		t.Fatalf("SetReadDeadline() = %v", err)
	}
	_, err = term.Read(make([]byte, 16))
	if err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("Read() of the terminal side after Hangup with a child running = %v, want a hang-up (EIO)", err)
	}
}
