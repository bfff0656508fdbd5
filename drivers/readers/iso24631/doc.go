// Package iso24631 reads readers that follow ISO 24631-6, the standard
// representation of animal identification information on a
// communication link (RS-232, USB): ASCII lines, each starting with STX
// (0x02).
//
// A line here is STX, the ISO 11784 code in its displayed form (3-digit
// country or manufacturer code, a space, the 12-digit national ID), and
// optionally, each after a space, the retagging counter (one digit,
// 0–7), the user information field (two digits, 00–31) and the value
// standing for the additional information fields (three digits, "000"),
// ended by CR LF:
//
//	STX "982 000123456789 0 00 000" CR LF
//
// The standard's clause 4.3 and its Figure 4 were only available in
// excerpt: the field separators and the three-digit additional value
// are as the excerpt says; the widths of the retagging counter and
// user information fields follow ISO 11784 Amd 2 (3 and 5 bits). Check
// against a conforming reader before relying on them.
//
// # References
//
//   - ISO 24631-6:2011 Radio frequency identification of animals — Part
//     6: Representation of animal identification information (visual
//     display/data transfer), clause 4.3 and Figure 4.
//   - ISO 11784:1996/Amd 2:2010: retagging counter, user information.
package iso24631
