// Package allflex reads the legacy ASCII protocol of Allflex readers
// (RS250 and RS320 stick readers, panel and portal readers): one line
// per chip, 9600 8N1, every character sent to the reader echoed back.
//
// The default line is "LA 982 000001088420" CR LF: the line-mode initial
// 'L', 'A' for an animal-coded read-only tag, the country or
// manufacturer code and the 12-digit national ID. The TIRIS S2000-style
// option (configuration BE40239) adds a 5-digit reserved field and the
// data-block flag: "LA 00000 0 982 000001088420". Industrial HDX tags
// print "LR 0006 0000000018514348" (application code and 16 digits);
// they are not animal chips and give no read. HDX and FDX-B chips print
// identically, so reads carry reader.AirISO.
//
// # References
//
//   - Allflex RFID Panel and Portal Readers user manual v2.4, pp. 19,
//     23, 40, 46: line formats, the R command, serial defaults.
//   - Allflex RS320 user guide p. 20; RS250 manual p. 5.
package allflex
