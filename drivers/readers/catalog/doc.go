// Package catalog lists the reader protocols chipdesk speaks, each with
// its line settings, its pure framing and decoding, an encoder of chip
// ids (for the simulator and round-trip tests), a harmless query where
// the protocol has one, and a constructor. It is a table built on each
// call, not a registry: nothing registers itself.
//
// # References
//
//   - The protocol packages under drivers/readers.
package catalog
