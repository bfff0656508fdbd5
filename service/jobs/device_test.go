package jobs_test

import (
	"errors"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/jobs"
)

func TestParseSpec(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want jobs.Spec
	}{
		{"zpl over tcp", "zpl:10.0.0.7:9100", jobs.Spec{Kind: "zpl", Addr: "10.0.0.7:9100", Name: "zpl:10.0.0.7:9100", Dpmm: 8}},
		{"zpl serial 300 dpi named", "zpl:/dev/ttyS0,dpmm=12,baud=19200,name=front",
			jobs.Spec{Kind: "zpl", Addr: "/dev/ttyS0", Name: "front", Baud: 19200, Dpmm: 12}},
		{"brother network", "brotherql:10.0.0.8,model=QL-820NWB,media=62",
			jobs.Spec{Kind: "brotherql", Addr: "10.0.0.8", Name: "brotherql:10.0.0.8", Model: "QL-820NWB", Media: "62"}},
		{"grbl defaults", "grbl:/dev/ttyUSB0", jobs.Spec{Kind: "grbl", Addr: "/dev/ttyUSB0", Name: "grbl:/dev/ttyUSB0",
			Baud: 115200, Power: 0.8, Speed: 600, Passes: 1}},
		{"grbl options", "grbl:/dev/ttyACM0,power=0.35,speed=1200,passes=2,cut=true",
			jobs.Spec{Kind: "grbl", Addr: "/dev/ttyACM0", Name: "grbl:/dev/ttyACM0", Baud: 115200, Power: 0.35, Speed: 1200, Passes: 2, Cut: true}},
		{"grbl plate", "grbl:/dev/ttyUSB1,plate=300x200.5", jobs.Spec{Kind: "grbl", Addr: "/dev/ttyUSB1", Name: "grbl:/dev/ttyUSB1",
			Baud: 115200, Power: 0.8, Speed: 600, Passes: 1, PlateW: 300, PlateH: 200.5}},
	}
	for _, tt := range tests {
		got, err := jobs.ParseSpec(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s: ParseSpec(%q) = %+v, %v; want %+v", tt.name, tt.in, got, err, tt.want)
			continue
		}
		if again, err := jobs.ParseSpec(got.String()); err != nil || again != got {
			t.Errorf("%s: ParseSpec(%q) = %+v, %v; want %+v", tt.name, got.String(), again, err, got)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, in string }{
		{"no address", "zpl"},
		{"empty address", "zpl:"},
		{"unknown kind", "epson:10.0.0.1"},
		{"option without value", "zpl:10.0.0.1,dpmm"},
		{"bad dpmm", "zpl:10.0.0.1,dpmm=9"},
		{"baud on tcp", "zpl:10.0.0.1,baud=9600"},
		{"laser power on a printer", "zpl:10.0.0.1,power=0.5"},
		{"power above 1", "grbl:/dev/ttyUSB0,power=1.5"},
		{"power NaN", "grbl:/dev/ttyUSB0,power=NaN"},
		{"zero passes", "grbl:/dev/ttyUSB0,passes=0"},
		{"bad cut", "grbl:/dev/ttyUSB0,cut=maybe"},
		{"plate without height", "grbl:/dev/ttyUSB0,plate=300"},
		{"plate too small", "grbl:/dev/ttyUSB0,plate=5x5"},
		{"plate on a printer", "zpl:10.0.0.1,plate=300x200"},
	} {
		if sp, err := jobs.ParseSpec(tt.in); !errors.Is(err, jobs.ErrSpec) {
			t.Errorf("%s: ParseSpec(%q) = %+v, %v; want ErrSpec", tt.name, tt.in, sp, err)
		}
	}
}

func TestSpecJobKind(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]service.JobKind{
		"zpl:h": service.JobPrint, "brotherql:h": service.JobPrint, "grbl:/dev/ttyUSB0": service.JobEngrave,
	} {
		sp, err := jobs.ParseSpec(in)
		if err != nil || sp.JobKind() != want {
			t.Errorf("ParseSpec(%q).JobKind() = %v (%v), want %v", in, sp.JobKind(), err, want)
		}
	}
}

// FuzzParseSpec: no panic, and a spec that parses prints back to text
// that parses to the same spec.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"zpl:10.0.0.7:9100", "zpl:/dev/ttyS0,dpmm=12,baud=19200,name=front",
		"brotherql:10.0.0.8,model=QL-820NWB,media=62", "grbl:/dev/ttyUSB0,power=0.35,speed=1200,passes=2,cut=true,plate=300x200"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := jobs.ParseSpec(s)
		if err != nil {
			return
		}
		again, err := jobs.ParseSpec(sp.String())
		if err != nil || again != sp {
			t.Fatalf("ParseSpec(%q) = %+v; ParseSpec(%q) = %+v, %v", s, sp, sp.String(), again, err)
		}
	})
}
