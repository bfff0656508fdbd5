package main

import (
	"encoding/binary"
	"github.com/chipdesk/chipdesk/reader/readertest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// pm3Dir is the folder of the shared Proxmark captures.
func pm3Dir(t testing.TB) string { return filepath.Join(readertest.Vectors(t), "pm3") }

func TestTraceDecodeCaptures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		file     string
		args     []string
		code     int
		protocol string
		chip     string
		ext      string
		count    float64
	}{
		{name: "fdxb animal", file: "lf_ATA5577_fdxb_animal.pm3", protocol: "FDX-B", chip: "999000000112233", ext: "000000", count: 1},
		{name: "fdxb bio-thermo", file: "lf_FDXB_Bio-Thermo.pm3", protocol: "FDX-B", chip: "999000000112233", ext: "00016A", count: 1},
		{name: "real ear tag, repeats counted", file: "lf_EM4x05.pm3", protocol: "FDX-B", chip: "124000270601654", ext: "000000", count: 11},
		{name: "fdx-a", file: "lf_EM4305_fdxa_destron.pm3", protocol: "FDX-A", chip: "0000013531", count: 2},
		{name: "hdx", file: "lf_TI.pm3", protocol: "HDX", count: 1},
		{name: "EM4102 negative control", file: "lf_EM4102-1.pm3", code: 1},
		{name: "HomeAgain strict", file: "lf_HomeAgain.pm3", code: 1},
		{name: "HomeAgain circular", file: "lf_HomeAgain.pm3", args: []string{"--circular"}, protocol: "FDX-B", chip: "985121004515220", ext: "000000", count: 1},
		{name: "protocol filter", file: "lf_EM4305_fdxa_destron.pm3", args: []string{"--protocol", "fdxb,hdx"}, code: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(pm3Dir(t), tt.file)
			args := append([]string{"trace", "decode", path}, tt.args...)
			code, out, errOut := runCmd(t, "", args...)
			if code != tt.code {
				t.Fatalf("trace decode %s = exit %d (%s), want %d", tt.file, code, errOut, tt.code)
			}
			if tt.code != 0 {
				if out != "" {
					t.Errorf("stdout %q with no telegram, want nothing", out)
				}
				return
			}
			lines := parseLines(t, out)
			if len(lines) != 1 {
				t.Fatalf("trace decode %s printed %d objects, want 1:\n%s", tt.file, len(lines), out)
			}
			m := lines[0]
			for _, k := range []string{"file", "protocol", "code", "animal", "data_block", "ext", "crc_ok", "offset", "count", "quality"} {
				if _, ok := m[k]; !ok {
					t.Errorf("no %q in %v", k, m)
				}
			}
			if m["file"] != path || m["protocol"] != tt.protocol || m["crc_ok"] != true || m["count"] != tt.count {
				t.Errorf("trace decode %s = %v, want %s ×%v", tt.file, m, tt.protocol, tt.count)
			}
			if tt.chip != "" && m["code"] != tt.chip {
				t.Errorf("code = %v, want %s", m["code"], tt.chip)
			}
			if tt.ext != "" && m["ext"] != tt.ext {
				t.Errorf("ext = %v, want %s", m["ext"], tt.ext)
			}
		})
	}
}

func TestTraceDecodeErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pm3")
	if err := os.WriteFile(bad, []byte("12\n-3\nhello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(dir, "odd.s16")
	if err := os.WriteFile(odd, []byte{1, 2, 3}, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"missing file", []string{"trace", "decode", filepath.Join(dir, "nope.pm3")}, 2},
		{"not a sample", []string{"trace", "decode", bad}, 2},
		{"odd int16 file", []string{"trace", "decode", odd}, 2},
		{"no file", []string{"trace", "decode"}, 2},
		{"bad protocol", []string{"trace", "decode", bad, "--protocol", "em4100"}, 2},
		{"unknown subcommand", []string{"trace", "play"}, 2},
		{"synth without code", []string{"trace", "synth"}, 2},
		{"synth bad code", []string{"trace", "synth", "12345"}, 2},
		{"synth bad duty", []string{"trace", "synth", "999000000112233", "--duty", "1.5"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, _ := runCmd(t, "", tt.args...)
			if code != tt.code || out != "" {
				t.Errorf("chiptool %v = exit %d, stdout %q; want %d and nothing", tt.args, code, out, tt.code)
			}
		})
	}
}

// TestTraceSynthRoundTrip: what synth writes, decode reads back, for
// every protocol and with the impairments of the contract.
func TestTraceSynthRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		protocol string
		chip     string
	}{
		{"fdxb clean", []string{"985121004515220"}, "FDX-B", "985121004515220"},
		{"fdxb impaired", []string{"999000000112233", "--noise", "0.5", "--drift", "0.02", "--invert", "--duty", "0.6", "--repeats", "4", "--seed", "7"}, "FDX-B", "999000000112233"},
		{"flags first", []string{"--drift", "-0.02", "982000123456789", "--noise", "0.3"}, "FDX-B", "982000123456789"},
		{"hdx", []string{"985121004515220", "--protocol", "hdx", "--noise", "0.1"}, "HDX", "985121004515220"},
		{"fdx-a", []string{"0000013531", "--protocol", "fdxa", "--noise", "0.5", "--drift", "0.02"}, "FDX-A", "0000013531"},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCmd(t, "", append([]string{"trace", "synth"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("synth %v = exit %d: %s", tt.args, code, errOut)
			}
			first := strings.SplitN(out, "\n", 2)[0]
			if _, err := strconv.Atoi(first); err != nil {
				t.Fatalf("synth output does not start with a sample: %q", first)
			}
			path := filepath.Join(dir, strconv.Itoa(i)+".pm3")
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut = runCmd(t, "", "trace", "decode", path)
			if code != 0 {
				t.Fatalf("decode of synth %v = exit %d: %s", tt.args, code, errOut)
			}
			lines := parseLines(t, out)
			if len(lines) != 1 || lines[0]["protocol"] != tt.protocol || lines[0]["code"] != tt.chip {
				t.Errorf("decode of synth %v = %v, want one %s %s", tt.args, lines, tt.protocol, tt.chip)
			}
		})
	}
}

// TestTraceDecodeRaw16: the raw little-endian int16 form gives the same
// reads as the .pm3 text.
func TestTraceDecodeRaw16(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(t, "", "trace", "synth", "999000000112233", "--noise", "0.2")
	if code != 0 {
		t.Fatal("synth failed")
	}
	var raw []byte
	for _, l := range strings.Fields(out) {
		v, err := strconv.Atoi(l)
		if err != nil {
			t.Fatal(err)
		}
		raw = binary.LittleEndian.AppendUint16(raw, uint16(int16(v*100)))
	}
	path := filepath.Join(t.TempDir(), "c.s16")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "trace", "decode", path)
	if code != 0 {
		t.Fatalf("decode int16 = exit %d: %s", code, errOut)
	}
	if l := parseLines(t, out); len(l) != 1 || l[0]["code"] != "999000000112233" {
		t.Errorf("decode int16 = %v, want 999000000112233", l)
	}
}
