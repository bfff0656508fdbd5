//go:build linux

package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func TestConfigShowRFIDRW(t *testing.T) {
	t.Parallel()
	s := startSim(t, "rfidrw", nil)
	code, out, errOut := runCmd(t, "", "config", s.Path(), "--protocol", "rfidrw", "show")
	if code != 0 {
		t.Fatalf("config show = %d, %s", code, errOut)
	}
	got := parseLines(t, out)
	if len(got) != 1 {
		t.Fatalf("config show printed %d objects, want 1: %s", len(got), out)
	}
	if got[0]["identity"] != readersim.Version {
		t.Errorf("identity = %v, want %q", got[0]["identity"], readersim.Version)
	}
	if f := got[0]["settings"].(map[string]any)["antenna-frequency"]; f != "134.2" {
		t.Errorf("antenna-frequency = %v, want 134.2", f)
	}
	if _, ok := got[0]["applied"]; ok {
		t.Errorf("show printed applied: %s", out)
	}
	if u, _ := got[0]["unreadable"].([]any); len(u) != 5 {
		t.Errorf("unreadable = %v, want the 5 settings", got[0]["unreadable"])
	}
}

func TestConfigSetRFIDRW(t *testing.T) {
	t.Parallel()
	s := startSim(t, "rfidrw", nil)
	// Without a subcommand word show is the default; flags may follow.
	code, out, errOut := runCmd(t, "", "config", s.Path(), "set", "default-type=2", "rf=on", "buzzer=0", "--protocol", "rfidrw")
	if code != 0 {
		t.Fatalf("config set = %d, %s", code, errOut)
	}
	got := parseLines(t, out)[0]
	want := map[string]any{"default-type": "2", "rf": "on", "buzzer": "0"}
	if !reflect.DeepEqual(got["applied"], want) {
		t.Errorf("applied = %v, want %v", got["applied"], want)
	}
	if got["identity"] != readersim.Version {
		t.Errorf("identity after set = %v", got["identity"])
	}
}

func TestConfigAllflex(t *testing.T) {
	t.Parallel()
	s := startSim(t, "allflex", nil)
	code, out, errOut := runCmd(t, "", "config", s.Path(), "--protocol", "allflex", "set", "format=e40239")
	if code != 0 {
		t.Fatalf("config set = %d, %s", code, errOut)
	}
	got := parseLines(t, out)[0]
	if a := got["applied"].(map[string]any); a["format"] != "E40239" {
		t.Errorf("applied = %v", a)
	}
	// The simulator's P report; it does not keep settings.
	if r, _ := got["report"].([]any); len(r) != 1 || r[0] != "SIM SETTINGS B000000 S0" {
		t.Errorf("report = %v", got["report"])
	}
	if f := got["settings"].(map[string]any)["format"]; f != "000000" {
		t.Errorf("format = %v, want 000000 from the report", f)
	}
}

// fakeRFIDRW is a device on a pseudo-terminal answering RFIDRW-E
// commands from replies ("?0", not understood, for the others); it
// records the commands it received.
type fakeRFIDRW struct {
	pty *porttest.PTY
	mu  sync.Mutex
	got []string
}

func newFakeRFIDRW(t *testing.T, replies map[string]string, silent bool) *fakeRFIDRW {
	t.Helper()
	p, err := porttest.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeRFIDRW{pty: p}
	done := make(chan struct{})
	t.Cleanup(func() { p.Close(); <-done })
	go func() {
		defer close(done)
		var line []byte
		b := make([]byte, 64)
		for {
			n, err := p.Read(b)
			if err != nil {
				return
			}
			for _, c := range b[:n] {
				if c != '\r' {
					line = append(line, c)
					continue
				}
				cmd := string(line)
				line = line[:0]
				f.mu.Lock()
				f.got = append(f.got, cmd)
				f.mu.Unlock()
				if silent {
					continue
				}
				r, ok := replies[cmd]
				if !ok {
					r = "?0"
				}
				p.Write([]byte(r + "\r"))
			}
		}
	}()
	return f
}

func (f *fakeRFIDRW) commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.got...)
}

// The first refused setting stops config: its ?n code is printed with
// the manual's meaning, and nothing after it is sent.
func TestConfigRefused(t *testing.T) {
	t.Parallel()
	f := newFakeRFIDRW(t, map[string]string{"SRA": "OK", "SD3": "?2", "SL1": "OK"}, false)
	code, out, errOut := runCmd(t, "", "config", f.pty.Path(), "--protocol", "rfidrw", "set", "rf=on", "default-type=3", "led=1")
	if code != 1 || out != "" {
		t.Errorf("config set = %d, %q, want 1 and no output", code, out)
	}
	for _, w := range []string{"default-type=3", "?2 read/write failure", "nothing after it was sent", "applied before the refusal: rf=on"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr %q lacks %q", errOut, w)
		}
	}
	time.Sleep(100 * time.Millisecond) // anything sent late would arrive
	if got, want := f.commands(), []string{"SRA", "SD3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("reader received %q, want %q", got, want)
	}
}

// A reader that does not answer: a clear error within the timeout, and
// nothing sent after the unanswered command.
func TestConfigNoAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		sent []string
	}{
		{"rfidrw show", []string{"--protocol", "rfidrw"}, []string{"VER"}},
		{"rfidrw set", []string{"--protocol", "rfidrw", "set", "rf=on", "led=1"}, []string{"SRA"}},
		{"allflex show", []string{"--protocol", "allflex"}, []string{"P"}},
		{"allflex set", []string{"--protocol", "allflex", "set", "format=E40239"}, []string{"BE40239"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeRFIDRW(t, nil, true)
			start := time.Now()
			code, out, errOut := runCmd(t, "", append([]string{"config", f.pty.Path(), "--timeout", "300ms"}, tc.args...)...)
			if code != 1 || out != "" || !strings.Contains(errOut, "no reply") {
				t.Errorf("config %q = %d, %q, %q, want 1 and a no reply error", tc.args, code, out, errOut)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("config took %v with --timeout 300ms", d)
			}
			time.Sleep(100 * time.Millisecond)
			if got := f.commands(); !reflect.DeepEqual(got, tc.sent) {
				t.Errorf("reader received %q, want %q", got, tc.sent)
			}
		})
	}
}

// Bad command lines exit 2 before anything is sent.
func TestConfigUsage(t *testing.T) {
	t.Parallel()
	f := newFakeRFIDRW(t, nil, false)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown key", []string{"--protocol", "rfidrw", "set", "rf=on", "volume=3"}, `unknown key "volume", want one of default-type, type, rf, led, buzzer`},
		{"bad value", []string{"--protocol", "rfidrw", "set", "default-type=5"}, "want one of 0, 1, 2, 3, 4"},
		{"allflex unknown key", []string{"--protocol", "allflex", "set", "serial=96"}, `unknown key "serial", want one of format`},
		{"allflex bad mask", []string{"--protocol", "allflex", "set", "format=12345"}, "want 6 hex digits"},
		{"not key=value", []string{"--protocol", "rfidrw", "set", "rf"}, "not KEY=VALUE"},
		{"no settings", []string{"--protocol", "wl134"}, "has no settings"},
		{"no protocol", nil, "missing --protocol"},
		{"set without settings", []string{"--protocol", "rfidrw", "set"}, "KEY=VALUE"},
		{"unknown action", []string{"--protocol", "rfidrw", "flash"}, `unknown action "flash"`},
	} {
		code, out, errOut := runCmd(t, "", append([]string{"config", f.pty.Path()}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: config %q = %d, %q, %q, want 2 and %q", tc.name, tc.args, code, out, errOut, tc.want)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if got := f.commands(); len(got) != 0 {
		t.Errorf("reader received %q on bad command lines", got)
	}
}

// --dry-run prints the exact bytes, opening nothing.
func TestConfigDryRun(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	for _, args := range [][]string{
		{"--protocol", "rfidrw", "set", "default-type=2", "type=0", "rf=off", "rf=on", "led=6", "buzzer=1"},
		{"--protocol", "rfidrw", "show"},
		{"--protocol", "allflex", "set", "format=e40239"},
		{"--protocol", "allflex"},
	} {
		code, out, errOut := runCmd(t, "", append([]string{"config", "/nonexistent/tty", "--dry-run"}, args...)...)
		if code != 0 {
			t.Fatalf("config %q --dry-run = %d, %s", args, code, errOut)
		}
		b.WriteString("# " + strings.Join(args, " ") + "\n" + out)
	}
	golden := filepath.Join("testdata", "config_dryrun.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("config --dry-run =\n%s\nwant\n%s", b.Bytes(), want)
	}
}

// The help says why firmware is not flashed here.
func TestConfigHelp(t *testing.T) {
	t.Parallel()
	code, out, _ := runCmd(t, "", "config", "-h")
	if code != 0 {
		t.Fatalf("config -h = %d", code)
	}
	for _, w := range []string{"Firmware updates are not done here", "vendor", "default-type", "format"} {
		if !strings.Contains(out, w) {
			t.Errorf("config -h lacks %q:\n%s", w, out)
		}
	}
}

func TestAllflexReport(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, rep  string
		lines      []string
		wantFormat string
	}{
		{"simulator", "\nSIM SETTINGS B000000 S0\r\n", []string{"SIM SETTINGS B000000 S0"}, "000000"},
		{"lower case mask", "be40239 B0a0b0c\r\n", []string{"be40239 B0a0b0c"}, "0A0B0C"},
		{"no mask", "\r\n\r\nHELP\r\n", []string{"HELP"}, ""},
		{"mask too long", "B1234567\r", []string{"B1234567"}, ""},
		{"empty", "", nil, ""},
	} {
		lines, format := allflexReport([]byte(tc.rep))
		if !reflect.DeepEqual(lines, tc.lines) || format != tc.wantFormat {
			t.Errorf("%s: allflexReport(%q) = %q, %q, want %q, %q", tc.name, tc.rep, lines, format, tc.lines, tc.wantFormat)
		}
	}
}

// A mask set with format=M is found again in a report that prints it;
// no report makes allflexReport panic.
func FuzzAllflexReport(f *testing.F) {
	f.Add("E40239", "SETTINGS ", " S0\r\n")
	f.Add("000000", "", "")
	f.Fuzz(func(t *testing.T, mask, before, after string) {
		lines, format := allflexReport([]byte(before + after))
		for _, l := range lines {
			if l == "" || strings.ContainsAny(l, "\r\n") {
				t.Fatalf("allflexReport(%q) line %q", before+after, l)
			}
		}
		_ = format
		cmd, err := allflexCommand("format", mask)
		if err != nil {
			return
		}
		rep := "\r\n" + cmd + " \r\n" + after
		if _, got := allflexReport([]byte(rep)); got != cmd[1:] {
			t.Fatalf("allflexReport(%q) format = %q, want %q", rep, got, cmd[1:])
		}
	})
}
