//go:build qemu && libusb && cgo

package qemutest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// modules are loaded in this order (each after what it needs).
var modules = []string{"usb-common", "usbcore", "xhci-hcd", "xhci-pci", "usbserial", "ftdi_sio", "hid", "usbhid", "hid-generic", "evdev"}

// missing skips the test, or fails it in CI, where it must run.
func missing(t *testing.T, format string, a ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, a...) + "; see drivers/port/usbport/qemutest/prepare.sh"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

func TestQEMUGuest(t *testing.T) {
	kdir := os.Getenv("CHIPDESK_QEMU_KERNEL")
	if kdir == "" {
		missing(t, "CHIPDESK_QEMU_KERNEL is not set (a Debian kernel package unpacked)")
	}
	qemu, err := exec.LookPath("qemu-system-x86_64")
	if err != nil {
		missing(t, "qemu-system-x86_64 not installed")
	}
	busybox, err := exec.LookPath("busybox")
	if err != nil {
		missing(t, "busybox (busybox-static) not installed")
	}
	kernels, _ := filepath.Glob(filepath.Join(kdir, "boot", "vmlinuz-*"))
	if len(kernels) == 0 {
		missing(t, "no boot/vmlinuz-* under %s", kdir)
	}
	dir := t.TempDir()

	// The guest test, built with cgo and libusb.
	guest := filepath.Join(dir, "guest.test")
	build := exec.Command("go", "test", "-c", "-tags", "qemu libusb", "-o", guest, "./guest")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the guest test: %v\n%s", err, out)
	}

	files := map[string]string{ // path in the guest → path here
		"/bin/busybox": busybox,
		"/guest.test":  guest,
	}
	libs, err := sharedLibs(guest)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range libs {
		files[l] = l
	}
	ko := map[string]string{}
	err = filepath.WalkDir(filepath.Join(kdir, "lib", "modules"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".ko") {
			ko[strings.TrimSuffix(d.Name(), ".ko")] = p
		}
		return err
	})
	if err != nil {
		missing(t, "no kernel modules under %s: %v", kdir, err)
	}
	var insmod []string
	for _, m := range modules {
		if ko[m] == "" {
			t.Fatalf("module %s.ko not found under %s (compressed modules are not supported)", m, kdir)
		}
		files["/modules/"+m+".ko"] = ko[m]
		insmod = append(insmod, "insmod /modules/"+m+".ko")
	}
	initScript := `#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mkdir -p /proc /sys /dev /tmp /run
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
` + strings.Join(insmod, "\n") + `
sleep 2
echo CHIPDESK-GUEST-START
CHIPDESK_IN_GUEST=1 /guest.test -test.v -test.run TestGuest
echo "CHIPDESK-GUEST-DONE rc=$?"
poweroff -f
`
	initrd := filepath.Join(dir, "initrd.gz")
	if err := writeInitramfs(initrd, files, initScript); err != nil {
		t.Fatal(err)
	}

	serSock := filepath.Join(dir, "ser.sock")
	monSock := filepath.Join(dir, "mon.sock")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, qemu,
		"-accel", "tcg", "-m", "512", "-nodefaults", "-display", "none", "-serial", "stdio",
		"-kernel", kernels[0], "-initrd", initrd,
		"-append", "console=ttyS0 quiet panic=-1", "-no-reboot",
		"-device", "qemu-xhci,id=xhci",
		"-chardev", "socket,id=s0,path="+serSock+",server=on,wait=off",
		"-device", "usb-serial,bus=xhci.0,chardev=s0,id=ftdi",
		"-device", "usb-kbd,bus=xhci.0",
		"-monitor", "unix:"+monSock+",server=on,wait=off",
	)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	// QEMU attaches the usb-serial device only while its chardev has a
	// client: connect now, before the guest enumerates.
	ser, err := dial(serSock)
	if err != nil {
		t.Fatalf("connecting to the FTDI's socket: %v (qemu stderr: %s)", err, stderr.String())
	}
	defer ser.Close()

	var console strings.Builder
	sc := bufio.NewScanner(stdout)
	done := false
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		console.WriteString(line + "\n")
		switch {
		case strings.Contains(line, "CHIPDESK-READY-FTDI"):
			// The adapter's other end: a reader sending one line.
			if _, err := io.WriteString(ser, "982000123456789\r\n"); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(line, "CHIPDESK-READY-KBD"):
			// A wedge scanner typing a chip number and Enter.
			if err := sendKeys(monSock, "985121004515220"); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(line, "CHIPDESK-READY-EVDEV-FREE"):
			// One key, for the reader that was locked out by the grab.
			if err := sendKeys(monSock, "1"); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(line, "CHIPDESK-READY-EVDEV"):
			// The same scanner, now read through the input subsystem.
			if err := sendKeys(monSock, "982000123456789"); err != nil {
				t.Fatal(err)
			}
		case strings.Contains(line, "CHIPDESK-GUEST-DONE"):
			done = true
		}
		if done {
			break
		}
	}
	out := console.String()
	t.Logf("guest console:\n%s", out)
	if !done {
		t.Fatalf("the guest did not finish (qemu stderr: %s)", stderr.String())
	}
	for _, want := range []string{"--- PASS: TestGuest/ftdi", "--- PASS: TestGuest/wedge", "--- PASS: TestGuest/evdev", "--- PASS: TestGuest", "CHIPDESK-GUEST-DONE rc=0"} {
		if !strings.Contains(out, want) {
			t.Errorf("guest output lacks %q", want)
		}
	}
}

// dial connects to a QEMU socket, waiting for QEMU to create it.
func dial(path string) (net.Conn, error) {
	var err error
	for range 100 {
		var c net.Conn
		if c, err = net.Dial("unix", path); err == nil {
			return c, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, err
}

// sendKeys types digits and Enter through the QEMU monitor (HMP sendkey).
func sendKeys(monSock, digits string) error {
	c, err := dial(monSock)
	if err != nil {
		return err
	}
	defer c.Close()
	for _, r := range digits {
		if _, err := fmt.Fprintf(c, "sendkey %c\n", r); err != nil {
			return err
		}
		time.Sleep(150 * time.Millisecond)
	}
	_, err = io.WriteString(c, "sendkey ret\n")
	time.Sleep(300 * time.Millisecond)
	return err
}

var lddRE = regexp.MustCompile(`(/\S+)\s+\(0x`)

// sharedLibs lists the libraries the binary loads, by absolute path.
func sharedLibs(bin string) ([]string, error) {
	out, err := exec.Command("ldd", bin).Output()
	if err != nil {
		return nil, fmt.Errorf("ldd %s: %w", bin, err)
	}
	var libs []string
	for _, m := range lddRE.FindAllStringSubmatch(string(out), -1) {
		libs = append(libs, m[1])
	}
	return libs, nil
}

// writeInitramfs writes a gzipped newc cpio archive holding files and
// /init.
func writeInitramfs(path string, files map[string]string, init string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z := gzip.NewWriter(f)
	w := &cpio{w: z, dirs: map[string]bool{}}
	w.file("/init", 0o755, []byte(init))
	for dst, src := range files {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		w.file(dst, 0o755, b)
	}
	w.trailer()
	if w.err != nil {
		return w.err
	}
	if err := z.Close(); err != nil {
		return err
	}
	return f.Close()
}

// cpio writes the "newc" format (header magic 070701, as the kernel's
// initramfs loader reads it).
type cpio struct {
	w    io.Writer
	ino  int
	dirs map[string]bool
	err  error
}

func (c *cpio) entry(name string, mode int, data []byte) {
	if c.err != nil {
		return
	}
	c.ino++
	name = strings.TrimPrefix(name, "/")
	hdr := fmt.Sprintf("070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		c.ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name)+1, 0)
	buf := append([]byte(hdr), name...)
	buf = append(buf, 0)
	for len(buf)%4 != 0 {
		buf = append(buf, 0)
	}
	buf = append(buf, data...)
	for len(buf)%4 != 0 {
		buf = append(buf, 0)
	}
	_, c.err = c.w.Write(buf)
}

func (c *cpio) file(name string, perm int, data []byte) {
	dir := filepath.Dir(name)
	var parents []string
	for d := dir; d != "/" && d != "." && !c.dirs[d]; d = filepath.Dir(d) {
		parents = append([]string{d}, parents...)
	}
	for _, d := range parents {
		c.dirs[d] = true
		c.entry(d, 0o040755, nil)
	}
	c.entry(name, 0o100000|perm, data)
}

func (c *cpio) trailer() { c.entry("TRAILER!!!", 0, nil) }
