//go:build linux

package serialport

import (
	"go.bug.st/serial"

	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
)

// The port is opened exclusively: a second open fails with ErrBusy.
// Root bypasses TIOCEXCL, so under root the check runs in a child
// process as user nobody (65534).
func TestExclusive(t *testing.T) {
	if path := os.Getenv("SERIALPORT_EXCL_PATH"); path != "" {
		checkExclusive(t, path)
		return
	}
	t.Parallel()
	dev, err := porttest.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if os.Geteuid() != 0 {
		checkExclusive(t, dev.Path())
		return
	}
	if err := os.Chmod(dev.Path(), 0o666); err != nil {
		t.Fatal(err)
	}
	// The test binary sits in a directory only root may enter: copy it.
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "serialport-excl")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, "serialport.test")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestExclusive$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SERIALPORT_EXCL_PATH="+dev.Path())
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestExclusive") {
		t.Fatalf("child as nobody: %v\n%s", err, out)
	}
}

func checkExclusive(t *testing.T, path string) {
	p, err := Open(path, nil)
	if err != nil {
		t.Fatalf("first Open(%s) = %v", path, err)
	}
	defer p.Close()
	q, err := Open(path, nil)
	if err == nil {
		q.Close()
		t.Fatalf("second Open(%s) = nil error, want ErrBusy", path)
	}
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("second Open(%s) = %v, want ErrBusy", path, err)
	}
	// The library's own typed error is still reachable, under one
	// prefix of ours.
	var pe *serial.PortError
	if !errors.As(err, &pe) || pe.Code() != serial.PortBusy {
		t.Errorf("second Open(%s) = %v: errors.As finds no serial.PortError with PortBusy", path, err)
	}
	if n := strings.Count(err.Error(), "serialport:"); n != 1 {
		t.Errorf("second Open(%s) = %q: %d serialport prefixes, want 1", path, err, n)
	}
	p.Close()
	r, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open(%s) after the holder closed = %v", path, err)
	}
	r.Close()
}
