// Package devspec reads and writes the form that configures a device on
// the command line and in the configuration: KIND:ADDRESS[,option=value...].
// It splits the form only; what a kind and its options mean is the
// business of the package that runs the device (hardware for readers,
// jobs for printers and engravers).
//
//	wl134:/dev/ttyUSB0,name=van-3,debounce=500ms
//	zpl:10.0.0.7:9100,dpmm=12
//
// The address runs from the first colon to the first comma, so it may
// hold colons (host:port) but no commas; an option value may hold
// anything but a comma.
//
// # References
//
//   - getsubopt(3), POSIX.1-2017 (The Open Group Base Specifications
//     Issue 7): comma-separated name=value suboptions, the form of the
//     options here.
//   - POSIX.1-2017, XBD 12.1 Utility Argument Syntax.
package devspec
