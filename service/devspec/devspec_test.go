package devspec_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/chipdesk/chipdesk/service/devspec"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want devspec.Spec
		err  error
	}{
		{"Plain", "wl134:/dev/ttyUSB0", devspec.Spec{Kind: "wl134", Addr: "/dev/ttyUSB0"}, nil},
		{"HostPort", "zpl:10.0.0.7:9100,dpmm=12", devspec.Spec{Kind: "zpl", Addr: "10.0.0.7:9100",
			Options: []devspec.Option{{"dpmm", "12"}}}, nil},
		{"Options", "allflex:/dev/rfcomm0,name=van-3,baud=19200", devspec.Spec{Kind: "allflex", Addr: "/dev/rfcomm0",
			Options: []devspec.Option{{"name", "van-3"}, {"baud", "19200"}}}, nil},
		{"ValueWithEquals", "grbl:/dev/ttyACM0,name=a=b", devspec.Spec{Kind: "grbl", Addr: "/dev/ttyACM0",
			Options: []devspec.Option{{"name", "a=b"}}}, nil},
		{"NoKind", "/dev/ttyUSB0", devspec.Spec{}, devspec.ErrForm},
		{"EmptyKind", ":/dev/ttyUSB0", devspec.Spec{}, devspec.ErrForm},
		{"EmptyAddress", "zpl:", devspec.Spec{}, devspec.ErrForm},
		{"Empty", "", devspec.Spec{}, devspec.ErrForm},
		{"OptionWithoutValue", "zpl:10.0.0.1,dpmm", devspec.Spec{}, devspec.ErrOption},
		{"OptionEmptyValue", "zpl:10.0.0.1,dpmm=", devspec.Spec{}, devspec.ErrOption},
		{"OptionEmptyName", "zpl:10.0.0.1,=8", devspec.Spec{}, devspec.ErrOption},
		{"TrailingComma", "zpl:10.0.0.1,", devspec.Spec{Kind: "zpl", Addr: "10.0.0.1"}, nil},
		{"EmptyOptionBetween", "zpl:10.0.0.1,dpmm=8,,name=a", devspec.Spec{}, devspec.ErrOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := devspec.Parse(tt.in)
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse(%q) = %+v, %v, want %+v, %v", tt.in, got, err, tt.want, tt.err)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"wl134:/dev/ttyUSB0", "zpl:10.0.0.7:9100,dpmm=12", "grbl:/dev/ttyACM0,plate=300x200,cut=true", "x", ":,="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := devspec.Parse(s)
		if err != nil {
			return
		}
		if got := sp.String(); got != s && got+"," != s {
			t.Errorf("Parse(%q).String() = %q, want the input", s, got)
		}
		back, err := devspec.Parse(sp.String())
		if err != nil || !reflect.DeepEqual(back, sp) {
			t.Errorf("Parse(%q) = %+v; String %q reads back as %+v, %v", s, sp, sp.String(), back, err)
		}
	})
}

func ExampleParse() {
	sp, err := devspec.Parse("zpl:10.0.0.7:9100,dpmm=12,name=counter")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sp.Kind, sp.Addr, sp.Head())
	for _, o := range sp.Options {
		fmt.Println(o.Key, "=", o.Value)
	}
	// Output:
	// zpl 10.0.0.7:9100 zpl:10.0.0.7:9100
	// dpmm = 12
	// name = counter
}
