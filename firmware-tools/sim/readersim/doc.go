// Package readersim is a virtual microchip reader on a pseudo-terminal.
// A Sim speaks one protocol of package catalog: it writes the exact
// bytes that reader sends for each chip it is given, at an optional
// rate and with optional random noise between frames, and answers the
// protocol's commands (RFIDRW-E status and version replies, Allflex
// echo). Drivers open its tty path like a real serial port.
//
// It can also drop the line (Hangup) and come back on a new
// pseudo-terminal behind the same symlink (Reconnect), as an unplugged
// USB adapter or a lost Bluetooth link does.
//
// chiptool sim and chipdesk demo are built on it.
//
// # References
//
//   - pty(7), termios(3): pseudo-terminals, raw mode.
//   - The protocol packages under drivers/readers.
package readersim
