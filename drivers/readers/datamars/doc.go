// Package datamars reads Datamars GES3S stick readers (and the Digi-Star
// indicators that print the same lines) in their two output formats:
//
//   - the Bluetooth (live) format, one read a line: "A 00000 0 982
//     000017383201" (A for an animal tag, the 5-digit reserved field,
//     the data-block flag, the country or manufacturer code, the
//     national ID), or the compact "A0000000964000000123456" with a
//     4-digit country code;
//   - the memory format, one stored read a line: record number, date
//     (YYYY-MM-DD), time (hh:mm:ss) and the tag in the live format,
//     separated by commas.
//
// Both end with CR LF. Live lines give reads; memory lines are stored
// sessions and give reads only with Opts.Records, as the other drivers'
// memory dumps do. The tag is read by package chipid in its decimal
// form.
//
// # References and assumptions
//
// No Datamars or Digi-Star manual is held here. The live forms are as
// the issue tracker quotes them for these readers (they extend the
// Allflex TIRIS line of the Allflex panel reader manual p.19, which
// chipid reads too); the memory record's fields and separators and the
// line settings (9600 8N1, the GES3S's Bluetooth serial port profile)
// are assumed. testdata/lines.txt is built from this description.
package datamars
