//go:build !(libusb && cgo)

package usbport_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port/usbport"
)

func TestNewBusWithoutUSB(t *testing.T) {
	t.Parallel()
	b, err := usbport.NewBus()
	if b != nil || !errors.Is(err, usbport.ErrNoUSB) {
		t.Fatalf("NewBus() = %v, %v, want nil, ErrNoUSB", b, err)
	}
	if !strings.Contains(err.Error(), "built without USB support") {
		t.Errorf("NewBus() error %q does not say why", err)
	}
	if usbport.Supported {
		t.Error("Supported = true in a build without libusb")
	}
}
