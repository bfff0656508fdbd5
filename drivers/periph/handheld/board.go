package handheld

import (
	"errors"
	"fmt"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/uart"
	"periph.io/x/conn/v3/uart/uartreg"
	"periph.io/x/host/v3"

	"github.com/chipdesk/chipdesk/drivers/periph/feedback"
	"github.com/chipdesk/chipdesk/drivers/periph/uartport"
	"github.com/chipdesk/chipdesk/drivers/port"
)

// Board names the parts of a handheld as periph's registries know them
// once host.Init has found the board's drivers.
type Board struct {
	// UART is the reader module's port ("UART0"); empty when the reader
	// is reached another way (a USB adapter through serialport).
	UART string
	// Mode is the module's line (wl134.Mode for a WL-134).
	Mode port.Mode
	// Buzzer and LED are output pins ("GPIO18"); empty for none.
	Buzzer, LED string
	// Antenna is the comparator input of a raw front end; empty for none.
	Antenna string
}

// Parts are a Board's parts, opened.
type Parts struct {
	// UART is the reader module's port, nil without Board.UART.
	UART     *uartport.Port
	Feedback *feedback.Dev
	// Antenna is the front end's input pin, nil without Board.Antenna.
	Antenna gpio.PinIn

	uart uart.PortCloser
}

// Close closes the UART and silences the feedback.
func (p *Parts) Close() error {
	var errs []error
	if p.UART != nil {
		errs = append(errs, p.UART.Close())
	}
	if p.uart != nil {
		errs = append(errs, p.uart.Close())
	}
	if p.Feedback != nil {
		errs = append(errs, p.Feedback.Close())
	}
	return errors.Join(errs...)
}

// Open initialises the host's drivers (periph host.Init) and opens the
// parts b names. fo configures the feedback.
func (b Board) Open(fo *feedback.Opts) (*Parts, error) {
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("handheld: host init: %w", err)
	}
	pin := func(what, name string) (gpio.PinIO, error) {
		if name == "" {
			return nil, nil
		}
		p := gpioreg.ByName(name)
		if p == nil {
			return nil, fmt.Errorf("handheld: %s pin %q not found on this board", what, name)
		}
		return p, nil
	}
	buzzer, err := pin("buzzer", b.Buzzer)
	if err != nil {
		return nil, err
	}
	led, err := pin("led", b.LED)
	if err != nil {
		return nil, err
	}
	ant, err := pin("antenna", b.Antenna)
	if err != nil {
		return nil, err
	}
	parts := &Parts{}
	if ant != nil {
		parts.Antenna = ant
	}
	// A nil interface, not a typed nil, for a missing pin.
	var bo, lo gpio.PinOut
	if buzzer != nil {
		bo = buzzer
	}
	if led != nil {
		lo = led
	}
	if parts.Feedback, err = feedback.New(bo, lo, fo); err != nil {
		return nil, err
	}
	if b.UART != "" {
		u, err := uartreg.Open(b.UART)
		if err != nil {
			_ = parts.Close()
			return nil, fmt.Errorf("handheld: uart %q: %w", b.UART, err)
		}
		parts.uart = u
		if parts.UART, err = uartport.Connect(u, b.Mode, nil); err != nil {
			_ = parts.Close()
			return nil, err
		}
	}
	return parts, nil
}
