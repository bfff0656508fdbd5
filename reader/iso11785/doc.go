// Package iso11785 encodes and decodes the telegrams of ISO 11785 animal
// transponders at bit and byte level: the 128-bit FDX-B telegram (header,
// control bits, CRC, 24-bit extension and its Bio-Thermo temperature),
// the HDX telegram, and the FDX-A (FECAVA) code of the older 125 kHz
// chips. Sampled signals are turned into bits by package demod; the
// codes themselves are package iso11784.
//
// Decoders check everything they can and return an error wrapping one
// of ErrLength, ErrHeader, ErrFraming, ErrCRC, ErrParity or
// ErrInvalidCode; they never panic.
//
// # References
//
//   - ISO 11785:1996, Radio frequency identification of animals —
//     Technical concept: clause 6.2 (FDX-B: 11-bit header, control bit
//     after every 8 data bits, LSB first, 128-bit telegram, 24-bit
//     extension), clause 6.3 (HDX: start byte 0x7E, same code and CRC),
//     annex on the CRC (CCITT polynomial, here CRC-16/KERMIT).
//   - ISO 11784:1996 clause 5 (the 64-bit code and its data-block flag).
//   - Proxmark3 client, cmdlffdxb.c and cmdlfdestron.c, and Flipper Zero
//     lib/lfrfid protocol_fdx_b.c and protocol_fdx_a.c (Bio-Thermo rule,
//     FDX-A 7 data bits + odd parity per byte), as checked against real
//     chip captures in the project's vectors.
//   - Priority 1 Design RFIDRW-E-TTL manual rev E (CRC AEC4 example).
package iso11785
