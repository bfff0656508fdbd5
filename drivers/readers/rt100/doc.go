// Package rt100 reads the Realtrace / Swiss-plus PetScan RT100 V8 pet
// scanner over its USB virtual COM port or Bluetooth SPP: 9600 8N1, push
// only.
//
// Each read is a frame "U", an 8-character chip type, a 16-character
// chip identifier, "*", a CRC as 4 upper-case hex digits and CR. The CRC
// is CRC-16/AUG-CCITT (polynomial 0x1021, the manual's "initial value
// 0xFFFF" in augmented form, i.e. 0x1D0F non-augmented, no reflection;
// check value 0xE5CC). Records dumped from the scanner's memory carry a
// prefix of 0xAA, a 4-character record number and "*"; they are stored
// scans, not live reads, and give no read.
//
// The manual excerpt does not give the CRC coverage nor the chip-type
// strings. This package takes the CRC over the 24 characters of type
// and identifier, the chip types "FDX-B", "HDX", "FDX-A", "AVID",
// "TROVAN" and "ISO" padded with spaces, and the identifier as the chip
// number left-aligned and padded with spaces. Check these against a
// capture from a real scanner before relying on them.
//
// # References
//
//   - Realtrace RT100 V8 BT user manual p. 15; Swiss-plus V8BT manual
//     p. 14: frame layout, CRC parameters, memory dump prefix.
//   - CRC catalogue: CRC-16/SPI-FUJITSU (alias CRC-16/AUG-CCITT).
package rt100
