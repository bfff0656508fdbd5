// Package httpapi is chipdesk's JSON API over HTTP: lookups by chip or
// tag, the live scan stream, the records of owners, animals, chips,
// licences, vaccinations, bites, quarantines, impoundments and
// dangerous-animal designations, tokens and the audit log.
//
// # Authentication and roles
//
// Every call under /api/v1 (but the OpenAPI document) carries
// "Authorization: Bearer TOKEN"; without a usable token the answer is 401
// with a Bearer challenge, and a role not allowed on the route gets 403.
// The roles are admin (everything), clinic (sell licences, record
// vaccinations), intake (the shelter counter), officer (field work,
// designations, bites) and public (a found-pet lookup with no owner
// data). Each route's roles are in the routes table and, as x-roles, in
// the OpenAPI document served at /api/v1/openapi.json; a test keeps the
// two equal. Checked tokens are cached for a few seconds; a token revoked
// through this server stops at once. Browsers' EventSource cannot send
// headers, so the live page signs in through /login, which keeps the
// token in an HttpOnly SameSite=Strict cookie accepted for GET requests
// only.
//
// # Answers and errors
//
// Answers are JSON, every name snake_case. Errors are
// {"error":{"code","message","field"}} (field naming the request field at
// fault, when one is) with the
// service.Error code mapped to the status (invalid 400, unauthorized
// 401, forbidden 403, not_found 404, conflict 409, internal 500); an
// error that is not a service.Error is logged and answered "Internal
// error." so no internal text reaches a client. Request bodies are
// limited (413 beyond), unknown JSON fields are refused. A PATCH changes
// only the fields it sends.
//
// # The OpenAPI document
//
// openapi.json is generated (GenerateOpenAPI) from the route table, one
// opDoc per route (operationId, summary, the Go types the handler decodes
// and answers) and those types themselves, by reflection over their JSON
// names: enums for closed sets, format date for service.Date, readOnly
// server-set fields, typed list items, a request schema without the
// server-set fields and a PATCH schema with every field optional. Tests
// check the file is what the generator makes now, that every Go field is
// in its schema and every property a Go field, and that every answer of
// every HTTP test matches the document exactly and spells its keys
// snake_case. After adding a route, add its opDoc and run
// go test ./service/httpapi -run TestOpenAPIFile -update.
//
// # Audit
//
// Every lookup and every change is an audit event. Events go through one
// FIFO queue and one writer, so they are stored in the order they were
// logged. A change's handler returns only after its event (and every
// event before it) is stored. Lookup events are committed in groups
// (group commit: the writer waits up to 5 ms for more, at most 512 per
// transaction), so a lookup never waits for the database's write lock;
// on a crash the events of the last few milliseconds can be lost, on a
// clean shutdown (Server.Close) none are. A full queue blocks logging
// rather than dropping events.
//
// # Scan stream
//
// GET /api/v1/scans/stream is a Server-Sent Events stream: one "scan"
// event per scan, whose data is a lookup.ScanEvent (reader, at, chip,
// lookup) and whose id is the hub's event id, so a reconnecting browser
// (Last-Event-ID) gets the events it missed. ?reader=NAME limits it to
// one reader: each desk watches its own.
//
// # Retries
//
// The POSTs that create one record (licences and their renewals,
// owners, animals, vaccinations) take an Idempotency-Key header: the
// store keeps the key, per token, with the answer, in the transaction
// that creates the record, so a client that lost the answer (a timeout,
// a crash of the server) retries with the same key and body and gets
// the first answer, not a second record.
// Keys are kept service.IdempotencyTTL (24 hours).
//
// # Operations
//
// GET /healthz answers 200 when the store answers. GET /metrics is the
// Prometheus text exposition (admin role) from a registry of its own,
// never the global one.
//
// # References
//
//   - RFC 9110, HTTP Semantics (status codes 401, 403, 409, 413).
//   - RFC 6750, OAuth 2.0 Bearer Token Usage, sections 2.1 and 3.
//   - RFC 6265bis, Cookies: the SameSite attribute.
//   - WHATWG HTML Living Standard, section 9.2, Server-sent events.
//   - OpenAPI Specification 3.0.3.
//   - draft-ietf-httpapi-idempotency-key-header, The Idempotency-Key
//     HTTP Header Field.
//   - Prometheus exposition formats (text format 0.0.4).
package httpapi
