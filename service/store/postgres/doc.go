// Package postgres is the store for a county: service.Store on
// PostgreSQL through github.com/jackc/pgx/v5, for several shelters and
// clinics sharing one database.
//
// It passes the same contract suite as the embedded SQLite store
// (store/storetest). The schema is embedded (migration/*.sql) and
// applied by Open in one transaction under an advisory lock, so several
// processes may start at once. Civil dates are DATE, instants
// TIMESTAMPTZ (microseconds: the store cuts its clock to microseconds so
// what it hands back is what it keeps), money BIGINT cents.
//
// Tag numbers stay unique when several sites issue at once: the counter
// row of a jurisdiction and year is bumped by an upsert in the issuing
// transaction, and its row lock serialises issuers across processes
// until commit; a unique (jurisdiction, year, tag_number) constraint
// backs it. Licences, impoundments and audit events record their site.
//
// A record lookup (by chip, tag or animal) is one statement and one
// round trip: a key CTE and one row of JSON parts (row_to_json and
// json_agg over index lookups), decoded straight into the domain types.
// Connections use generic plans (plan_cache_mode), so a lookup is never
// planned twice on a connection. Offline handhelds' events are applied
// once by their device-made id (service.DeviceEventService).
//
// # References
//
//   - PostgreSQL 15 documentation: INSERT ... ON CONFLICT, "Explicit
//     Locking" (row locks, advisory locks), Appendix A "PostgreSQL Error
//     Codes" (23505, 23503, 23514, 23502), COPY.
//   - Minneapolis Code of Ordinances 64.30 (a tag register number per
//     tag and year), 64.40 (duplicate tags).
package postgres
