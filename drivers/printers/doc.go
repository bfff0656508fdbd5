// Package printers defines what every label printer driver provides: a
// Printer that takes a Label (a rendered picture, ready printer language
// or both) and a Status made of Faults that the service can act on
// without knowing the model.
//
// The drivers live in the subpackages: zpl (Zebra ZPL II printers over
// raw TCP port 9100, serial or USB) and brotherql (Brother QL raster
// printers over USB, serial or the network). Both talk through a
// port.Port, so a new transport plugs in without touching them.
//
// # References
//
//   - Zebra, "ZPL II Programming Guide" (45541L-002), ~HS host status.
//   - Brother, "Software Developer's Manual – Raster Command Reference"
//     for QL-500/550/560/570/580N/650TD/700/1050/1060N, QL-710W/720NW and
//     QL-800/810W/820NWB, status information table.
package printers
