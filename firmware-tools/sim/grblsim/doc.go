// Package grblsim is a fake GRBL 1.1 laser controller on a
// pseudo-terminal, for tests and for chiptool. The driver under test opens
// the terminal's name as it would /dev/ttyUSB0.
//
// It behaves as the firmware's documented interface does: a welcome
// banner at start and after every soft reset; a receive buffer of
// RXBuffer bytes (127 by default) that drops what does not fit and
// counts the loss, so a streamer that overruns it is caught; a planner of
// 15 blocks that executes one block per BlockTime, so "ok" comes only when
// a line was taken into the planner; ok / error:N replies; real-time
// commands ? ! ~ and 0x18 handled on receipt; ALARM:3 when reset during
// motion; $ settings ($32 laser mode, $30 maximum S), $X, $C, $I, $G.
//
// Beyond streaming it plays the station's side of the firmware: a feed
// hold (! or the FeedHold button) lasts until ~, however long; the
// safety door (0x84 or the Door switch) stops motion and the laser
// (Door:1 while open, Door:0 once closed, ~ resumes); with homing on
// ($22=1, Opts.Homing) it starts locked in Alarm and $H homes in the
// Home state; $J= jogs (Jog state, 0x85 cancels); G10 L2/L20 P1 sets the
// G54 work offset reported as WCO:; the override bytes 0x90-0x9D change
// feed, rapid and laser power within 10-200 % (Ov:, and FS: shows the
// result). Opts.Now injects the clock, so a test runs a ten-minute hold
// in no time.
//
// It records the laser: the spindle mode (M3, M4, M5) and S, the blocks
// that fired, and travel (G0) moves that would have fired because laser
// mode was off, so tests can assert the laser is off after an abort.
//
// # References
//
//   - gnea/grbl 1.1: doc/markdown/interface.md, commands.md,
//     laser_mode.md, doc/csv/error_codes_en_US.csv, alarm_codes_en_US.csv,
//     grbl/config.h (RX_BUFFER_SIZE, LINE_BUFFER_SIZE, BLOCK_BUFFER_SIZE).
package grblsim
