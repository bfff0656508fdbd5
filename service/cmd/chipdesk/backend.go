package main

import (
	"context"
	"time"

	"github.com/chipdesk/chipdesk/service"
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
	return sqlite.Open(ctx, target, &sqlite.Opts{Now: now, Location: loc})
}
