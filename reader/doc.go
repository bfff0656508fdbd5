// Package reader defines what every microchip reader produces: a Read
// carrying one normalised chip identity (package chipid), and the pull
// based Reader interface that drivers under drivers/readers implement.
//
// The subpackages hold the protocol core:
//
//   - iso11784: the 64-bit animal identification code, its country and
//     manufacturer tables;
//   - iso11785: the FDX-B and HDX telegrams and the FDX-A code;
//   - demod: sampled antenna signals to telegrams;
//   - chipid: any text a reader or a person writes to one chip id;
//   - readertest: a scripted fake Reader.
//
// # References
//
//   - ISO 11784:1996 (+Amd 1:2004, Amd 2:2010), Radio frequency
//     identification of animals — Code structure.
//   - ISO 11785:1996 (+Amd 1:2008), Radio frequency identification of
//     animals — Technical concept.
package reader
