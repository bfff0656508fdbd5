// Package filter turns the service's filters (service.LicenceFilter,
// service.ScanFilter, ...) into the conditions both stores put in a
// WHERE clause. What a filter selects is decided here, once; a store
// only writes each condition in its SQL dialect, converting the values
// its driver needs converted (dates, instants) and spelling the
// case-insensitive substring match (ILIKE in PostgreSQL, LOWER ... LIKE
// in SQLite).
//
// # References
//
//   - ISO/IEC 9075-2:2016 (SQL/Foundation), 8.2 <comparison predicate>
//     and 8.5 <like predicate>.
//   - PostgreSQL 15 documentation, 9.7.1 LIKE (ILIKE); SQLite, "The
//     LIKE, GLOB, REGEXP, MATCH, and extract operators" (LIKE is
//     case-insensitive for ASCII only).
package filter
