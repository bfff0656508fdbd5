package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// backend is a store as the commands use it. Both store/sqlite and
// store/postgres are backends.
type backend = service.Store

var (
	_ backend = (*sqlite.DB)(nil)
	_ backend = (*postgres.DB)(nil)
)

// openBackend opens the store named by target (--db, CHIPDESK_DB): a
// postgres:// or postgresql:// URL opens store/postgres, the database a
// county's sites share; anything else is an SQLite file. loc is the zone
// in which the clock becomes today's date (nil: UTC).
func openBackend(ctx context.Context, target string, now func() time.Time, loc *time.Location) (backend, error) {
	if postgres.IsDSN(target) {
		return postgres.Open(ctx, target, &postgres.Opts{Now: now, Location: loc})
	}
	if offline.IsReplica(target) {
		// Its tables are not the service's: opening it would migrate a
		// handheld's copy into an empty, wrong database.
		return nil, fmt.Errorf("%s is a handheld's offline replica, not the service's database: give --db the central database (chipdesk sync uses replicas)", target)
	}
	db, err := sqlite.Open(ctx, target, &sqlite.Opts{Now: now, Location: loc})
	if err != nil {
		return nil, err
	}
	if err := privateFiles(target); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// privateFiles makes the database files of an SQLite database at path
// readable by their owner only (owners' records, the audit log: OWASP
// ASVS 8.1.6). SQLite gives its -wal and -shm files the mode of the
// database file.
func privateFiles(path string) error {
	for _, f := range []string{path, sqlite.AuditPath(path)} {
		for _, g := range []string{f, f + "-wal", f + "-shm"} {
			if err := os.Chmod(g, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("database %s: %w", g, err)
			}
		}
	}
	return nil
}
