// Package runner keeps one reader running: it opens the port and driver
// through a factory, reopens them with capped exponential backoff when
// the device goes away (an unplugged USB adapter, a dropped Bluetooth
// link) and debounces reads, so that a chip held to the reader gives one
// scan per window.
//
// A Runner is itself a reader.Reader, so service code treats a
// supervised reader like any other. Time and sleep are injected.
//
// # References
//
//   - AWS Architecture Blog, "Exponential Backoff And Jitter" (capped
//     exponential backoff).
package runner
