// Package events is an in-process publish/subscribe hub for scan events.
//
// service/hardware publishes one event per resolved scan; the HTTP layer
// subscribes one client per Server-Sent Events stream, optionally
// filtered to one reader so that each desk sees only its own scans.
//
// Publishing never blocks on a subscriber: each subscriber has a bounded
// buffer, and a subscriber that falls behind loses the oldest events it
// has not read and is told how many through Sub.Dropped. The hub keeps
// the last few events so that a client that reconnects with the id of
// the last event it saw (the SSE Last-Event-ID header) receives the ones
// it missed.
//
// # References
//
//   - WHATWG HTML Living Standard, section 9.2 "Server-sent events"
//     (event stream format, the id field and Last-Event-ID).
package events
