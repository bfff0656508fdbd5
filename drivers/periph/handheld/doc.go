// Package handheld is the loop of a handheld scanner: it reads chips
// from any reader.Reader (a serial module on the board's UART through
// uartport, or the raw antenna through antenna), asks what each chip
// means, and plays the matching buzzer and LED pattern, so the officer
// knows without looking at a screen whether the animal is on record,
// unknown, or on the dangerous-animal register.
//
// What a chip means is not decided here: Opts.Classify is given by the
// program, which asks the chipdesk service (drivers never import it).
//
// # References
//
//   - periph.io/x/conn/v3/gpio; package feedback for the patterns.
package handheld
