//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/engravers/grbl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/grblsim"
	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
)

func runEngraveCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Now: time.Now}
	code := run(context.Background(), e, append([]string{"engrave"}, args...))
	return code, out.String(), errb.String()
}

func TestEngraveHelp(t *testing.T) {
	t.Parallel()
	code, _, errs := runEngraveCmd(t, "--help")
	if code != 0 {
		t.Fatalf("engrave --help: exit %d", code)
	}
	for _, sub := range []string{"home", "unlock", "frame", "jog", "gcode", "grid", "origin", "override", "estimate"} {
		if !strings.Contains(errs, "chipdesk engrave "+sub) {
			t.Errorf("engrave --help does not list %s:\n%s", sub, errs)
		}
	}
}

// validate feeds a program to the simulated controller line by line,
// send-response, as grbl's own validator takes a file: every line must
// be answered ok. It returns the controller, idle after the program.
func validate(t *testing.T, program string) *grblsim.Sim {
	t.Helper()
	sim, err := grblsim.Start(&grblsim.Opts{LaserMode: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	f, err := os.OpenFile(sim.TTY(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	replies := make(chan string, 16)
	go func() {
		r := bufio.NewReader(f)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(replies)
				return
			}
			if l = strings.TrimRight(l, "\r\n"); l == "ok" || strings.HasPrefix(l, "error:") {
				replies <- l
			}
		}
	}()
	feedSeen := false
	lines := strings.Split(strings.TrimSuffix(program, "\n"), "\n")
	for i, l := range lines {
		if len(l)+1 >= 80 {
			t.Fatalf("line %d %q is %d bytes with its LF, grbl's buffer holds 80", i+1, l, len(l)+1)
		}
		u := strings.ToUpper(l)
		if strings.Contains(u, "F") && !strings.HasPrefix(u, "(") {
			feedSeen = true
		}
		if (strings.HasPrefix(u, "G0 ") || strings.HasPrefix(u, "G1 ")) && !feedSeen {
			t.Fatalf("line %d %q moves before any feed rate", i+1, l)
		}
		if _, err := io.WriteString(f, l+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-replies:
			if r != "ok" {
				code, _ := strings.CutPrefix(r, "error:")
				t.Fatalf("line %d %q: %s (%s)", i+1, l, r, grbl.ErrorText(atoi(code)))
			}
		case <-time.After(testtime.Scale(5 * time.Second)):
			t.Fatalf("line %d %q: no reply", i+1, l)
		}
	}
	return sim
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestEngraveGcodeValid: the exported program is accepted by the
// simulated grbl 1.1 line by line (lines under 80 bytes, a feed before
// the first move) and leaves the laser off.
func TestEngraveGcodeValid(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, jur, device string }{
		{"by code", "MPLS", ""},
		{"by city name, beam-corrected", "Minneapolis", "grbl:/dev/ttyUSB0,beam=0.2,power=0.6"},
		{"by profile id", "chanhassen", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := []string{"gcode", "--jurisdiction", tt.jur, "--year", "2026", "--number", "123"}
			if tt.device != "" {
				args = append(args, "--device", tt.device)
			}
			code, out, errs := runEngraveCmd(t, args...)
			if code != 0 || !strings.HasPrefix(out, "(chipdesk ") {
				t.Fatalf("engrave gcode: exit %d, %q…: %s", code, out[:min(80, len(out))], errs)
			}
			sim := validate(t, out)
			deadline := time.Now().Add(testtime.Scale(10 * time.Second))
			for sim.Pending() > 0 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if l := sim.Laser(); l.On() || l.Mode != "M5" || l.Fired == 0 || l.RapidFired != 0 {
				t.Errorf("laser after the program = %+v, want off (M5), marked, no fired travel", l)
			}
			if tt.device != "" && !strings.Contains(out, "(beam 0.2 mm corrected") {
				t.Errorf("program does not state its beam correction:\n%s", out[:200])
			}
		})
	}
	if code, _, errs := runEngraveCmd(t, "gcode", "--jurisdiction", "Atlantis", "--year", "2026", "--number", "1"); code != 2 || !strings.Contains(errs, "Atlantis") {
		t.Errorf("unknown jurisdiction: exit %d, %s; want 2 naming it", code, errs)
	}
}

func TestEngraveGrid(t *testing.T) {
	t.Parallel()
	code, out, errs := runEngraveCmd(t, "grid", "--powers", "0.3,0.6", "--speeds", "600,1200,2400", "--device", "grbl:/dev/x,beam=0.15")
	if code != 0 {
		t.Fatalf("engrave grid: exit %d: %s", code, errs)
	}
	for _, want := range []string{"M4 S300", "M4 S600", "F2400", "(chipdesk test grid, 6 cells"} {
		if !strings.Contains(out, want) {
			t.Errorf("grid program lacks %q", want)
		}
	}
	validate(t, out)
	if code, _, _ := runEngraveCmd(t, "grid", "--powers", "1.5"); code != 2 {
		t.Errorf("grid --powers 1.5: exit %d, want 2", code)
	}
}

// TestEngraveStation runs the station subcommands on a simulated
// controller that starts locked (homing enabled).
func TestEngraveStation(t *testing.T) {
	t.Parallel()
	sim, err := grblsim.Start(&grblsim.Opts{LaserMode: true, Homing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	dev := "grbl:" + sim.TTY()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"status"}, "Alarm"},
		{[]string{"home"}, "Idle at X0.000 Y0.000"},
		{[]string{"jog", "--x", "12", "--y", "7", "--feed", "2000"}, ""},
		{[]string{"origin"}, ""},
		{[]string{"frame", "--jurisdiction", "MPLS", "--year", "2026", "--number", "5"}, ""},
		{[]string{"override", "power-10"}, ""},
		{[]string{"unlock"}, ""},
	} {
		code, out, errs := runEngraveCmd(t, append(tt.args, "--device", dev)...)
		if code != 0 || !strings.Contains(out, tt.want) {
			t.Fatalf("engrave %v: exit %d, %q, %s; want %q", tt.args, code, out, errs, tt.want)
		}
	}
	if w := sim.WCO(); w != [3]float64{12, 7, 0} {
		t.Errorf("origin after jog 12,7 = WCO %v", w)
	}
	if l := sim.Laser(); l.Fired != 0 {
		t.Errorf("frame fired the laser %d times", l.Fired)
	}
	if code, _, _ := runEngraveCmd(t, "override", "power+50", "--device", dev); code != 2 {
		t.Errorf("override power+50: exit %d, want 2", code)
	}
	if code, _, _ := runEngraveCmd(t, "home"); code != 2 {
		t.Errorf("home without --device: exit %d, want 2", code)
	}
}

// TestTagDesignOneResolver: the commands name a jurisdiction as every
// door does (rules.Set.Resolve): id, name or code in any case give the
// same profile and design; an unknown one is refused with the known
// ones listed.
func TestTagDesignOneResolver(t *testing.T) {
	t.Parallel()
	rs, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ds, err := tags.LoadDesigns("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ in, profile, code string }{
		{"MPLS", "minneapolis", "MPLS"},
		{"mpls", "minneapolis", "MPLS"},
		{"Minneapolis", "minneapolis", "MPLS"},
		{"minneapolis", "minneapolis", "MPLS"},
		{" CHAN ", "chanhassen", "CHAN"},
		{"Chanhassen", "chanhassen", "CHAN"},
	} {
		p, d, err := tagDesign(rs, ds, tt.in, 2026)
		if err != nil || p != tt.profile || d.Jurisdiction != tt.code {
			t.Errorf("tagDesign(%q) = %q, %v, %v; want %q, design %q", tt.in, p, d, err, tt.profile, tt.code)
		}
	}
	_, _, err = tagDesign(rs, ds, "Gotham", 2026)
	if err == nil || !strings.Contains(err.Error(), "Gotham") || !strings.Contains(err.Error(), "minneapolis") {
		t.Errorf("tagDesign(Gotham) = %v, want the name refused with the known ones", err)
	}
}
