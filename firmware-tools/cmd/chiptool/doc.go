// Command chiptool is the device-level toolbox of chipdesk: decode raw
// antenna captures and telegrams, parse reader output, simulate a
// reader, list, probe and tail ports, configure readers. Firmware is not
// flashed: no reader manual we hold documents a bootloader protocol, so
// updates stay with the vendor's tool (see chiptool config -h).
//
// Each subcommand lives in its own file and is listed in commands below.
//
// # References
//
//   - ISO 11784:1996 code structure; ISO 11785:1996 FDX-B, HDX and FDX-A
//     telegrams (telegram, trace).
//   - Proxmark3 traces/README.md: the .pm3 sample format (trace).
//   - The reader manuals named in each drivers/readers package (parse,
//     sim, tail, probe).
package main
