// Package iso11784 holds the 64-bit animal identification code of
// ISO 11784: the national identification code, the country or
// manufacturer code, the data-block flag, the reserved field (retagging
// counter, user information, RUDI flag) and the animal flag, with the
// forms the code is written in (15 digits, the spaced display form, the
// 64-bit value in both bit orders, the bytes on air), and the tables of
// ISO 3166 country names and ICAR manufacturer codes.
//
// Bit 0 of a Code is the first bit sent on air (ISO bit 64). The
// 15-digit form carries only the country and national fields; the flags
// travel only in the 64-bit forms.
//
// # Forms of one code
//
//	985 121004515220 (animal)      Display
//	985121004515220                String, ParseDecimal
//	8000F65C2C6E5F94               uint64(c)
//	29FA76343A6F0001               Reversed (air order MSB first; Proxmark3 "Raw", AEG/Trovan ARE)
//	94 5F 6E 2C 5C F6 00 80        WireBytes (byte order on air)
//
// # References
//
//   - ISO 11784:1996, Radio frequency identification of animals — Code
//     structure, clause 5 and table 1 (field layout, country code 1–999,
//     national ID 38 bits, animal and data-block flags).
//   - ISO 11784:1996/Amd 1:2004 (retagging counter, user information
//     field) and Amd 2:2010 (RUDI / advanced transponder flag).
//   - ISO 3166-1, Codes for the representation of names of countries,
//     numeric codes (data/countries.txt).
//   - ICAR, manufacturer codes 900–998 (shared code 900 with product
//     ranges) and test code 999 (data/manufacturers.txt).
package iso11784
