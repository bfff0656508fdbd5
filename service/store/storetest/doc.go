// Package storetest is the contract every service.Store backend passes.
// A backend's test calls Run with a function that opens a fresh, empty
// store on a real database:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, now func() time.Time) service.Store {
//			db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "db"), &sqlite.Opts{Now: now})
//			...
//			t.Cleanup(func() { db.Close() })
//			return db
//		})
//	}
//
// The suite only uses the service interfaces and service.ErrorCode, so
// SQLite and PostgreSQL run it unchanged.
//
// # References
//
//   - Minneapolis Code of Ordinances 64.30 (tag register numbers per
//     year), 64.40 (duplicate tags for lost or stolen tags only).
package storetest
