package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

//go:embed migration/*.sql
var migrationFS embed.FS

// Opts tune a DB. A nil *Opts means DefaultOpts.
type Opts struct {
	// Now is the clock for created/updated stamps and for the
	// twelve-month window of a Record. Nil means time.Now.
	Now func() time.Time
	// Location is the zone in which Now becomes today's date (the
	// jurisdiction's zone). Nil means UTC.
	Location *time.Location
	// ReadConns is the size of the read pool; 0 means 3.
	ReadConns int
	// BusyTimeout is how long a write waits for another process's
	// lock; 0 means 10 s.
	BusyTimeout time.Duration
}

// DefaultOpts are the options used for a nil *Opts.
var DefaultOpts = Opts{ReadConns: 3, BusyTimeout: 10 * time.Second}

// Page caches, in KiB (PRAGMA cache_size with a negative value). The
// database is read with read(2) into these caches, not through a memory
// map: a map of a large file adds every page a lookup touches to the
// process's resident memory, once per connection, and in WAL mode every
// commit by another connection makes each reader unmap and map its file
// again (SQLite resets a reader's cache on a changed WAL), which costs
// more than the reads. The OS page cache keeps the file's pages; these
// caches keep the b-tree interior pages a lookup passes through (about
// 2 MiB at a million animals; a lookup's leaf pages are read each time).
// With DefaultOpts the store holds at most 3*4+4 = 16 MiB of pages. A
// larger cache buys nothing here: a commit empties the readers' caches
// anyway, and freeing more pages then costs more (16 MiB caches: peak
// RSS 140 MiB and no fewer µs per lookup than 4 MiB at a million animals).
const (
	readCacheKiB  = 4 << 10
	writeCacheKiB = 4 << 10
	// importCacheKiB is the writer's cache during an import, whose
	// inserts land on pages all over the indexes.
	importCacheKiB = 128 << 10
)

// checkpointEvery is the least time between two WAL checkpoints. They
// run on a connection of their own after commits (PASSIVE: they wait for
// no one), not inside a commit as SQLite's automatic checkpoint does,
// which made the write that crossed 1000 WAL pages (a scan, say) take
// 8 ms instead of 0.1 ms and kept the one write connection meanwhile.
const checkpointEvery = time.Second

// DB is the SQLite store. It implements service.Store.
type DB struct {
	path   string
	wdb    *sql.DB // one connection, BEGIN IMMEDIATE
	rdb    *sql.DB // query-only pool
	ckdb   *sql.DB // one connection for WAL checkpoints
	now    func() time.Time
	loc    *time.Location
	rec    *recordStmts
	look   *lookupStmts // the writer's, for the lookup rows
	remind *remindStmts // the writer's, for a reminder run
	adb    *sql.DB      // the audit log, a database of its own (audit.go)
	mdb    *sql.DB      // the audit log, for the outbox's moves (outbox.go)

	// The audit outbox (outbox.go): the last id written, the last
	// moved to the audit log, the last deleted; moveMu orders moves.
	outboxTop, outboxMoved, outboxPruned atomic.Int64
	moveMu                               sync.Mutex

	commits chan struct{} // a commit since the last checkpoint
	stop    context.CancelFunc
	done    chan struct{} // closed when checkpoints stop
}

var _ service.Store = (*DB)(nil)

// Open opens (creating if needed) the database file at path and applies
// pending migrations.
func Open(ctx context.Context, path string, o *Opts) (*DB, error) {
	if o == nil {
		o = &DefaultOpts
	}
	db := &DB{path: path, now: o.Now, loc: o.Location}
	if db.now == nil {
		db.now = time.Now
	}
	if db.loc == nil {
		db.loc = time.UTC
	}
	reads := o.ReadConns
	if reads <= 0 {
		reads = DefaultOpts.ReadConns
	}
	busy := o.BusyTimeout
	if busy <= 0 {
		busy = DefaultOpts.BusyTimeout
	}
	base := "file:" + (&url.URL{Path: path}).EscapedPath()
	// mmap_size(0): see readCacheKiB.
	pragmas := fmt.Sprintf("_pragma=foreign_keys(1)&_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_pragma=mmap_size(0)",
		busy.Milliseconds())
	var err error
	if db.wdb, err = sql.Open("sqlite", base+"?"+pragmas+fmt.Sprintf("&_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)&_pragma=cache_size(%d)&_pragma=temp_store(MEMORY)&_txlock=immediate", -writeCacheKiB)); err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	db.wdb.SetMaxOpenConns(1)
	db.wdb.SetConnMaxIdleTime(0)
	// From here on, a failure closes what was opened so far (Close
	// passes over what was not).
	if err := migrate(ctx, db.wdb, migrationFS, "migration"); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.openAudit(ctx, pragmas); err != nil {
		db.Close()
		return nil, err
	}
	if db.look, err = prepareLookupStmts(ctx, db.wdb); err != nil {
		db.Close()
		return nil, err
	}
	if db.remind, err = prepareRemindStmts(ctx, db.wdb); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.syncLookupShape(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if db.rdb, err = sql.Open("sqlite", base+"?"+pragmas+fmt.Sprintf("&_pragma=query_only(1)&_pragma=cache_size(%d)", -readCacheKiB)); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	db.rdb.SetMaxOpenConns(reads)
	db.rdb.SetMaxIdleConns(reads)
	if db.rec, err = prepareRecordStmts(ctx, db.rdb); err != nil {
		db.Close()
		return nil, err
	}
	if db.ckdb, err = sql.Open("sqlite", base+"?"+pragmas); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	db.ckdb.SetMaxOpenConns(1)
	db.commits = make(chan struct{}, 1)
	db.commits <- struct{}{} // the migrations' pages
	cctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	db.stop, db.done = stop, make(chan struct{})
	go db.checkpoints(cctx)
	if err := db.recoverOutbox(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// checkpoints copies committed WAL pages into the database file, at
// most once per checkpointEvery, until ctx is done. A checkpoint that
// fails or cannot finish (a reader still needs old pages) is retried
// after the next commit.
func (db *DB) checkpoints(ctx context.Context) {
	defer close(db.done)
	t := time.NewTimer(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-db.commits:
		}
		db.ckdb.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
		t.Reset(checkpointEvery)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// String names the store.
func (db *DB) String() string { return "sqlite:" + db.path }

// Ping checks the records' pools and the audit log's.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.wdb.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	if err := db.rdb.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	if err := db.adb.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping audit log: %w", err)
	}
	return nil
}

// Close closes the database.
func (db *DB) Close() error {
	var errs []error
	if db.rdb != nil && db.mdb != nil {
		errs = append(errs, db.moveOutbox(context.Background(), db.rdb))
	}
	if db.stop != nil {
		db.stop()
		<-db.done
	}
	if db.ckdb != nil {
		errs = append(errs, db.ckdb.Close())
	}
	if db.rec != nil {
		errs = append(errs, db.rec.close())
	}
	if db.rdb != nil {
		errs = append(errs, db.rdb.Close())
	}
	if db.look != nil {
		errs = append(errs, db.look.close())
	}
	if db.remind != nil {
		errs = append(errs, db.remind.close())
	}
	if db.mdb != nil {
		errs = append(errs, db.mdb.Close())
	}
	if db.adb != nil {
		errs = append(errs, db.adb.Close())
	}
	if db.wdb != nil {
		errs = append(errs, db.wdb.Close())
	}
	return errors.Join(errs...)
}

// migrate applies the embedded migration files of dir in files not yet
// recorded in q's migrations table, each in its own transaction, in
// name order.
func migrate(ctx context.Context, q *sql.DB, files fs.FS, dir string) error {
	if _, err := q.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY)`); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	names, err := fs.Glob(files, dir+"/*.sql")
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := migrateFile(ctx, q, files, name); err != nil {
			return fmt.Errorf("sqlite: migrate %s: %w", name, err)
		}
	}
	return nil
}

func migrateFile(ctx context.Context, q *sql.DB, files fs.FS, name string) error {
	tx, err := q.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
		return err
	} else if n > 0 {
		return nil
	}
	buf, err := fs.ReadFile(files, name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(buf)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name) VALUES (?)`, name); err != nil {
		return err
	}
	return tx.Commit()
}

// write runs fn in one IMMEDIATE transaction, committing when fn returns
// nil. fn gets the transaction's time stamp. The audit event of the
// change ctx carries (service.WithChange) is written in the same
// transaction and moved to the audit log after the commit (outbox.go).
func (db *DB) write(ctx context.Context, fn func(tx *sql.Tx, now time.Time) error) error {
	ch := service.PendingChange(ctx)
	tx, err := db.wdb.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	undo, committed := ch.Attempt(), false
	defer func() {
		if !committed {
			undo()
		}
	}()
	now := db.now().UTC()
	if err := fn(tx, now); err != nil {
		return err
	}
	put := ch != nil && !ch.Replay()
	if put {
		for _, ev := range ch.Events() {
			if err := db.putOutbox(ctx, tx, now, ev); err != nil {
				return err
			}
		}
	}
	if err := db.pruneOutbox(ctx, tx); err != nil {
		return err
	}
	if err := db.look.flush(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		// A deferred reference check fails here.
		return mapErr(err, "A record")
	}
	committed = true
	select {
	case db.commits <- struct{}{}:
	default: // a checkpoint is due already
	}
	if ch != nil {
		ch.MarkStored()
	}
	if put {
		// The change is committed with its event; a move that fails
		// here is done by the next one, or by Open.
		_ = db.moveOutbox(context.WithoutCancel(ctx), db.rdb)
	}
	return nil
}

// today is the current date in the store's zone.
func (db *DB) today() service.Date { return service.DateIn(db.now(), db.loc) }

// mapErr turns constraint violations into application errors and wraps
// the rest with the package prefix.
func mapErr(err error, what string) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return service.Errorf(service.ECONFLICT, "%s already exists.", what)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return service.Errorf(service.EINVALID, "%s refers to a record that does not exist.", what)
		case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL:
			return service.Errorf(service.EINVALID, "%s is invalid.", what)
		}
	}
	var ae *service.Error
	if errors.As(err, &ae) {
		return err
	}
	return fmt.Errorf("sqlite: %s: %w", strings.ToLower(what), err)
}

// notFound maps sql.ErrNoRows to ENOTFOUND.
func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return service.Errorf(service.ENOTFOUND, "%s not found.", what)
	}
	return mapErr(err, what)
}

// stamp is an instant stored as RFC 3339 UTC text; the zero time is NULL.
type stamp struct{ t *time.Time }

const stampLayout = "2006-01-02T15:04:05.000000000Z"

func formatStamp(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return stampText(t)
}

// stampText formats t as stampLayout does, digit by digit: an import
// formats seven instants an animal, and time.Format, which reads its
// layout each time, was a twentieth of an import's time. Years outside
// 0 to 9999, which the layout does not give four digits, go to
// time.Format.
func stampText(t time.Time) string {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.Format(stampLayout)
	}
	hour, min, sec := t.Clock()
	var buf [len(stampLayout)]byte
	put := func(at, n, width int) {
		for i := at + width - 1; i >= at; i-- {
			buf[i] = byte('0' + n%10)
			n /= 10
		}
	}
	put(0, year, 4)
	buf[4] = '-'
	put(5, int(month), 2)
	buf[7] = '-'
	put(8, day, 2)
	buf[10] = 'T'
	put(11, hour, 2)
	buf[13] = ':'
	put(14, min, 2)
	buf[16] = ':'
	put(17, sec, 2)
	buf[19] = '.'
	put(20, t.Nanosecond(), 9)
	buf[29] = 'Z'
	return string(buf[:])
}

// Value implements driver.Valuer.
func (s stamp) Value() (driver.Value, error) { return formatStamp(*s.t), nil }

// Scan implements sql.Scanner.
func (s stamp) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.t = time.Time{}
		return nil
	case string:
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return err
		}
		*s.t = t
		return nil
	case []byte:
		return s.Scan(string(v))
	case time.Time:
		*s.t = v.UTC()
		return nil
	}
	return fmt.Errorf("sqlite: cannot scan %T into time", src)
}

// where builds a WHERE clause from conditions.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

func (w *where) String() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// page returns the LIMIT/OFFSET clause.
func page(offset, limit int) string {
	if limit <= 0 && offset <= 0 {
		return ""
	}
	if limit <= 0 {
		limit = -1
	}
	return fmt.Sprintf(" LIMIT %d OFFSET %d", limit, max(offset, 0))
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// queryer is what reads need: *sql.DB, *sql.Tx or *sql.Conn.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// scanFunc scans one row; extra destinations (a window COUNT) follow the
// record's columns.
type scanFunc[T any] func(r rowScanner, extra ...any) (T, error)

// collect runs a query and scans each row.
func collect[T any](ctx context.Context, q queryer, scan scanFunc[T], query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// collectCounted is collect for queries whose last column is
// COUNT(*) OVER (), returning the total before paging too.
func collectCounted[T any](ctx context.Context, q queryer, scan scanFunc[T], query string, args ...any) ([]T, int, error) {
	total := 0
	out, err := collect(ctx, q, func(r rowScanner, _ ...any) (T, error) { return scan(r, &total) }, query, args...)
	return out, total, err
}

// each runs a query and calls fn on each scanned row. fn's error is
// returned as it is; database errors are wrapped as for what.
func each[T any](ctx context.Context, q queryer, scan scanFunc[T], fn func(T) error, what, query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return mapErr(err, what)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return mapErr(err, what)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return mapErr(rows.Err(), what)
}

// findByID reads the row of table (columns cols) with id; what names it
// when there is none.
func findByID[T any](ctx context.Context, db *DB, table, cols, what string, id int64, scan scanFunc[T]) (T, error) {
	v, err := scan(db.rdb.QueryRowContext(ctx, `SELECT `+cols+` FROM `+table+` WHERE id = ?`, id))
	if err != nil {
		var zero T
		return zero, notFound(err, what)
	}
	return v, nil
}

// findPage reads the rows of table (columns cols) that meet conds, in
// order, one page of them, and how many meet conds in all.
func findPage[T any](ctx context.Context, q *sql.DB, table, cols, order, what string, conds []filter.Cond,
	offset, limit int, scan scanFunc[T]) ([]T, int, error) {
	w := whereOf(conds)
	out, n, err := collectCounted(ctx, q, scan,
		`SELECT `+cols+`, COUNT(*) OVER () FROM `+table+w.String()+` ORDER BY `+order+page(offset, limit), w.args...)
	return out, n, mapErr(err, what)
}

// updateRow reads the row of table (columns cols) with id, lets change
// alter it and write it back in the same transaction, and returns it as
// changed; what names it when there is none.
func updateRow[E any](ctx context.Context, db *DB, table, cols, what string, id int64, scan scanFunc[*E],
	change func(tx *sql.Tx, now time.Time, v *E) error) (*E, error) {
	var v *E
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		var err error
		if v, err = scan(tx.QueryRowContext(ctx, `SELECT `+cols+` FROM `+table+` WHERE id = ?`, id)); err != nil {
			return notFound(err, what)
		}
		return change(tx, now, v)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}
