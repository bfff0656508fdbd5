package rfidrw

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
)

// Setting commands as the manual (rev E p. 20) spells them.
func TestSettingCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, key, value, want string
		bad                    bool
	}{
		{name: "stored FDX-B/HDX", key: "default-type", value: "2", want: "SD2"},
		{name: "stored type 0", key: "default-type", value: "0", want: "SD0"},
		{name: "session type", key: "type", value: "4", want: "ST4"},
		{name: "rf on", key: "rf", value: "on", want: "SRA"},
		{name: "rf off", key: "rf", value: "off", want: "SRD"},
		{name: "led", key: "led", value: "6", want: "SL6"},
		{name: "buzzer", key: "buzzer", value: "1", want: "SB1"},
		{name: "type 5 undocumented", key: "default-type", value: "5", bad: true},
		{name: "led 7 undocumented", key: "led", value: "7", bad: true},
		{name: "rf yes", key: "rf", value: "yes", bad: true},
		{name: "empty value", key: "buzzer", value: "", bad: true},
		{name: "unknown key", key: "volume", value: "1", bad: true},
		{name: "command as key", key: "SD", value: "2", bad: true},
	} {
		got, err := SettingCommand(tc.key, tc.value)
		if tc.bad {
			if !errors.Is(err, ErrSetting) {
				t.Errorf("%s: SettingCommand(%q, %q) = %q, %v, want ErrSetting", tc.name, tc.key, tc.value, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: SettingCommand(%q, %q) = %q, %v, want %q", tc.name, tc.key, tc.value, got, err, tc.want)
		}
	}
}

// Set waits for OK; a refusal carries the code and its meaning and
// Frequency returns the MOF reply.
func TestSet(t *testing.T) {
	t.Parallel()
	pb := &porttest.Playback{Name: "script", Ops: []porttest.IO{
		{W: []byte("SD2\r"), R: []byte("OK\r")},
		{W: []byte("SL3\r"), R: []byte("?2\r")},
		{W: []byte("SB0\r")}, // no reply
		{W: []byte("MOF\r"), R: []byte("134.2\r")},
	}}
	d, err := New(pb, &Opts{Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	if err := d.Set(ctx, "default-type", "2"); err != nil {
		t.Errorf("Set(default-type, 2) = %v", err)
	}
	var se *StatusError
	if err := d.Set(ctx, "led", "3"); !errors.As(err, &se) || se.Code != 2 || !strings.Contains(err.Error(), "?2 read/write failure") {
		t.Errorf("Set(led, 3) = %v, want ?2 read/write failure", err)
	}
	if err := d.Set(ctx, "buzzer", "0"); !errors.Is(err, ErrNoReply) {
		t.Errorf("Set(buzzer, 0) = %v, want ErrNoReply", err)
	}
	if err := d.Set(ctx, "buzzer", "2"); !errors.Is(err, ErrSetting) {
		t.Errorf("Set(buzzer, 2) = %v, want ErrSetting", err)
	}
	if f, err := d.Frequency(ctx); err != nil || f != "134.2" {
		t.Errorf("Frequency() = %q, %v, want 134.2", f, err)
	}
	if err := pb.Done(); err != nil {
		t.Error(err)
	}
}

// Every accepted key and value gives a command of its own, a documented
// one of at most 3 printable characters and no line end.
func FuzzSettingCommand(f *testing.F) {
	for _, s := range Settings() {
		for _, v := range s.Values {
			f.Add(s.Key, v)
		}
	}
	f.Add("rf", "maybe")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, key, value string) {
		cmd, err := SettingCommand(key, value)
		if err != nil {
			if !errors.Is(err, ErrSetting) {
				t.Fatalf("SettingCommand(%q, %q) = %v, want ErrSetting", key, value, err)
			}
			return
		}
		if len(cmd) != 3 || strings.ContainsAny(cmd, "\r\n") {
			t.Fatalf("SettingCommand(%q, %q) = %q", key, value, cmd)
		}
		// The command maps back to exactly this key and value.
		n := 0
		for _, s := range Settings() {
			for _, v := range s.Values {
				if c, _ := SettingCommand(s.Key, v); c == cmd {
					n++
					if s.Key != key || v != value {
						t.Fatalf("SettingCommand(%q, %q) = %q, also given by %s=%s", key, value, cmd, s.Key, v)
					}
				}
			}
		}
		if n != 1 {
			t.Fatalf("SettingCommand(%q, %q) = %q, found %d times in the table", key, value, cmd, n)
		}
	})
}

func ExampleSettingCommand() {
	for _, kv := range [][2]string{{"default-type", "2"}, {"rf", "off"}, {"led", "9"}} {
		cmd, err := SettingCommand(kv[0], kv[1])
		fmt.Printf("%q %v\n", cmd, err)
	}
	// Output:
	// "SD2" <nil>
	// "SRD" <nil>
	// "" rfidrw: bad setting: led="9", want one of 0, 1, 2, 3, 4, 5, 6
}
