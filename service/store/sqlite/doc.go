// Package sqlite is the embedded store: service.Store on SQLite through
// the pure-Go driver modernc.org/sqlite.
//
// The database runs in WAL mode with foreign keys on. Writes go through
// one connection and BEGIN IMMEDIATE, each in a single transaction, so a
// write never sees a half-done other write and tag numbers are handed out
// without gaps or duplicates; reads use a separate pool of query-only
// connections and never wait for writers. The schema is embedded
// (migration/*.sql) and applied by Open, each file in its own transaction,
// recorded in the migrations table.
//
// A chip lookup reads one lookup row (lookuprows.go): every part of the
// animal's record but its licences, kept by triggers and rebuilt inside
// each write transaction, read with the licences in one statement. A
// lookup by tag or animal, or of an animal whose row is pending, is one
// UNION ALL statement over the animal's rows.
//
// The audit log is a second database file beside the records
// (AuditPath, audit.go), so that audit batches neither empty the
// records' readers' page caches nor hold the records' write lock.
//
// Pages are read into small per-connection caches, not through a memory
// map (see readCacheKiB), so resident memory stays bounded. Imports
// (Import, ImportStream) insert many rows per statement and check
// references at commit, so a streaming importer can store chunks while
// it still decodes; the per-row insert triggers of the tables they
// write run once over all the imported rows before the commit
// (importtriggers.go), and a small table's plain indexes are built
// after its rows (bulk.go).
//
// Dates are stored as 'YYYY-MM-DD' text, instants as RFC 3339 UTC text
// with nanoseconds, money as integer cents: the same columns map to
// PostgreSQL's TEXT/BIGINT, and store/storetest checks both backends
// alike. The lookup rows, which are derived, keep instants and dates as
// integers (rowCols).
//
// # References
//
//   - SQLite, "Write-Ahead Logging", https://www.sqlite.org/wal.html
//   - SQLite, "BEGIN TRANSACTION" (IMMEDIATE), https://www.sqlite.org/lang_transaction.html
package sqlite
