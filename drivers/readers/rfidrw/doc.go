// Package rfidrw drives the Priority 1 Design RFIDRW-E (TTL and USB)
// 134.2 kHz reader/writer: 9600 8N1, ASCII commands and replies ended
// by CR.
//
// An FDX-B or HDX chip prints "999_000000001008" CR once per presence
// (the two air protocols are not told apart). Commands used here: VER
// (firmware version), SRA and SRD (RF on, off), SDn and STn (default and
// temporary tag type; n = 2 for FDX-B/HDX), RAT (read animal tag: the
// code, animal and data-block flags, the tag's CRC and its extension,
// "999_000000001007_1_0_AEC4_000000") and LTG (locate tag). Status
// replies: OK, ?0 not understood, ?1 no tag, ?2 read/write failure, ?3
// block 0 denied, ?4 bad page.
//
// # References
//
//   - Priority 1 Design, MAN_RFIDRW-E-TTL rev E (firmware 308), pp. 7,
//     8, 20, 23.
package rfidrw
