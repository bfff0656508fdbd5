package hardware

import (
	"reflect"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		wantName string
		wantBaud int
		wantDeb  time.Duration
		wantErr  bool
	}{
		{name: "plain", in: "wl134:/dev/ttyUSB0", wantName: "wl134:/dev/ttyUSB0", wantBaud: 9600, wantDeb: DefaultDebounce},
		{name: "options", in: "allflex:/dev/rfcomm0,name=van-3,baud=19200,debounce=500ms", wantName: "van-3", wantBaud: 19200, wantDeb: 500 * time.Millisecond},
		{name: "unknown kind", in: "acme:/dev/ttyS0", wantErr: true},
		{name: "no port", in: "wl134:", wantErr: true},
		{name: "no kind", in: "/dev/ttyUSB0", wantErr: true},
		{name: "bad option", in: "wl134:/dev/ttyUSB0,colour=red", wantErr: true},
		{name: "bad baud", in: "wl134:/dev/ttyUSB0,baud=fast", wantErr: true},
		{name: "option without value", in: "wl134:/dev/ttyUSB0,name", wantErr: true},
		{name: "new families", in: "avid:/dev/ttyUSB1", wantName: "avid:/dev/ttyUSB1", wantBaud: 9600, wantDeb: DefaultDebounce},
		{name: "linefmt", in: "linefmt:/dev/ttyUSB0,baud=19200,form=decimal,pattern=^ID (?P<code>\\d{3,4} ?\\d{12})$", wantName: "linefmt:/dev/ttyUSB0", wantBaud: 19200, wantDeb: DefaultDebounce},
		{name: "linefmt, default line", in: "linefmt:/dev/ttyUSB0,pattern=(?P<code>\\d{15})", wantName: "linefmt:/dev/ttyUSB0", wantBaud: 9600, wantDeb: DefaultDebounce},
		{name: "linefmt without pattern", in: "linefmt:/dev/ttyUSB0,baud=9600", wantErr: true},
		{name: "linefmt, bad pattern", in: "linefmt:/dev/ttyUSB0,pattern=(?P<code>", wantErr: true},
		{name: "linefmt, no code group", in: "linefmt:/dev/ttyUSB0,pattern=\\d{15}", wantErr: true},
		{name: "linefmt, bad form", in: "linefmt:/dev/ttyUSB0,form=octal,pattern=(?P<code>\\d{15})", wantErr: true},
		{name: "pattern on another kind", in: "wl134:/dev/ttyUSB0,pattern=x", wantErr: true},
		{name: "form on another kind", in: "wl134:/dev/ttyUSB0,form=decimal", wantErr: true},
		{name: "evdev", in: "evdev:/dev/input/by-id/usb-GIGA-TMS_PCR330A-event-kbd", wantName: "evdev:/dev/input/by-id/usb-GIGA-TMS_PCR330A-event-kbd", wantDeb: DefaultDebounce},
		{name: "evdev, layout", in: "evdev:/dev/input/event3,layout=de,name=desk", wantName: "desk", wantDeb: DefaultDebounce},
		{name: "evdev, bad layout", in: "evdev:/dev/input/event3,layout=fr", wantErr: true},
		{name: "evdev, baud", in: "evdev:/dev/input/event3,baud=9600", wantErr: true},
		{name: "layout on another kind", in: "wl134:/dev/ttyUSB0,layout=de", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp, err := ParseSpec(tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ParseSpec(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if sp.Name != tt.wantName || sp.Mode.Baud != tt.wantBaud || sp.Debounce != tt.wantDeb {
				t.Errorf("ParseSpec(%q) = name %q baud %d debounce %v, want %q %d %v", tt.in, sp.Name, sp.Mode.Baud, sp.Debounce, tt.wantName, tt.wantBaud, tt.wantDeb)
			}
			back, err := ParseSpec(sp.String())
			if err != nil || !reflect.DeepEqual(back, sp) {
				t.Errorf("ParseSpec(%q.String() = %q) = %+v, %v; want %+v", tt.in, sp.String(), back, err, sp)
			}
		})
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"wl134:/dev/ttyUSB0", "allflex:/dev/rfcomm0,name=van-3,baud=19200,debounce=500ms", "x", "are:COM3,baud=0", "evdev:/dev/input/event3,layout=de",
		"linefmt:/dev/ttyUSB0,baud=19200,form=decimal,pattern=^ID (?P<code>\\d{15})$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s)
		if err != nil {
			return
		}
		back, err := ParseSpec(sp.String())
		if err != nil || !reflect.DeepEqual(back, sp) {
			t.Errorf("ParseSpec(%q) = %+v; String %q reads back as %+v, %v", s, sp, sp.String(), back, err)
		}
	})
}
