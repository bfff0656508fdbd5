// Package columns lists the columns of the chipdesk tables in the order
// both stores, store/sqlite and store/postgres, select and insert them.
// The two schemas name their columns alike; only the SQL types differ.
// Beside each list, XDest gives the fields a row of it scans into, in
// the same order; a store's Wrapper adapts the few fields its driver
// cannot scan directly (instants, dates, nullable references). A column
// added to a table is added here, in the list and its XDest, and in the
// stores' INSERT and UPDATE statements.
//
// # References
//
//   - The schemas: store/sqlite/migration and store/postgres/migration.
//   - ISO/IEC 9075-2:2016 (SQL/Foundation), 7.12 <query specification>:
//     the select list fixes the order of a row's values.
package columns
