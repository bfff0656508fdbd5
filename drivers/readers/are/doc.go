// Package are reads AEG and Trovan ARE hand-held readers (ARE H5, ARE
// H9 HF and relatives) on their serial or USB virtual COM link.
//
// In the hexadecimal output format a read is the 64-bit ISO 11784 code
// as 16 hex digits in air order: the bits as transmitted, first bit
// first, that is the code bit-reversed ("2858997D3A4F0000" is 969
// 123456789012, not an animal). It is sent as one line ended by CR LF.
//
// A MULTITAG line is the letter Z and the same 16 hex digits. In the
// Trovan output (the ARE K1 and the Trovan readers) a Trovan Unique read
// is its 10 hex digits on a line; such a line is a Trovan code, never an
// FDX-A (FECAVA) one: the line says no other type, and the readers give
// FDX-A and EM4102 codes their type only in records.
//
// Records read back from the reader's memory are framed STX … ETX: an
// attribute character, the date YYMMDD and time hhmmss, the code length
// minus one as a hex digit, the code as 16 hex digits, the transponder
// type (1 ISO-FDX, 6 ISO-HDX, 3 Trovan, 5 Destron = FDX-A, 2 64-bit
// ASK = EM4102, …), 14 text characters and a 4-hex CRC. A record of a
// 40-bit type gives a read of that kind.
// The manual does not name the CRC algorithm and none of the usual
// CRC-16 variants reproduces its example, so records cannot be checked:
// they give reads only when Opts.Records is set.
//
// # References
//
//   - AEG ARE H9 HF user's manual, §7.4 "Structure of the data base",
//     p. 35 (German edition p. 41); Trovan ARE H5 manual p. 20.
//   - ISO 11785:1996 §6: bit order on air (least significant bit
//     first).
//
// The MULTITAG Z line and the 10-hex Trovan output line are assumed (no
// ARE K1 or MULTITAG manual is held here): the Z line as the 16-hex
// output with its letter, the Trovan line as the 10 hex digits Trovan
// prints its codes in, without the 2-4-4 dashes.
package are
