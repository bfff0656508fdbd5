// Package zplgf encodes and decodes ZPL II ^GF graphic fields in
// format A: hexadecimal dot rows with Zebra's ASCII compression.
//
// Encode emits the repeat letters (G-Y for 1-19, g-z for 20-400),
// "," (rest of the row is white) and ":" (same as the row above). It
// never emits "!" (rest of the row is black): renderers read that
// shorthand differently (zebrash fills with the hex digit 1, other
// tools with F), so runs of black use repeat letters instead. Decode
// accepts all of them and reads "!" as the guide states it: the rest of
// the row is black.
//
// # References
//
//   - Zebra ZPL II Programming Guide (45541L-002), ^GF Graphic Field and
//     "ASCII Hexadecimal Compression" (Z64 and B64 forms are not
//     handled).
package zplgf
