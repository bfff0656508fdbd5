package main

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
)

// runCmd runs chiptool in-process and returns its exit status and
// streams.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &cmdline.Env{
		Stdin:  strings.NewReader(stdin),
		Stdout: &out,
		Stderr: &errOut,
		Now:    func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
	code := run(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

// TestTelegramEncode: ISO 11785 clause 6.2 telegrams of the shared
// vectors (Proxmark3 traces and the HomeAgain real chip).
func TestTelegramEncode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"animal (lf_ATA5577_fdxb_animal)", []string{"999000000112233"}, "0032D6DC0402079F80406253B8040201"},
		{"extended (lf_ATA5577_fdxb_extended)", []string{"999000000112233", "--not-animal", "--data-block", "--ext", "00016A"}, "0032D6DC0402079FC04023382AB60201"},
		{"Bio-Thermo, flags first", []string{"--data-block", "--ext=16a", "999 000000112233"}, "0032D6DC0402079FC040613A3AB60201"},
		{"real HomeAgain chip", []string{"985121004515220"}, "00253FABB4D2756F80406A11B8040201"},
		{"AEG record, non-animal", []string{"969123456789012", "--not-animal"}, "0025158CCDF6754F80403A7EC8040201"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"telegram", "encode"}, tt.args...)
			code, out, errOut := runCmd(t, "", args...)
			if code != 0 || out != tt.want+"\n" {
				t.Errorf("chiptool %v = %d, %q, %q, want 0, %q", args, code, out, errOut, tt.want)
			}
		})
	}
}

func TestTelegramEncodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no code", []string{}, 2},
		{"two codes", []string{"999000000112233", "999000000112234"}, 2},
		{"bad ext", []string{"999000000112233", "--ext", "1000000"}, 2},
		{"unknown flag", []string{"999000000112233", "--bogus"}, 2},
		{"national too big", []string{"999274877906944"}, 1},
		{"AVID code", []string{"012345678"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"telegram", "encode"}, tt.args...)
			code, out, errOut := runCmd(t, "", args...)
			if code != tt.want || out != "" || errOut == "" {
				t.Errorf("chiptool %v = %d, %q, %q, want %d and a message", args, code, out, errOut, tt.want)
			}
		})
	}
}

func TestTelegramDecode(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCmd(t, "", "telegram", "decode", "0032D6DC0402079FC040613A3AB60201")
	if code != 0 {
		t.Fatalf("decode = %d, %q", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	want := map[string]any{
		"code": "999000000112233", "country": 999.0, "national": 112233.0, "animal": true,
		"data_block": true, "ext": "00016A", "crc": "C590", "crc_ok": true,
		"manufacturer": "Transponder Test", "id64": "8001F9C00001B669",
		"temperature": map[string]any{"fahrenheit": 95.2, "celsius": 35.1},
	}
	for k, v := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(t, v) {
			t.Errorf("decode %s = %s, want %s", k, g, mustJSON(t, v))
		}
	}
	// No temperature without the data-block flag.
	_, out, _ = runCmd(t, "", "telegram", "decode", "00253FAB B4D2756F 80406A11 B8040201")
	if !strings.Contains(out, `"code":"985121004515220"`) || strings.Contains(out, "temperature") ||
		!strings.Contains(out, `"manufacturer":"HomeAgain"`) {
		t.Errorf("decode HomeAgain = %s", out)
	}
	_, out, _ = runCmd(t, "", "telegram", "decode", "--locale", "en_AU", "00253FABB4D2756F80406A11B8040201")
	if !strings.Contains(out, `"manufacturer":"Lifechip"`) {
		t.Errorf("decode en_AU = %s", out)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTelegramDecodeInvalid: the negative vectors exit 1 with a message
// naming the fault.
func TestTelegramDecodeInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, hex, msg string
		json           bool // the fields are still printed for diagnosis
	}{
		{"ID bit flipped", "0022D6DC0402079F80406253B8040201", "CRC mismatch", true},
		{"control bit cleared", "0032C6DC0402079F80406253B8040201", "framing error", false},
		{"CRC bit flipped", "0032D6DC0402079F80407253B8040201", "CRC mismatch", true},
		{"country 1023", "0032D6DC040207FF8040713508040201", "invalid ISO 11784 code", true},
		{"header", "FF32D6DC0402079F80406253B8040201", "bad header", false},
		{"short", "0032D6DC", "32 hex digits", false},
		{"not hex", "0032D6DC0402079F80406253B80402GG", "32 hex digits", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := runCmd(t, "", "telegram", "decode", tt.hex)
			if code != 1 || !strings.Contains(errOut, tt.msg) {
				t.Errorf("decode %s = %d, %q, want 1 and %q", tt.hex, code, errOut, tt.msg)
			}
			if tt.json != (out != "") {
				t.Errorf("decode %s printed %q", tt.hex, out)
			}
			if tt.json && !strings.Contains(out, `"crc_ok":`) {
				t.Errorf("decode %s printed %q", tt.hex, out)
			}
		})
	}
}

// TestTelegramRoundTrip: encode then decode returns the code and flags.
func TestTelegramRoundTrip(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"985121004515220", "124000270601654", "900250000023921", "999274877906943"} {
		_, hex, _ := runCmd(t, "", "telegram", "encode", c, "--not-animal", "--ext", "abcdef")
		code, out, errOut := runCmd(t, "", "telegram", "decode", strings.TrimSpace(hex))
		if code != 0 || !strings.Contains(out, `"code":"`+c+`"`) || !strings.Contains(out, `"animal":false`) ||
			!strings.Contains(out, `"ext":"ABCDEF"`) {
			t.Errorf("round trip %s: %d %s %s", c, code, out, errOut)
		}
	}
}

func TestTelegramUsage(t *testing.T) {
	t.Parallel()
	if code, _, errOut := runCmd(t, "", "telegram"); code != 2 || !strings.Contains(errOut, "usage") {
		t.Errorf("telegram = %d, %q", code, errOut)
	}
	if code, _, _ := runCmd(t, "", "telegram", "frobnicate"); code != 2 {
		t.Errorf("telegram frobnicate = %d", code)
	}
	if code, out, _ := runCmd(t, "", "telegram", "help"); code != 0 || !strings.Contains(out, "encode") {
		t.Errorf("telegram help = %d, %q", code, out)
	}
}

// Every subcommand parsed by cmdline.ParseCommand prints its usage on -h and
// succeeds, and refuses an unknown flag with its usage and status 2.
func TestParseCommandHelpAndBadFlag(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"parse", "ports", "probe", "sim", "tail"} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			if cmd == "sim" && runtime.GOOS != "linux" {
				t.Skip("chiptool sim runs on Linux only")
			}
			if code, out, _ := runCmd(t, "", cmd, "-h"); code != 0 || !strings.Contains(out, "usage") {
				t.Errorf("chiptool %s -h = %d, %q, want 0 and the usage", cmd, code, out)
			}
			if code, _, errOut := runCmd(t, "", cmd, "--bogus"); code != 2 || !strings.Contains(errOut, "usage") {
				t.Errorf("chiptool %s --bogus = %d, %q, want 2 and the usage", cmd, code, errOut)
			}
		})
	}
}
