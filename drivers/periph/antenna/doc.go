// Package antenna reads chips through a demodulator front end whose
// output, a comparator on the envelope of the reader field, is wired to
// a GPIO input. Each edge on the pin is timed, and every interval between
// two edges is written to the decoders of package reader/demod as that
// many samples of +1 or −1 at a fixed sample rate, which is all the
// decoders need of a two-level signal.
//
// Feeder does the conversion for edges from any source; Dev waits for
// edges on a periph gpio.PinIn and stamps them with its injected clock.
// A user-space GPIO timestamp is late by a scheduling delay, so a board
// that loses reads under load should capture edges with kernel
// timestamps and hand them to a Feeder; the decoders integrate whole
// cells and track the clock, which tolerates jitter of a fraction of a
// half-bit (the tests add ±15 %).
//
// HDX answers in frequency shift of the carrier itself (about 2 MHz of
// edges after the comparator), beyond a GPIO pin; Opts.Protocols
// defaults to FDX-B and FDX-A.
//
// # References
//
//   - ISO 11785:1996 §6 (FDX-B: 134.2 kHz, differential bi-phase, 32
//     carrier cycles per bit).
//   - periph.io/x/conn/v3/gpio: PinIn.In(pull, BothEdges), WaitForEdge.
package antenna
