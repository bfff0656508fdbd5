// Package engravers defines what a tag engraver driver provides: an
// Engraver that marks a Job of polylines in millimetres, reports
// progress, can pause, resume and abort, and always leaves the laser off
// when a job ends, fails or is cancelled.
//
// The interface is the only thing the service sees, so a second kind of
// machine (a galvo fiber laser on a closed controller) is a new
// subpackage next to grbl and a line in the service's device table.
//
// # References
//
//   - gnea/grbl 1.1 documentation: doc/markdown/interface.md (streaming,
//     real-time commands), laser_mode.md.
//   - IEC 60825-1:2014, Safety of laser products (why the laser must be
//     off whenever a job is not running).
package engravers
