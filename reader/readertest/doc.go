// Package readertest provides a scripted fake reader.Reader for tests of
// code that consumes reads (the service's hardware runner, the scan
// pipeline, command-line tools): a queue of reads and errors played by
// Next, blocking like an idle reader when the queue is empty, and a
// Close that reports what the code under test never read, in the manner
// of periph.io's conntest.Playback.
//
// # References
//
//   - periph.io/x/conn/v3/conntest: Playback, whose Close reports
//     unconsumed operations.
//   - package reader: the Reader contract (Next blocks until a read, ctx
//     done or failure; ErrClosed after Close).
package readertest
