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
// Jobs run in laser mode ($32=1) with dynamic power (M4 S…), so travel
// moves never fire. Before the first job the driver reads the settings
// ($$); a controller with $32=0 is changed only when the operator
// allowed it (Opts.SetLaserMode), otherwise the job fails with
// engravers.ErrSettings and nothing is written. When a job fails, times
// out, is aborted or its context is cancelled, the driver holds the feed
// (!), resets the controller (0x18), which switches the laser off, and
// waits for the welcome banner: the laser is off whatever way Engrave
// returns.
//
// The machine's own state counts: a feed hold (Hold:0/1) or the safety
// door (Door:0-3) is a pause that lasts as long as the operator wants,
// reported through Progress.Held, resumed with ~ (Resume) or aborted;
// only silence (no ok, no status report, no movement) for AckTimeout is
// a link fault. Progress comes from status reports (a new position) as
// well as oks. A job whose every line was sent and whose machine reports
// Idle at the program's end position is done even if an ok was garbled
// on the way; an end that cannot be confirmed is engravers.ErrUnclear,
// "check the tag", so nobody engraves the same number twice unasked.
//
// Station controls (engravers.Station): Home ($H), Unlock ($X), Jog
// ($J=G91 …, JogCancel 0x85), SetOrigin (G10 L20 P1 X0 Y0: the G54
// offset lives in EEPROM and survives the soft resets the driver sends,
// where a G92 offset would not), Frame (the job's bounds traced with M5,
// laser off), Estimate (from $110/$111), Override (0x90-0x9D) and Abort.
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
