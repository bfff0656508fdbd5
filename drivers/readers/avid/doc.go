// Package avid reads AVID readers with an RS-232 link (the Power Tracker
// family) in their interactive protocol: the host sends a space to start
// a read; the reader answers "Looking" while it reads, then either "No
// ID Found" or the chip number, each line ended by CR LF.
//
// The driver sends the space when it starts, after each answer, and
// after TriggerEvery without one (a reader that slept or missed the
// space). Numbers are read by package chipid in the forms AVID readers
// print: AVID*ddd*ddd*ddd for AVID chips, 15 digits for ISO 11784 chips,
// 10 hex digits for FDX-A (FECAVA) chips.
//
// # References and assumptions
//
// No AVID manual is held here. The trigger and the three answers are as
// the issue tracker describes the Power Tracker's protocol; the line
// settings (9600 8N1) and the CR LF line ends are assumed, as is the
// 15-digit form of ISO reads. testdata/session.txt is a session built
// from that description, not a capture.
//
//   - AVID*ddd*ddd*ddd: the shelter convention for AVID numbers (Animal
//     Shelter Manager's chip prefix list).
package avid
