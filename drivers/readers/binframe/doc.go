// Package binframe reads readers that send each chip as a short binary
// frame: a start byte, a length, the payload, an XOR check and an end
// byte. One Spec describes a family; AIR200 (Agrident) and AABB (the
// "AA … BB" 134.2 kHz modules sold beside the WL-134) are two Specs of
// the same driver.
//
// Frame: Start, n, n payload bytes, the XOR of n and the payload, End.
// The payload is, for a typed Spec, one type byte ('F' FDX-B, 'H' HDX),
// then the 64-bit ISO 11784 code as 8 bytes in wire order (least
// significant byte first, as on air), then, when the code's data-block
// flag is set, the 24-bit extension as 3 bytes, low byte first.
//
// # References and assumptions
//
// No Agrident AIR200 manual page with the frame layout, and no data
// sheet of the AA/BB modules, is held here (the stored corpora have the
// Agrident manuals' titles only, see the protocol notes §7.7). The
// layout above is assumed: the start and end bytes are those the
// families are known by (STX/ETX, 0xAA/0xBB), the code is in the wire
// byte order of ISO 11785 §6 and the check is the XOR the WL-134 frame
// also uses. testdata/frames.txt holds frames built from this layout,
// not captures; a real capture should replace them before the format is
// trusted.
//
//   - ISO 11784:1996 §5 (code fields), ISO 11785:1996 §6 (byte order on
//     air), Amd 1 (the data-block flag and extension).
package binframe
