// Package protocoltest holds what the tests of the reader protocol
// packages share: the reader lines quoted from the manuals, and the
// properties every protocol's fuzz tests check (a frame that decodes
// encodes back to itself; every frame a Split gives decodes).
//
// # References
//
//   - The reader manuals each line of reader_lines.json names in its
//     "src" field (Allflex, Priority 1 Design RFIDRW-E-TTL, AEG ARE).
//   - ISO 11784:1996 code structure, ISO 11785:1996 telegram, which the
//     expected parses follow.
package protocoltest
