// Package readers holds what every microchip reader driver under it
// shares: a Scanner that cuts frames out of a byte stream with a
// protocol's SplitFunc and counts what it throws away, and the Dev that
// reads a port.Port straight into its own Scanner under a context and
// decodes its frames in the same loop.
//
// Framing is pure (bytes in, frames out, no I/O) so that each protocol's
// decoder can be fuzzed and shared with the reader simulator.
//
// A Protocol is a reader family as a value (split, decode, encode,
// query or read trigger, line settings); one Dev reads any of them, and
// sends the commands of readers that take some (Exchange). One package
// per reader protocol sits below: wl134, allflex, rfidrw, rt100, are,
// iso24631, avid, datamars and binframe (the AIR200 and AA/BB frames)
// export such values; linefmt makes one from a configured pattern, and
// hidwedge from a keyboard layout, for scanners that type (USB boot
// reports, or Linux input events through drivers/port/evdevport).
// catalog lists them all, discovery finds and probes ports, runner
// keeps a reader running across hang-ups, debounces its reads and hands
// them to their use; protocoltest holds what the protocol packages'
// tests share (the manuals' lines, the fuzz tests' properties).
// Drivers hand chip numbers to package chipid with the form their
// reader writes (ChipText), so a read is never ambiguous.
//
// # References
//
//   - ISO 11784:1996 code structure; ISO 11785:1996 technical concept.
//   - ISO 24631-6:2011 representation of animal identification
//     information.
//   - The reader manuals listed in each protocol package.
package readers
