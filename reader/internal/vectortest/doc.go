// Package vectortest reads the FDX-B acceptance vectors
// (fdxb_vectors.json: ISO 11784 codes in every written form, with their
// ISO 11785 CRC and telegram) that the tests of reader's packages share.
// Each package keeps its own copy of the file under testdata.
//
// # References
//
//   - ISO 11784:1996 clause 5, code structure (the id64, id15 and
//     display forms, the animal and data-block flags).
//   - ISO 11785:1996 clause 6.2, FDX-B telegram and CRC.
package vectortest
