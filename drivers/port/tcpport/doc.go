// Package tcpport makes a TCP connection a port.Port, for printers that
// take raw print data on a socket (port 9100, "raw" or "JetDirect"
// printing) and answer status queries on the same connection.
//
// Read timeouts become port.ErrTimeout, a connection closed or reset by
// the peer becomes port.ErrHangup, and use after Close port.ErrClosed.
//
// # References
//
//   - RFC 9293, Transmission Control Protocol.
//   - Zebra, "ZPL II Programming Guide" (45541L-002): raw TCP port 9100.
package tcpport
