// Package chipid turns any text a reader or a person writes for a
// microchip into one normalised chip id: its kind (ISO 11784, AVID,
// FECAVA / FDX-A, Trovan Unique), its code, and the manufacturer for a
// locale. It is the only parser of chip numbers in chipdesk: drivers cut
// the number out of their frames and hand it here, the service parses
// what staff type with it.
//
// Parse reports an input that reads as more than one chip as an
// *AmbiguousError listing every candidate and an input that is no chip
// number as ErrInvalid; it never guesses. A reading is dropped only on
// evidence (a country code ISO 3166 does not assign, a field out of
// range) or by the form the reader declares (Opts.Form), which drivers
// pass so that a scan is never ambiguous. property_test.go states the
// promise over every country and manufacturer code and every written
// form: no text parses to a chip other than the one its reader meant.
// The plain 15-digit form, the common case on the scan path, parses
// without allocating.
//
// # Telling the forms apart
//
//   - 15 digits, in any grouping: ISO 11784 (country or manufacturer
//     code, then the national ID).
//   - 16 hex digits: the ISO 11784 64-bit value or its air-order
//     (bit-reversed) form; when they are all digits with a leading
//     zero, also the Tru-Test decimal form. See Parse for the evidence
//     rule.
//   - 16 to 23 characters with a reserved field: the Allflex TIRIS
//     style, Datamars and Digi-Star "A" forms and the 23-digit form.
//   - 9 digits: AVID.
//   - 10 hex digits: FECAVA / FDX-A; grouped 2-4-4 with dashes, or after
//     the word TROVAN: Trovan Unique.
//
// # References
//
//   - ISO 11784:1996 clause 5 (code structure: country code 1–999,
//     38-bit national ID, animal flag) and Amd 1:2004 (reserved field).
//   - ISO 11785:1996 clause 6 (the 64 bits sent least significant bit
//     first, hence the air-order hex form of AEG/Trovan ARE readers).
//   - ISO 24631-6:2011 (reader output lines).
//   - Allflex panel reader manual v2.4 (the "LA ccc nnnnnnnnnnnn" line),
//     Priority 1 Design RFIDRW-E-TTL manual rev E (ccc_nnnnnnnnnnnn),
//     AEG ARE H9 HF manual (16-hex air-order code).
//   - Tru-Test 16-digit form (a leading zero, then the 15 digits) as
//     resellers document it; the Datamars / Digi-Star "A 00000 0 ccc
//     nnnnnnnnnnnn" and "A" + 22 digits forms, the 23-digit form (the
//     animal flag digit, 5 reserved digits, the data-block flag, a
//     4-digit country, 12 digits) and the ARE MULTITAG "Z" + 16-hex
//     line: no manual for these is held here; the layouts are assumed
//     from the Allflex TIRIS line they extend (reserved field, flag,
//     code) and the ARE hexadecimal output (air order). The reserved
//     digits are checked to be digits and not otherwise read.
//   - Animal Shelter Manager (sheltermanager/asm3), chip prefix list
//     chipprefix/chipprefixes.txt: the manufacturer labels of non-ISO
//     chips and of product ranges; the deliberate differences are listed
//     in manufacturer_test.go.
package chipid
