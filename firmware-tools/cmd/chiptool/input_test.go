package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chiptool input lists the devices that type digits by their by-id
// name, from a /dev and /sys laid out as udev and the kernel do.
func TestInputCommand(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("dev/input/event4", "")
	write("sys/class/input/event4/device/name", "GIGA-TMS PCR330A\n")
	write("sys/class/input/event4/device/capabilities/key", "1fffffff\n") // keys 0-28: digits and Enter
	write("dev/input/event5", "")
	write("sys/class/input/event5/device/name", "Power Button\n")
	write("sys/class/input/event5/device/capabilities/key", "10000000000000 0\n")
	if err := os.MkdirAll(filepath.Join(root, "dev/input/by-id"), 0o755); err != nil {
		t.Fatal(err)
	}
	byID := filepath.Join(root, "dev/input/by-id/usb-GIGA-TMS_PCR330A-event-kbd")
	if err := os.Symlink("../event4", byID); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "input", "--json", "--root", root)
	if code != 0 {
		t.Fatalf("input = %d, %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var got inputJSON
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &got) != nil {
		t.Fatalf("input printed %q, want the scanner only", out)
	}
	if want := (inputJSON{Name: byID, Device: filepath.Join(root, "dev/input/event4"), Kernel: "GIGA-TMS PCR330A", Keys: true}); got != want {
		t.Errorf("input = %+v, want %+v", got, want)
	}
	if code, out, _ := runCmd(t, "", "input", "--all", "--root", root); code != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("input --all = %d, %q, want both devices", code, out)
	}
	if code, _, _ := runCmd(t, "", "input", "extra"); code != 2 {
		t.Errorf("input extra = %d, want 2", code)
	}
}
