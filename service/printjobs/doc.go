// Package printjobs makes licence tags: it turns a licence into the tag
// of its jurisdiction's design for the licence year (package tags) and
// runs the print queue, taking queued print jobs from the store one at a
// time, rendering each tag to a ZPL label and sending it to a printer
// (drivers/printers), and marking the job sent, done or failed.
//
// A job is claimed (queued → sent) before the label goes out, so two
// runners never print the same job; a job the printer refused is marked
// failed with the printer's error and may be queued again by a person.
//
// # References
//
//   - Minneapolis Code of Ordinances 64.30 (the tag carries the register
//     number and the year), 64.40 (duplicate tags).
//   - Zebra, "ZPL II Programming Guide" (^XA … ^XZ formats, ~HS).
package printjobs
