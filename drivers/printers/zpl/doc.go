// Package zpl drives Zebra ZPL II label printers through a port.Port:
// a raw TCP connection to port 9100 (tcpport), a serial line
// (serialport) or a USB printer-class pipe (usbport).
//
// A Dev sends complete ^XA … ^XZ formats. Before each job, and after it,
// it asks the printer for its host status (~HS) and turns the reply into
// printers.Fault errors: paper out, head open, paused, ribbon out, head
// over or under temperature, receive buffer full, configuration lost. A
// printer that reports a fault gets no job.
//
// # References
//
//   - Zebra, "ZPL II Programming Guide" (45541L-002, and the current
//     zpl-zbi2-pm-en edition): ^XA, ^XZ, ^PQ, ~HS "Host Status Return".
//   - Zebra vendor id 0x0A5F, USB printer class 7/1/2 (USB Device Class
//     Definition for Printing Devices 1.1).
package zpl
