//go:build linux

package linefmt

import (
	"testing"

	"github.com/chipdesk/chipdesk/drivers/port/porttest"
	"github.com/chipdesk/chipdesk/drivers/port/serialport"
)

func openPTY(t *testing.T) (*porttest.PTY, *serialport.Port) {
	t.Helper()
	dev, err := porttest.NewPTY()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close() })
	sp, err := serialport.Open(dev.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return dev, sp
}
