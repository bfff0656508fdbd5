// Package reliability holds the reliability suite of chipdesk: tests
// that run the real service ("chipdesk serve", built from this tree) as
// a child process on loopback and check the promises of docs/promises.md
// from outside, as a user would:
//
//   - kill -9 during 1,000 concurrent licence issues (each with an
//     Idempotency-Key) and their print jobs, then a restart: every
//     acknowledged licence and print job is there; the clients retry
//     the unacknowledged issues with their keys, and every animal ends
//     with exactly one licence; no tag number is given twice;
//   - 100 concurrent clients for a while (CHIPDESK_LOAD_SECONDS, 5 s by
//     default; CI runs 60 s): no error, p99 reported;
//   - malformed input to every endpoint of the OpenAPI document: a 4xx
//     with a JSON error, never a 5xx, and the service still answers;
//   - a reader on a pseudo-terminal that sends noise between frames and
//     is unplugged and plugged in again: every frame read once, nothing
//     else, the reader back within 1 s;
//   - the public role never sees owner data.
//
// The package has no code of its own besides this documentation; every
// test is bounded in time.
//
// # References
//
//   - RFC 9110, HTTP Semantics, 15.5 (client error status codes) and
//     15.6 (server errors).
//   - The HTML Living Standard, "Server-sent events".
//   - signal(7): SIGKILL cannot be caught; the process ends at once.
//   - Minneapolis Code of Ordinances 64.30 (licence tags, numbered in
//     sequence for a year).
//   - draft-ietf-httpapi-idempotency-key-header, The Idempotency-Key
//     HTTP Header Field.
package reliability
