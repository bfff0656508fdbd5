package printers

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestFaultIs(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("zpl: not ready: %w", FaultPaperOut|FaultHeadOpen)
	tests := []struct {
		name   string
		target error
		want   bool
	}{
		{"paper out", FaultPaperOut, true},
		{"head open", FaultHeadOpen, true},
		{"both", FaultPaperOut | FaultHeadOpen, true},
		{"paused", FaultPaused, false},
		{"paper out and paused", FaultPaperOut | FaultPaused, false},
		{"other error", ErrStatusUnavailable, false},
		{"zero fault", Fault(0), false},
	}
	for _, tt := range tests {
		if got := errors.Is(err, tt.target); got != tt.want {
			t.Errorf("%s: errors.Is(%v, %v) = %v, want %v", tt.name, err, tt.target, got, tt.want)
		}
	}
}

func TestFaultString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		f    Fault
		want string
	}{
		{"none", 0, "ready"},
		{"one", FaultPaused, "paused"},
		{"two", FaultPaperOut | FaultRibbonOut, "paper out, ribbon out"},
		{"unknown", 1 << 31, "unknown fault"},
	}
	for _, tt := range tests {
		if got := tt.f.String(); got != tt.want {
			t.Errorf("%s: Fault(%#x).String() = %q, want %q", tt.name, uint32(tt.f), got, tt.want)
		}
	}
	if got := (Status{Faults: FaultPaused}).Err(); !errors.Is(got, FaultPaused) {
		t.Errorf("Status.Err() = %v, want paused", got)
	}
	if got := (Status{}).Err(); got != nil {
		t.Errorf("Status{}.Err() = %v, want nil", got)
	}
}

func ExampleFault() {
	err := fmt.Errorf("zpl: printer not ready: %w", FaultPaperOut|FaultPaused)
	fmt.Println(err)
	fmt.Println(errors.Is(err, FaultPaused))
	// Output:
	// zpl: printer not ready: printers: paper out, paused
	// true
}

type confirming struct {
	Printer
	confirms bool
}

func (c confirming) Confirms() bool { return c.confirms }

func TestUnconfirmed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if Unconfirmed(ctx, confirming{confirms: true}) || !Unconfirmed(ctx, confirming{confirms: false}) {
		t.Error("Unconfirmed does not follow Confirms")
	}
}
