// Package synth makes sampled antenna signals of FDX-B, FDX-A and HDX
// tags, with the impairments real front ends add: noise, clock drift,
// asymmetric duty cycle, inverted polarity, slewed edges, AC coupling,
// DC offset and clipping. Tests of package demod and the simulators use
// it; `chiptool trace synth` writes its output as a .pm3 capture.
//
// The forms match what package demod reads: FDX-B and FDX-A as the
// envelope sampled once per carrier cycle (Proxmark "lf read"), HDX as
// the RF at 2 MHz.
//
// # References
//
//   - ISO 11785:1996, Radio frequency identification of animals —
//     Technical concept (FDX-B: differential bi-phase, 32 cycles per
//     bit; HDX: FSK 134.2/123.2 kHz, 16 cycles per bit).
//   - Proxmark3 client, cmdlfdestron.c (FDX-A: FSK fc/8 and fc/10,
//     50 cycles per bit, preamble, Manchester data).
package synth
