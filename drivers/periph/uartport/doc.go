// Package uartport makes a periph.io UART connection a port.Port, so the
// serial reader drivers of drivers/readers (wl134, rfidrw, ...) run
// unchanged on a reader module wired to a board's UART.
//
// periph's conn.Conn has no read timeout and blocks in Tx; a Port reads
// the connection in its own goroutine and hands data to Read, which
// returns port.ErrTimeout when the read timeout passes first. Writes go
// straight through Tx.
//
// # References
//
//   - periph.io/x/conn/v3: conn.Conn (Tx, Duplex), uart.Port (Connect
//     sets speed, stop bits, parity, flow control and data bits once).
package uartport
