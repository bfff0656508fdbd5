package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
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
	// MaxConns is the size of the connection pool; 0 means 8.
	MaxConns int
}

// DefaultOpts are the options used for a nil *Opts.
var DefaultOpts = Opts{MaxConns: 8}

// DB is the PostgreSQL store. It implements service.Store.
type DB struct {
	pool *pgxpool.Pool
	name string
	now  func() time.Time
	loc  *time.Location
	// plans are the scan plans of the lookup rows (lookuprows.go).
	plans rowPlans
}

var _ service.Store = (*DB)(nil)

// IsDSN reports whether s names a PostgreSQL database (a postgres:// or
// postgresql:// URL) rather than an SQLite file.
func IsDSN(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the database named by dsn (a postgres:// URL or a
// key=value connection string; a search_path parameter selects the
// schema) and applies pending migrations.
func Open(ctx context.Context, dsn string, o *Opts) (*DB, error) {
	if o == nil {
		o = &DefaultOpts
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	conns := o.MaxConns
	if conns <= 0 {
		conns = DefaultOpts.MaxConns
	}
	cfg.MaxConns = int32(conns)
	// Instants travel as UTC, whatever the server's default zone.
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	// Every statement is an index lookup whose best plan does not depend
	// on its arguments; pgx prepares each once per connection, and a
	// generic plan saves the planning (milliseconds for the record
	// lookup's UNION ALL) on every call.
	if _, set := cfg.ConnConfig.RuntimeParams["plan_cache_mode"]; !set {
		cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	db := &DB{now: o.Now, loc: o.Location,
		name: fmt.Sprintf("postgres://%s@%s:%d/%s", cfg.ConnConfig.User, cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)}
	if db.now == nil {
		db.now = time.Now
	}
	if db.loc == nil {
		db.loc = time.UTC
	}
	if db.pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := db.migrate(ctx); err != nil {
		db.pool.Close()
		return nil, err
	}
	return db, nil
}

// String names the store, without the password.
func (db *DB) String() string { return db.name }

// Ping checks the server answers.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// Close closes the pool.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// migrate applies the embedded migration files not yet recorded, in name
// order, in one transaction. An advisory lock keyed by the schema makes
// processes that start together (several sites) wait for each other
// instead of racing to create the same tables.
func (db *DB) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrationFS, "migration/*.sql")
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	sort.Strings(names)
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('chipdesk.migrate.' || current_schema()))`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY)`); err != nil {
			return err
		}
		for _, name := range names {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM migrations WHERE name = $1`, name).Scan(&n); err != nil {
				return err
			} else if n > 0 {
				continue
			}
			buf, err := fs.ReadFile(migrationFS, name)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(buf)); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO migrations (name) VALUES ($1)`, name); err != nil {
				return err
			}
		}
		return syncLookupRows(ctx, tx)
	})
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}

// stampNow is the transaction time stamp: the clock in UTC, cut to the
// microseconds PostgreSQL keeps, so what a caller gets back is what a
// later read returns.
func (db *DB) stampNow() time.Time { return db.now().UTC().Truncate(time.Microsecond) }

// write runs fn in one READ COMMITTED transaction, committing when fn
// returns nil. fn gets the transaction's time stamp. The audit event of
// the change ctx carries (service.WithChange) is inserted in the same
// transaction, so a change and its event commit together.
func (db *DB) write(ctx context.Context, fn func(tx pgx.Tx, now time.Time) error) error {
	return db.writeTx(ctx, service.PendingChange(ctx), fn)
}

// writeTx is write with the change ch to audit (nil: none).
func (db *DB) writeTx(ctx context.Context, ch *service.Change, fn func(tx pgx.Tx, now time.Time) error) error {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	defer tx.Rollback(ctx)
	undo, committed := ch.Attempt(), false
	defer func() {
		if !committed {
			undo()
		}
	}()
	now := db.stampNow()
	if err := fn(tx, now); err != nil {
		return err
	}
	if ch != nil && !ch.Replay() {
		for _, ev := range ch.Events() {
			if err := insertAudit(ctx, tx, now, ev); err != nil {
				return err
			}
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return mapErr(err, "Commit")
	}
	committed = true
	if ch != nil {
		ch.MarkStored()
	}
	return nil
}

// today is the current date in the store's zone.
func (db *DB) today() service.Date { return service.DateIn(db.now(), db.loc) }

// PostgreSQL error classes (Appendix A, "PostgreSQL Error Codes").
const (
	codeUnique     = "23505"
	codeForeignKey = "23503"
	codeCheck      = "23514"
	codeNotNull    = "23502"
)

// mapErr turns constraint violations into application errors and wraps
// the rest with the package prefix.
func mapErr(err error, what string) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case codeUnique:
			return service.Errorf(service.ECONFLICT, "%s already exists.", what)
		case codeForeignKey:
			return service.Errorf(service.EINVALID, "%s refers to a record that does not exist.", what)
		case codeCheck, codeNotNull:
			return service.Errorf(service.EINVALID, "%s is invalid.", what)
		}
	}
	var ae *service.Error
	if errors.As(err, &ae) {
		return err
	}
	return fmt.Errorf("postgres: %s: %w", strings.ToLower(what), err)
}

// notFound maps pgx.ErrNoRows to ENOTFOUND.
func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return service.Errorf(service.ENOTFOUND, "%s not found.", what)
	}
	return mapErr(err, what)
}

// pdate is a service.Date as a PostgreSQL date; the zero Date is NULL.
func pdate(d service.Date) pgtype.Date {
	if d.IsZero() {
		return pgtype.Date{}
	}
	return pgtype.Date{Time: d.Time(time.UTC), Valid: true}
}

// dateDst scans a date column, NULL as the zero Date.
type dateDst struct{ d *service.Date }

// ScanDate implements pgtype.DateScanner.
func (s dateDst) ScanDate(v pgtype.Date) error {
	if !v.Valid {
		*s.d = 0
		return nil
	}
	if v.InfinityModifier != pgtype.Finite {
		return fmt.Errorf("postgres: infinite date")
	}
	*s.d = service.DateOf(v.Time)
	return nil
}

// pstamp is an instant as a timestamptz; the zero time is NULL.
func pstamp(t time.Time) pgtype.Timestamptz {
	if t.IsZero() {
		return pgtype.Timestamptz{}
	}
	return pgtype.Timestamptz{Time: t, Valid: true}
}

// stampDst scans a timestamptz column into UTC, NULL as the zero time.
type stampDst struct{ t *time.Time }

// ScanTimestamptz implements pgtype.TimestamptzScanner.
func (s stampDst) ScanTimestamptz(v pgtype.Timestamptz) error {
	if !v.Valid {
		*s.t = time.Time{}
		return nil
	}
	*s.t = v.Time.UTC()
	return nil
}

// idDst scans a nullable reference, NULL as 0.
type idDst struct{ id *int64 }

// ScanInt64 implements pgtype.Int64Scanner.
func (s idDst) ScanInt64(v pgtype.Int8) error {
	*s.id = v.Int64
	return nil
}

// wrap is columns.Wrapper for pgx: dates, instants and references
// through the pgtype scanners above.
type wrap struct{}

var _ columns.Wrapper = wrap{}

func (wrap) Stamp(t *time.Time) any   { return stampDst{t} }
func (wrap) Date(d *service.Date) any { return dateDst{d} }
func (wrap) ID(id *int64) any         { return idDst{id} }

// scanRow scans one row of a column list into a new T, through the
// destinations package columns lists for it, then into extra.
func scanRow[T any](r rowScanner, dest func(*T, columns.Wrapper) []any, extra []any) (*T, error) {
	var v T
	if err := r.Scan(append(dest(&v, wrap{}), extra...)...); err != nil {
		return nil, err
	}
	return &v, nil
}

// nullID is the argument for a reference: NULL for 0.
func nullID(id int64) pgtype.Int8 { return pgtype.Int8{Int64: id, Valid: id != 0} }

// where builds a WHERE clause with numbered placeholders. Each condition
// holds at most one "?", replaced by the next $n.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	for range args {
		w.args = append(w.args, nil)
		cond = strings.Replace(cond, "?", fmt.Sprintf("$%d", len(w.args)), 1)
	}
	copy(w.args[len(w.args)-len(args):], args)
	w.conds = append(w.conds, cond)
}

func (w *where) String() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// whereOf writes conditions in PostgreSQL's dialect: dates as pgtype
// dates, a case-insensitive substring match by ILIKE.
func whereOf(cs []filter.Cond) where {
	var w where
	for _, c := range cs {
		v := c.Val
		if d, ok := v.(service.Date); ok {
			v = pdate(d)
		}
		switch c.Op {
		case filter.Eq:
			w.add(c.Col+" = ?", v)
		case filter.Ge:
			w.add(c.Col+" >= ?", v)
		case filter.Lt:
			w.add(c.Col+" < ?", v)
		case filter.Contains:
			w.add(c.Col+` ILIKE ? ESCAPE '\'`, "%"+filter.EscapeLike(v.(string))+"%")
		case filter.Empty:
			w.add(c.Col + " = ''")
		case filter.NotEmpty:
			w.add(c.Col + " <> ''")
		}
	}
	return w
}

// page returns the LIMIT/OFFSET clause.
func page(offset, limit int) string {
	if limit <= 0 && offset <= 0 {
		return ""
	}
	l := "ALL"
	if limit > 0 {
		l = fmt.Sprint(limit)
	}
	return fmt.Sprintf(" LIMIT %s OFFSET %d", l, max(offset, 0))
}

// querier is what reads need: the pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// rowScanner is pgx.Row or pgx.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanFunc scans one row; extra destinations (a window COUNT) follow the
// record's columns.
type scanFunc[T any] func(r rowScanner, extra ...any) (T, error)

// collect runs a query and scans each row.
func collect[T any](ctx context.Context, q querier, scan scanFunc[T], query string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
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
func collectCounted[T any](ctx context.Context, q querier, scan scanFunc[T], query string, args ...any) ([]T, int, error) {
	var total int64
	out, err := collect(ctx, q, func(r rowScanner, _ ...any) (T, error) { return scan(r, &total) }, query, args...)
	return out, int(total), err
}

// each runs a query and calls fn on each scanned row. fn's error is
// returned as it is; database errors are wrapped as for what.
func each[T any](ctx context.Context, q querier, scan scanFunc[T], fn func(T) error, what, query string, args ...any) error {
	rows, err := q.Query(ctx, query, args...)
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

// bumpSeq moves the id sequence of table past its largest id, after rows
// were inserted with given ids, so later generated ids do not collide.
func bumpSeq(ctx context.Context, tx pgx.Tx, table string) error {
	_, err := tx.Exec(ctx, `SELECT setval(s, m) FROM (SELECT pg_get_serial_sequence($1, 'id')::regclass AS s,
		(SELECT max(id) FROM `+pgx.Identifier{table}.Sanitize()+`) AS m) x
		WHERE m IS NOT NULL AND m > COALESCE(pg_sequence_last_value(s), 0)`, table)
	return err
}

// insertSQL returns the INSERT of one row into table with the columns
// cols (id first), returning the id. A NULL id ($1) takes the next value
// of the table's identity sequence.
func insertSQL(table, cols string) string {
	n := strings.Count(cols, ",") + 1
	return `INSERT INTO ` + table + ` (` + cols + `) VALUES (COALESCE($1::bigint, nextval('` + table + `_id_seq')), ` +
		placeholders(2, n) + `) RETURNING id`
}

// insertRow runs an insertSQL statement whose arguments are the id
// (0: let the sequence choose) and args, and sets *id.
func insertRow(ctx context.Context, tx pgx.Tx, table string, id *int64, what, query string, args ...any) error {
	given := *id != 0
	if err := tx.QueryRow(ctx, query, append([]any{nullID(*id)}, args...)...).Scan(id); err != nil {
		return mapErr(err, what)
	}
	service.Created(ctx, table, *id)
	if given {
		return mapErr(bumpSeq(ctx, tx, table), what)
	}
	return nil
}

// placeholders returns "$from, ..., $to".
func placeholders(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		if i > from {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "$%d", i)
	}
	return b.String()
}

// findByID reads the row of table (columns cols) with id; what names it
// when there is none.
func findByID[T any](ctx context.Context, db *DB, table, cols, what string, id int64, scan scanFunc[T]) (T, error) {
	v, err := scan(db.pool.QueryRow(ctx, `SELECT `+cols+` FROM `+table+` WHERE id = $1`, id))
	if err != nil {
		var zero T
		return zero, notFound(err, what)
	}
	return v, nil
}

// findPage reads the rows of table (columns cols) that meet conds, in
// order, one page of them, and how many meet conds in all.
func findPage[T any](ctx context.Context, db *DB, table, cols, order, what string, conds []filter.Cond,
	offset, limit int, scan scanFunc[T]) ([]T, int, error) {
	w := whereOf(conds)
	out, n, err := collectCounted(ctx, db.pool, scan,
		`SELECT `+cols+`, COUNT(*) OVER () FROM `+table+w.String()+` ORDER BY `+order+page(offset, limit), w.args...)
	return out, n, mapErr(err, what)
}

// updateRow reads and locks the row of table (columns cols) with id,
// lets change alter it and write it back in the same transaction, and
// returns it as changed; what names it when there is none.
func updateRow[E any](ctx context.Context, db *DB, table, cols, what string, id int64, scan scanFunc[*E],
	change func(tx pgx.Tx, now time.Time, v *E) error) (*E, error) {
	var v *E
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		var err error
		if v, err = scan(tx.QueryRow(ctx, `SELECT `+cols+` FROM `+table+` WHERE id = $1 FOR UPDATE`, id)); err != nil {
			return notFound(err, what)
		}
		return change(tx, now, v)
	})
	if err != nil {
		return nil, err
	}
	return v, nil
}

// createKeyed inserts v, a new row of table, through query with the
// arguments row gives once the time is known, and keeps v as the answer
// to the request's idempotency key in the same transaction.
func (db *DB) createKeyed(ctx context.Context, table, what, query string, id *int64, v any, row func(now time.Time) []any) error {
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		if err := insertRow(ctx, tx, table, id, what, query, row(now)...); err != nil {
			return err
		}
		return putIdempotency(ctx, tx, now, v)
	})
}
