// Package feedback drives the buzzer and the LED of a handheld scanner
// on two GPIO outputs, with a distinct pattern for each outcome of a
// scan: a good read, a dangerous animal, an unknown chip, a failure.
//
// A Pattern is a list of steps, each holding both outputs at a level for
// a time. The sleep between steps is injected, so tests see every edge.
// Patterns differ in rhythm as well as length, so they can be told apart
// by ear alone (the buzzer) and by eye alone (the LED).
//
// # References
//
//   - periph.io/x/conn/v3/gpio: PinOut.Out.
package feedback
