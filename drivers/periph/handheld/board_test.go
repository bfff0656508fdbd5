package handheld_test

import (
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/chipdesk/chipdesk/drivers/periph/handheld"
	"github.com/chipdesk/chipdesk/drivers/readers/wl134"
)

// TestBoardOpen runs periph's host.Init for real (on a machine without
// GPIO it finds nothing and succeeds) and opens pins registered as
// gpiotest doubles under names no board uses.
func TestBoardOpen(t *testing.T) {
	buzzer := &gpiotest.Pin{N: "CHIPDESK_TEST_BUZZER", L: gpio.High}
	led := &gpiotest.Pin{N: "CHIPDESK_TEST_LED", L: gpio.High}
	for _, p := range []*gpiotest.Pin{buzzer, led} {
		if err := gpioreg.Register(p); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = gpioreg.Unregister(p.N) })
	}
	parts, err := handheld.Board{Buzzer: buzzer.N, LED: led.N}.Open(nil)
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	if parts.Feedback == nil || parts.UART != nil || parts.Antenna != nil {
		t.Errorf("Open = %+v, want feedback only", parts)
	}
	if buzzer.Read() || led.Read() {
		t.Error("Open left an output high")
	}
	if err := parts.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}

	for _, tc := range []struct {
		name string
		b    handheld.Board
		want string
	}{
		{"missing pin", handheld.Board{Buzzer: "CHIPDESK_NO_SUCH_PIN"}, "not found"},
		{"missing uart", handheld.Board{UART: "CHIPDESK_NO_SUCH_UART", Mode: wl134.Mode}, "uart"},
	} {
		if _, err := tc.b.Open(nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open = %v, want an error about %q", tc.name, err, tc.want)
		}
	}
}
