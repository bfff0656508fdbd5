package usbids_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/printers/brotherql"
	"github.com/chipdesk/chipdesk/drivers/usbids"
)

var update = flag.Bool("update", false, "rewrite the udev rules in deploy/udev")

// rulesFile is the committed rules, generated from the table.
var rulesFile = filepath.Join("..", "..", "deploy", "udev", "99-chipdesk.rules")

func TestTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, e := range usbids.All() {
		if seen[e.ID()] {
			t.Errorf("%s listed twice", e.ID())
		}
		seen[e.ID()] = true
		if e.Name == "" || e.Family == "" || e.Driver == "" {
			t.Errorf("%s: empty name, family or driver: %+v", e.ID(), e)
		}
		if usbids.Vendor(e.VID) == "" {
			t.Errorf("%s: vendor 0x%04x has no name", e.ID(), e.VID)
		}
		if e.PID == 0 && e.Kind == usbids.Serial {
			t.Errorf("%s: a whole vendor cannot be a serial bridge (vendors make other things)", e.ID())
		}
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		vid, pid uint16
		want     string // family, "" when unknown
		kind     usbids.Kind
	}{
		{"FT232R", 0x0403, 0x6001, "ftdi", usbids.Serial},
		{"CP2102", 0x10c4, 0xea60, "cp210x", usbids.Serial},
		{"CH340", 0x1a86, 0x7523, "ch34x", usbids.Serial},
		{"PL2303", 0x067b, 0x2303, "pl2303", usbids.Serial},
		{"QL-700 (printers-engravers §2.1)", 0x04f9, 0x2042, "brother-ql", usbids.Printer},
		{"QL-700 in mass-storage mode is not a printer", 0x04f9, 0x2049, "", ""},
		{"any Zebra (vendor 0x0A5F)", 0x0a5f, 0x0141, "zpl", usbids.Printer},
		{"GIGA-TMS PCR330A", 0x1667, 0x0005, "hid", usbids.HIDScanner},
		{"FTDI product not in the table", 0x0403, 0x1234, "", ""},
		{"unknown vendor", 0xffff, 0x0035, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := usbids.Lookup(tc.vid, tc.pid)
			if ok != (tc.want != "") || e.Family != tc.want || e.Kind != tc.kind {
				t.Errorf("Lookup(%04x, %04x) = %+v, %v, want family %q kind %q", tc.vid, tc.pid, e, ok, tc.want, tc.kind)
			}
		})
	}
	if e, ok := usbids.LookupHex("0403", "6001"); !ok || e.Name != "FT232 Serial (UART) IC" {
		t.Errorf("LookupHex(0403, 6001) = %+v, %v", e, ok)
	}
	if _, ok := usbids.LookupHex("", ""); ok {
		t.Error("LookupHex of a non-USB port found an entry")
	}
}

func TestIsCDCACM(t *testing.T) {
	t.Parallel()
	if !usbids.IsCDCACM(2, 2) || usbids.IsCDCACM(2, 6) || usbids.IsCDCACM(0xff, 2) {
		t.Error("IsCDCACM wrong (CDC 1.2: class 0x02, subclass 0x02 is ACM)")
	}
}

func TestUdevGolden(t *testing.T) {
	got, err := usbids.Udev(usbids.DefaultGroup)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(rulesFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s is not what Udev writes; run go test ./drivers/usbids -update", rulesFile)
	}
}

// ruleRE is one udev key: KEY or KEY{attr}, an operator, a quoted value
// (udev(7) "Rules files").
var ruleRE = regexp.MustCompile(`^([A-Z_]+)(\{[A-Za-z_]+\})?(==|!=|\+=|=|:=)"([^"]*)"$`)

func TestUdevSyntax(t *testing.T) {
	t.Parallel()
	s, err := usbids.Udev("plugdev")
	if err != nil {
		t.Fatal(err)
	}
	matchKeys := map[string]bool{"ACTION": true, "SUBSYSTEM": true, "KERNEL": true, "ATTR": true, "ATTRS": true, "ENV": true}
	assignKeys := map[string]bool{"GROUP": true, "MODE": true, "SYMLINK": true, "ENV": true, "GOTO": true}
	labels, gotos := map[string]bool{}, map[string]bool{}
	symlinks := 0
	for n, line := range strings.Split(s, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if l, ok := strings.CutPrefix(line, "LABEL="); ok {
			labels[strings.Trim(l, `"`)] = true
			continue
		}
		assigned := false
		for _, kv := range strings.Split(line, ", ") {
			m := ruleRE.FindStringSubmatch(kv)
			if m == nil {
				t.Fatalf("line %d: %q: not KEY op \"value\"", n+1, kv)
			}
			key, op, val := m[1], m[3], m[4]
			if op == "==" || op == "!=" {
				if assigned || !matchKeys[key] {
					t.Errorf("line %d: match %q after an assignment or not a match key", n+1, kv)
				}
				continue
			}
			assigned = true
			if !assignKeys[key] {
				t.Errorf("line %d: %q is not an assignment key we use", n+1, key)
			}
			switch key {
			case "GOTO":
				gotos[val] = true
			case "SYMLINK":
				symlinks++
				if !strings.HasPrefix(val, "chipreader-") || strings.Contains(val, "/") {
					t.Errorf("line %d: symlink %q is not /dev/chipreader-*", n+1, val)
				}
			case "GROUP":
				if val != "plugdev" {
					t.Errorf("line %d: group %q, want plugdev", n+1, val)
				}
			}
		}
		if !assigned {
			t.Errorf("line %d: %q assigns nothing", n+1, line)
		}
	}
	for g := range gotos {
		if !labels[g] {
			t.Errorf("GOTO %q has no LABEL", g)
		}
	}
	if want := 2 * len(usbids.OfKind(usbids.Serial)); symlinks != want {
		t.Errorf("%d symlink rules, want %d (two per serial bridge)", symlinks, want)
	}
	if _, err := usbids.Udev(`x", MODE="0666`); err == nil {
		t.Error("Udev accepted a group name that injects a key")
	}
}

// TestBrotherModelsAgree keeps the printer table in step with the
// models the Brother QL driver knows (both from usb.ids).
func TestBrotherModelsAgree(t *testing.T) {
	t.Parallel()
	for _, m := range brotherql.Models {
		e, ok := usbids.Lookup(brotherql.VendorID, m.ProductID)
		if !ok || e.Kind != usbids.Printer || e.Family != "brother-ql" || e.Name != m.Name {
			t.Errorf("Lookup(%04x, %04x) = %+v, %v, want printer brother-ql %s", brotherql.VendorID, m.ProductID, e, ok, m.Name)
		}
	}
	for _, e := range usbids.OfKind(usbids.Printer) {
		if e.Family != "brother-ql" {
			continue
		}
		found := false
		for _, m := range brotherql.Models {
			found = found || m.ProductID == e.PID
		}
		if !found {
			t.Errorf("%s %s is not a model of drivers/printers/brotherql", e.ID(), e.Name)
		}
	}
}
