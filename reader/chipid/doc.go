// Package chipid turns any text a reader or a person writes for a
// microchip into one normalised chip id: its kind (ISO 11784, AVID,
// FECAVA / FDX-A, Trovan Unique), its code, and the manufacturer for a
// locale. It is the only parser of chip numbers in chipdesk: drivers cut
// the number out of their frames and hand it here, the service parses
// what staff type with it.
//
// Parse reports an input that reads as more than one chip as an
// *AmbiguousError and an input that is no chip number as ErrInvalid; it
// never guesses. The plain 15-digit form, the common case on the scan
// path, parses without allocating.
//
// # Telling the forms apart
//
//   - 15 digits, in any grouping: ISO 11784 (country or manufacturer
//     code, then the national ID).
//   - 16 hex digits: the ISO 11784 64-bit value or its air-order
//     (bit-reversed) form; see Parse for the plausibility rule.
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
//   - Animal Shelter Manager (sheltermanager/asm3), chip prefix list
//     chipprefix/chipprefixes.txt: the manufacturer labels of non-ISO
//     chips and of product ranges; the deliberate differences are listed
//     in manufacturer_test.go.
package chipid
