// Package zplsim is a fake Zebra ZPL printer for tests and for chiptool:
// it listens on loopback TCP (the raw port 9100 protocol) or serves any
// byte stream (the master side of a pseudo-terminal), keeps every
// ^XA … ^XZ format it receives as a job, and answers ~HS with a host
// status whose faults (paper out, head open, paused, …) tests set on
// demand.
//
// # References
//
//   - Zebra, "ZPL II Programming Guide" (45541L-002): ^XA, ^XZ, tilde
//     commands act on receipt, ~HS host status reply.
package zplsim
