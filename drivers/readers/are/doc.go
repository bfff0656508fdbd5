// Package are reads AEG and Trovan ARE hand-held readers (ARE H5, ARE
// H9 HF and relatives) on their serial or USB virtual COM link.
//
// In the hexadecimal output format a read is the 64-bit ISO 11784 code
// as 16 hex digits in air order: the bits as transmitted, first bit
// first, that is the code bit-reversed ("2858997D3A4F0000" is 969
// 123456789012, not an animal). It is sent as one line ended by CR LF.
//
// Records read back from the reader's memory are framed STX … ETX: an
// attribute character, the date YYMMDD and time hhmmss, the code length
// minus one as a hex digit, the code as 16 hex digits, the transponder
// type (1 ISO-FDX, 6 ISO-HDX, …), 14 text characters and a 4-hex CRC.
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
package are
