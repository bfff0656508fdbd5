// Package grbl drives laser engravers that run GRBL 1.1 over a serial
// line (port.Port, 115200 8N1).
//
// A Dev streams g-code by character counting: the bytes of lines sent
// but not yet answered never exceed the controller's receive buffer (127
// bytes by default), each line ends with LF only, and $ settings are sent
// one at a time, each waiting for its ok. Replies are ok, error:N (see
// ErrorText) and ALARM:N (AlarmText); status reports (?) are parsed by
// ParseStatus. Pause and Resume send the real-time feed hold (!) and
// cycle start (~).
//
// Jobs run in laser mode ($32=1, set before the first job) with dynamic
// power (M4 S…), so travel moves never fire. When a job fails, times out
// or its context is cancelled, the driver holds the feed (!), resets the
// controller (0x18), which switches the laser off, and waits for the
// welcome banner: the laser is off whatever way Engrave returns.
//
// # References
//
//   - gnea/grbl 1.1: doc/markdown/interface.md ("Streaming Protocol:
//     Character-Counting", "Real-time Commands", "Grbl Response
//     Messages", "Real-time Status Reports"), commands.md, laser_mode.md,
//     doc/csv/error_codes_en_US.csv, doc/csv/alarm_codes_en_US.csv,
//     doc/script/stream.py, grbl/config.h (RX_BUFFER_SIZE 128,
//     LINE_BUFFER_SIZE 80, BLOCK_BUFFER_SIZE 16).
package grbl
