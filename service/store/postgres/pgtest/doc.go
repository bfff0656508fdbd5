// Package pgtest gives tests a fresh PostgreSQL schema of their own on
// the server named by the environment variable CHIPDESK_TEST_POSTGRES
// (a postgres:// URL). Each schema is dropped when its test ends, so
// tests run in parallel and leave nothing behind.
//
// Without the variable a test is skipped, unless CI is set: then it
// fails, so that CI never passes without having run on PostgreSQL.
//
// # References
//
//   - PostgreSQL 15 documentation, "Schemas" (search_path).
package pgtest
