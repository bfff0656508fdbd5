// Package periph gathers the parts of a handheld chip scanner built on a
// small Linux board with periph.io: the reader module on a UART
// (uartport, under the serial reader drivers of drivers/readers), a
// buzzer and an LED on GPIO (feedback), a demodulator front end whose
// comparator output is timed on a GPIO pin (antenna, into reader/demod),
// and the loop that ties them together (handheld).
//
// Nothing here touches hardware until a program hands it pins and
// connections; periph.io/x/host/v3 host.Init() finds them on the board.
// Tests use periph's gpiotest and conntest doubles.
//
// # References
//
//   - periph.io/x/conn/v3: gpio.PinIn/PinOut (WaitForEdge, Out),
//     conn.Conn (Tx), uart.Port.
package periph
