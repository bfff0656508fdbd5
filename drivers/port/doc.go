// Package port defines the byte transport every driver speaks through:
// a serial line, a Bluetooth SPP tty, a USB bulk pipe or a TCP socket.
//
// Implementations live in the subpackages serialport (go.bug.st/serial),
// usbport (gousb, build tag libusb), tcpport (TCP sockets) and porttest
// (record and replay fakes in the manner of periph's conntest); a
// handheld's UART is drivers/periph/uartport.
//
// # References
//
//   - POSIX.1-2017, General Terminal Interface (termios): baud rate,
//     character size, parity and stop bits, the fields of Mode.
//   - Go io package: the Reader, Writer and Closer contracts Port keeps.
package port
