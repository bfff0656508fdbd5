// Package discovery finds microchip readers: it lists the serial ports
// of the machine with their USB vendor, product and serial number,
// names the USB-serial bridge behind each from the known-adapter table
// of package usbids, and probes a port to tell which reader protocol
// answers on it.
//
// Probe listens first (every protocol's framing is run over the bytes
// received at each baud rate, so a reader that pushes a chip read is
// recognised by a well-formed frame), then sends each protocol's
// harmless query where it has one (VER to an RFIDRW-E, P to an Allflex,
// which echoes) and checks the answer. A reader that only pushes reads
// is found only while a chip is held to it.
//
// # References
//
//   - go.bug.st/serial/enumerator; Linux sysfs USB attributes.
//   - Priority 1 Design MAN_RFIDRW-E-TTL rev E p. 23 (VER, status);
//     Allflex panel reader manual v2.4 p. 40 (echo, P command).
package discovery
