// Package porttest holds fakes of port.Port for driver tests, in the
// manner of periph's conntest: Playback replays a recorded exchange and
// fails on any write the script did not expect, Record wraps a real port
// and keeps what went each way, and Pipe joins a driver to a test that
// plays the device, in memory, with read timeouts and hang-ups.
//
// # References
//
//   - periph.io/x/conn/v3/conntest: Playback, Record, Discard.
package porttest
