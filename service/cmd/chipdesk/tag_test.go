package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/tags/check"
	"github.com/chipdesk/chipdesk/tags/toolpath"
)

// runTagCmd runs "chipdesk tag ARGS..." and returns status, stdout, stderr.
func runTagCmd(t *testing.T, args ...string) (int, []byte, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &cmdline.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Now: func() time.Time { return time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC) }}
	code := run(context.Background(), e, append([]string{"tag"}, args...))
	return code, out.Bytes(), errb.String()
}

// dev makes the command use the development keys whatever the
// environment says.
var dev = []string{"--keys", ""}

func TestTagRender(t *testing.T) {
	t.Parallel()
	base := append([]string{"render", "--jurisdiction", "MPLS", "--year", "2026", "--number", "1234"}, dev...)
	tests := []struct {
		name   string
		args   []string
		status int
		check  func([]byte) bool
	}{
		{"png", []string{"--format", "png", "--dpi", "150"}, 0, func(b []byte) bool {
			img, err := png.Decode(bytes.NewReader(b))
			return err == nil && img.Bounds().Dx() == 189
		}},
		{"svg", []string{"--format", "svg"}, 0, func(b []byte) bool {
			return bytes.HasPrefix(b, []byte("<svg")) && bytes.Contains(b, []byte(`viewBox="0 0 32 32"`))
		}},
		{"zpl", []string{"--format", "zpl"}, 0, func(b []byte) bool {
			return bytes.HasPrefix(b, []byte("^XA")) && bytes.Contains(b, []byte(",200,18,18^FDMPLS26-001234-")) && bytes.Contains(b, []byte("^FD>;2026001234^FS"))
		}},
		{"paths", []string{"--format", "paths"}, 0, func(b []byte) bool {
			var j toolpath.Job
			return json.Unmarshal(b, &j) == nil && j.Width == 32 && len(j.Outline) > 100 && len(j.Hatch) > 100 && len(j.Cut) == 2
		}},
		{"paths as SVG path data", []string{"--format", "paths-svg"}, 0, func(b []byte) bool {
			return bytes.Contains(b, []byte(`<path id="hatch"`)) && bytes.Contains(b, []byte(`viewBox="0 0 32 32"`))
		}},
		{"cat", []string{"--format", "svg", "--species", "cat"}, 0, func(b []byte) bool { return bytes.Contains(b, []byte("(cat)")) }},
		{"no design for the year (64.30)", []string{"--year", "2031"}, 1, nil},
		{"ferret not licensed", []string{"--species", "ferret"}, 1, nil},
		{"bad format", []string{"--format", "gif"}, 2, nil},
		{"bad dpi", []string{"--dpi", "1"}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runTagCmd(t, append(append([]string(nil), base...), tt.args...)...)
			if code != tt.status {
				t.Fatalf("tag render %v: status %d, want %d (%s)", tt.args, code, tt.status, stderr)
			}
			if tt.check != nil && !tt.check(out) {
				t.Errorf("tag render %v: output %.200q", tt.args, out)
			}
		})
	}
	if code, _, _ := runTagCmd(t, append([]string{"render", "--format", "png"}, dev...)...); code != 2 {
		t.Errorf("tag render without --jurisdiction: status %d, want 2", code)
	}
}

// TestTagRenderJurisdictionByName: the one resolver: minneapolis,
// Minneapolis, MPLS and "City of Minneapolis" give the same tag; an
// unknown name is refused with the known ones listed.
func TestTagRenderJurisdictionByName(t *testing.T) {
	t.Parallel()
	render := func(j string) (int, []byte, string) {
		return runTagCmd(t, append([]string{"render", "--jurisdiction", j, "--year", "2026", "--number", "1234", "--format", "zpl"}, dev...)...)
	}
	_, want, _ := render("MPLS")
	if !bytes.Contains(want, []byte("MPLS26-001234")) {
		t.Fatalf("tag render --jurisdiction MPLS = %.200q", want)
	}
	for _, j := range []string{"minneapolis", "Minneapolis", "mpls", "City of Minneapolis"} {
		if code, got, stderr := render(j); code != 0 || !bytes.Equal(got, want) {
			t.Errorf("tag render --jurisdiction %q: status %d (%s), not the MPLS tag", j, code, stderr)
		}
	}
	if _, got, _ := render("Chanhassen"); !bytes.Contains(got, []byte("CHAN26-001234")) {
		t.Errorf("tag render --jurisdiction Chanhassen = %.200q, want the CHAN tag", got)
	}
	code, _, stderr := render("duluth")
	if code != 1 || !strings.Contains(stderr, "unknown jurisdiction") || !strings.Contains(stderr, "minneapolis (Minneapolis, MPLS)") {
		t.Errorf("tag render --jurisdiction duluth: status %d %q, want 1 naming the known ones", code, stderr)
	}
}

func TestTagVerify(t *testing.T) {
	t.Parallel()
	p, err := check.DevelopmentKeys().Issue("CHAN", 2027, 42)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(p.String(), "000042", "000043", 1)
	tests := []struct {
		name   string
		args   []string
		status int
		want   tagVerifyResult
	}{
		{"issued", []string{"verify", p.String()}, 0, tagVerifyResult{Valid: true, Jurisdiction: "CHAN", Year: 2027, Number: 42, Development: true}},
		{"flags after the text", []string{"verify", p.String(), "--keys", ""}, 0, tagVerifyResult{Valid: true, Jurisdiction: "CHAN", Year: 2027, Number: 42, Development: true}},
		{"changed digit (5-55(d) counterfeit)", []string{"verify", changed}, 1, tagVerifyResult{Valid: false, Jurisdiction: "CHAN", Year: 2027, Number: 43, Development: true}},
		{"not a payload", []string{"verify", "hello"}, 1, tagVerifyResult{Valid: false, Development: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runTagCmd(t, append(tt.args, dev...)...)
			if code != tt.status {
				t.Fatalf("tag %v: status %d, want %d (%s)", tt.args, code, tt.status, stderr)
			}
			var got tagVerifyResult
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("tag %v printed %q: %v", tt.args, out, err)
			}
			got.Error = ""
			if got != tt.want {
				t.Errorf("tag %v = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
	if code, _, _ := runTagCmd(t, append([]string{"verify"}, dev...)...); code != 2 {
		t.Errorf("tag verify without TEXT: status %d, want 2", code)
	}
}

// TestTagKeyFile: with a real key file the development keys are never
// used: a development code fails, and a tag rendered with the key file
// verifies against it.
func TestTagKeyFile(t *testing.T) {
	t.Parallel()
	code, out, _ := runTagCmd(t, "keygen", "--jurisdiction", "MPLS", "--year", "2026")
	if code != 0 {
		t.Fatalf("tag keygen: status %d", code)
	}
	if _, err := check.ParseKeys(bytes.NewReader(out)); err != nil {
		t.Fatalf("tag keygen printed %q: %v", out, err)
	}
	keys := filepath.Join(t.TempDir(), "city.keys")
	if err := os.WriteFile(keys, out, 0o600); err != nil {
		t.Fatal(err)
	}
	code, zpl, stderr := runTagCmd(t, "render", "--jurisdiction", "MPLS", "--year", "2026", "--number", "7", "--format", "zpl", "--keys", keys)
	if code != 0 || strings.Contains(stderr, "DEVELOPMENT") {
		t.Fatalf("tag render --keys: status %d, %s", code, stderr)
	}
	i := bytes.Index(zpl, []byte("^FDMPLS26-"))
	text := string(zpl[i+3 : i+3+len("MPLS26-000007-XXXXX")])
	if code, out, _ := runTagCmd(t, "verify", text, "--keys", keys); code != 0 || !bytes.Contains(out, []byte(`"valid":true`)) || bytes.Contains(out, []byte("development")) {
		t.Errorf("tag verify %s --keys: status %d, %s", text, code, out)
	}
	devCode, _ := check.DevelopmentKeys().Issue("MPLS", 2026, 7)
	if code, _, _ := runTagCmd(t, "verify", devCode.String(), "--keys", keys); code != 1 {
		t.Errorf("tag verify (development code) --keys: status %d, want 1", code)
	}
	if code, _, _ := runTagCmd(t, "verify", text, "--keys", filepath.Join(t.TempDir(), "missing")); code != 1 {
		t.Errorf("tag verify --keys missing: status %d, want 1", code)
	}
}

func TestTagPlate(t *testing.T) {
	t.Parallel()
	base := append([]string{"plate", "--jurisdiction", "CHAN", "--year", "2026", "--number", "100", "--count", "30", "--plate", "150x100"}, dev...)
	code, out, stderr := runTagCmd(t, append(base, "--format", "paths")...)
	if code != 0 {
		t.Fatalf("tag plate: status %d (%s)", code, stderr)
	}
	var jobs []toolpath.Job
	if err := json.Unmarshal(out, &jobs); err != nil || len(jobs) != 4 { // 9 tags of 36x24 mm per 150x100 mm plate
		t.Fatalf("tag plate printed %d jobs, %v; want 4", len(jobs), err)
	}
	if len(jobs[3].Cut) != 2*3 {
		t.Errorf("last plate cuts %d outlines, want 6 (3 tags)", len(jobs[3].Cut))
	}
	code, out, _ = runTagCmd(t, append(base, "--format", "png", "--sheet", "2", "--dpi", "50")...)
	if img, err := png.Decode(bytes.NewReader(out)); code != 0 || err != nil || img.Bounds().Dx() != 296 {
		t.Errorf("tag plate --format png: status %d, %v", code, err)
	}
	for _, bad := range [][]string{{"--format", "png"}, {"--format", "paths", "--sheet", "9"}, {"--plate", "10x10"}, {"--count", "0"}} {
		if code, _, _ := runTagCmd(t, append(append([]string(nil), base...), bad...)...); code != 2 {
			t.Errorf("tag plate %v: status %d, want 2", bad, code)
		}
	}
}

func TestTagDesigns(t *testing.T) {
	t.Parallel()
	code, out, stderr := runTagCmd(t, "designs")
	if code != 0 {
		t.Fatalf("tag designs: status %d (%s)", code, stderr)
	}
	for _, want := range []string{"MPLS 2026 licence", "MPLS 2027 licence", "CHAN 2026 licence", "CHAN 2027 licence", "MNDD uniform dangerous-dog"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("tag designs lacks %q:\n%s", want, out)
		}
	}
	if code, _, _ := runTagCmd(t, "frobnicate"); code != 2 {
		t.Errorf("tag frobnicate: status %d, want 2", code)
	}
}
