// Package columns lists the columns of the chipdesk tables in the order
// both stores, store/sqlite and store/postgres, select and insert them.
// The two schemas name their columns alike; only the SQL types differ.
// A store's scan function reads a row in exactly this order, so a
// column added to a table is added here and to both scan functions.
//
// # References
//
//   - The schemas: store/sqlite/migration and store/postgres/migration.
//   - ISO/IEC 9075-2:2016 (SQL/Foundation), 7.12 <query specification>:
//     the select list fixes the order of a row's values.
package columns
