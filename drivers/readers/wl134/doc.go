// Package wl134 reads the 30-byte binary frames of the cheap 134.2 kHz
// FDX-B/HDX reader modules (WL-134, WL-134A, CZSTAR-R134) on a 9600 8N1
// serial line (see Mode for the stop bits).
//
// A frame is STX (0x02), the national ID as 10 ASCII hex digits least
// significant digit first, the country code as 4 such digits, the
// data-block and animal flags as '0'/'1', 4 and 6 reserved hex digits
// (kept LSB first like the others; always zero in the vendor examples),
// the XOR of bytes 1–26, its bitwise inverse, and the end byte 0x03. A
// frame ending otherwise is refused: an 0x07 "HDX" end byte appears in
// neither the CZSTAR-R134 frame table nor Makuna's Rfid134 parser
// (which fails it as EndCodeMismatch), so the read's protocol is ISO:
// the module prints FDX-B and HDX chips alike. The modules take no
// commands.
//
// Decode and Encode are pure and shared with the reader simulator.
//
// # References
//
//   - WL-134A instruction sheet (vendor, pages 1–2) and CZSTAR-R134
//     frame table (Ritsuyaru/CatFlap README): frame layout, end byte.
//   - Makuna/Rfid134 src/Rfid134.h: the same layout, end byte 0x03
//     only.
//   - ISO 11784:1996 §5: country code and national ID fields.
//   - ISO 11785:1996: FDX-B and HDX air interfaces.
package wl134
