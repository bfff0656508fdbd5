// Package serialport opens serial lines (USB-serial adapters, on-board
// UARTs, Bluetooth SPP ttys, pseudo-terminals) as port.Port through
// go.bug.st/serial, and lists the serial ports of the machine with their
// USB vendor, product and serial number.
//
// It smooths over the library's habits so drivers see one contract:
//
//   - a read that times out returns an error wrapping port.ErrTimeout
//     instead of (0, nil);
//   - a device that goes away (unplugged adapter, dropped Bluetooth link,
//     the far end of a pty closed) gives errors wrapping port.ErrHangup,
//     while reads and writes after our own Close give port.ErrClosed;
//   - the port is opened exclusively (TIOCEXCL on Unix; note that root
//     bypasses it);
//   - modem-control lines are left alone, so the same code runs on a
//     pseudo-terminal, which has none.
//
// # References
//
//   - go.bug.st/serial v1.8.0 and its enumerator package.
//   - termios(3), tty_ioctl(4): TIOCEXCL, raw mode.
//   - Linux sysfs /sys/class/tty/*/device: idVendor, idProduct, serial.
package serialport
