// Package brotherql drives Brother QL label printers (QL-500 … QL-820NWB
// and the 162-byte-head QL-1050/1060N) with their raster protocol,
// through a port.Port: the USB printer-class pipe (usbport, or the
// kernel's usblp node) or a TCP connection to port 9100 on network
// models.
//
// A job is: invalidate (200 NUL bytes), initialise (ESC @), status
// request (ESC i S), raster mode (ESC i a 1, where the model has mode
// setting), print information (ESC i z), auto cut (ESC i M), cut every
// (ESC i A), expanded mode (ESC i K), feed margin (ESC i d), compression
// (M 2, TIFF PackBits, where the model supports it), one raster line per
// dot row (g 0 n …, mirrored, 90 or 162 bytes before packing) and print
// (FF between pages, SUB at the end). EncodeJob writes it; ParseJob reads
// it back.
//
// Over USB the printer answers the status request with 32 bytes
// (Status): the driver refuses to print when its error bits are set or
// the loaded media is not the one configured, and after the job it waits
// for "printing completed" and the phase change back to "waiting". Over
// the network a QL gives no status back: a Dev made with Opts.Network
// prints without checks, and Status returns printers.ErrStatusUnavailable
// so the caller knows the job was not confirmed.
//
// The print information flags byte (ESC i z n1) is 0xC6 for continuous
// tape where the command reference's QL-700 example has 0x8E: the
// length bit is left out because continuous tape has no length, and
// quality priority is asked for, for the code's module edges; die-cut
// media get 0xCE, and with JobOpts.Fast a die-cut job sends the example's
// 0x8E exactly (see the constants in job.go, tested in TestPrintInfoFlags).
//
// A printers.Label with Art (a tag's tags.Artwork) is laid out by the
// artwork for the loaded tape's printable width at the head's 300 dpi:
// the tag's outline, text and DataMatrix at the tag's own size (or a
// stated smaller scale on narrow tape) and a Code 128 under it.
//
// Rasterize turns an image.Image into dot rows at the head's 300 dpi,
// scaling it to the media's printable width and converting it to 1 bit by
// threshold or Floyd–Steinberg error diffusion.
//
// # References
//
//   - Brother, "Software Developer's Manual – Raster Command Reference"
//     for QL-500/550/560/570/580N/650TD/700/1050/1060N, for QL-710W/720NW
//     and for QL-800/810W/820NWB: command table, print information
//     command, status information (32 bytes), raster line format.
//   - Apple, "TIFF 6.0 Specification", section 9, PackBits compression.
//   - USB vendor id 0x04F9 and product ids: the usb.ids database.
//   - Media dots and offsets: Brother's media tables as tabulated by
//     pklaus/brother_ql labels.py (facts only; no code taken).
package brotherql
