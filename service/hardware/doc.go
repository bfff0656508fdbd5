// Package hardware runs the microchip readers configured for a site and
// turns each read into a scan event.
//
// A reader is configured as KIND:PORT[,option=value...] ("wl134:/dev/ttyUSB0",
// "allflex:/dev/rfcomm0,baud=9600"); the kinds are those of
// drivers/readers/catalog. Each reader runs under the reconnecting,
// debouncing runner of drivers/readers/runner in its own goroutine, owned
// by a Manager: the runner's loop is the reader's, and hands every read
// straight to the Pipeline, which resolves it to the lookup answer
// (service/lookup), stores it as a service.Scan, and publishes it on the
// events hub that feeds the HTTP scan stream.
//
// The Pipeline also takes scans that arrive as text over HTTP (a
// handheld, a keyboard-wedge page): they are parsed by reader/chipid and
// handled like any other read.
//
// # References
//
//   - ISO 11784:1996 / ISO 11785:1996 (what a reader reports).
//   - WHATWG HTML, section 9.2 "Server-sent events" (where events go).
package hardware
