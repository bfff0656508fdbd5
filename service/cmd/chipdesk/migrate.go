package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

const migrateUsage = `usage: chipdesk migrate FROM TO

Copies every table of the database FROM into the empty database TO. Each
is an SQLite file or a postgres:// URL, so an office moves from the
embedded database to PostgreSQL, or back. TO is created and brought to the
current schema first; it must hold no records. Instants keep microseconds
(PostgreSQL's precision).`

// The tables copied, their order and the SQLite store's storage format
// are the stores' own: columns.Tables, sqlite.CopyColumns and
// sqlite.StoredValue. A source table not in columns.Tables stops the
// copy, so that no records are left behind by a schema this command
// does not know yet.

// runMigrate is "chipdesk migrate FROM TO".
func runMigrate(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprintln(e.Stderr, migrateUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return cmdline.Exit(2, nil)
	}
	if fs.NArg() != 2 {
		return cmdline.UsageError("want FROM and TO\n%s", migrateUsage)
	}
	from, to := fs.Arg(0), fs.Arg(1)
	if postgres.IsDSN(from) == postgres.IsDSN(to) {
		return cmdline.UsageError("FROM and TO must be one SQLite file and one postgres:// URL")
	}
	if !postgres.IsDSN(from) {
		if _, err := os.Stat(from); err != nil {
			return fmt.Errorf("migrate: source: %w", err)
		}
	}
	// Opening each store applies its migrations: both ends then have the
	// current schema.
	for _, target := range []string{from, to} {
		st, err := openBackend(ctx, target, e.Now, nil)
		if err != nil {
			return err
		}
		st.Close()
	}
	var counts []tableCount
	var err error
	if postgres.IsDSN(to) {
		counts, err = migrateToPostgres(ctx, from, to)
	} else {
		counts, err = migrateToSQLite(ctx, from, to)
	}
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tROWS")
	total := 0
	for _, c := range counts {
		fmt.Fprintf(tw, "%s\t%d\n", c.table, c.rows)
		total += c.rows
	}
	fmt.Fprintf(tw, "total\t%d\n", total)
	return tw.Flush()
}

type tableCount struct {
	table string
	rows  int
}

// pgColumns returns the data type of each column of each table in the
// connection's schema.
func pgColumns(ctx context.Context, conn *pgx.Conn) (map[string]map[string]string, error) {
	rows, err := conn.Query(ctx, `SELECT table_name, column_name, data_type FROM information_schema.columns
		WHERE table_schema = current_schema()`)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	var t, c, typ string
	_, err = pgx.ForEachRow(rows, []any{&t, &c, &typ}, func() error {
		if postgres.OwnTable(t) {
			return nil // the store's own, rebuilt by postgres.EndBulk
		}
		if out[t] == nil {
			out[t] = map[string]string{}
		}
		out[t][c] = typ
		return nil
	})
	return out, err
}

// plan checks both schemas and returns, per table in copy order, the
// columns to copy: all of the SQLite table's, each of which PostgreSQL
// must have too.
func plan(lite map[string][]string, pg map[string]map[string]string, source string) (map[string][]string, error) {
	tables := lite
	if source == "postgres" {
		tables = map[string][]string{}
		for t := range pg {
			tables[t] = nil
		}
	}
	for t := range tables {
		if t != "migrations" && !sqlite.DerivedTable(t) && !slices.Contains(columns.Tables, t) {
			return nil, fmt.Errorf("migrate: the %s source has a table %q this chipdesk does not know; upgrade chipdesk", source, t)
		}
	}
	cols := map[string][]string{}
	for _, t := range columns.Tables {
		switch {
		case lite[t] == nil && pg[t] == nil:
			continue // a table of a later schema, on neither side
		case lite[t] == nil || pg[t] == nil:
			return nil, fmt.Errorf("migrate: table %s exists on one side only; the two stores' schemas differ", t)
		}
		for _, c := range lite[t] {
			if pg[t][c] == "" {
				return nil, fmt.Errorf("migrate: column %s.%s missing in PostgreSQL", t, c)
			}
		}
		if len(pg[t]) != len(lite[t]) {
			return nil, fmt.Errorf("migrate: table %s has %d columns in PostgreSQL and %d in SQLite", t, len(pg[t]), len(lite[t]))
		}
		cols[t] = lite[t]
	}
	return cols, nil
}

// connectPostgres opens one connection with instants in UTC.
func connectPostgres(ctx context.Context, dsn string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	cfg.RuntimeParams["timezone"] = "UTC"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return conn, nil
}

// migrateColumns reads both schemas and plans the columns to copy from
// source ("sqlite" or "postgres"); it returns PostgreSQL's column types
// too, which the copy converts by.
func migrateColumns(ctx context.Context, lite *sql.DB, conn *pgx.Conn, source string) (pgCols map[string]map[string]string, cols map[string][]string, err error) {
	liteCols, err := sqlite.CopyColumns(ctx, lite)
	if err != nil {
		return nil, nil, fmt.Errorf("migrate: %w", err)
	}
	if pgCols, err = pgColumns(ctx, conn); err != nil {
		return nil, nil, fmt.Errorf("migrate: %w", err)
	}
	if cols, err = plan(liteCols, pgCols, source); err != nil {
		return nil, nil, err
	}
	return pgCols, cols, nil
}

// migrateToPostgres copies the SQLite file into PostgreSQL, each table
// by COPY, all in one transaction.
func migrateToPostgres(ctx context.Context, path, dsn string) ([]tableCount, error) {
	lite, err := sqlite.OpenCopy(path)
	if err != nil {
		return nil, err
	}
	defer lite.Close()
	conn, err := connectPostgres(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	pgCols, cols, err := migrateColumns(ctx, lite, conn, "sqlite")
	if err != nil {
		return nil, err
	}
	// A read transaction keeps the source still while it is copied.
	src, err := lite.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer src.Rollback()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback(ctx)
	if err := postgres.BeginBulk(ctx, tx); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	var counts []tableCount
	for _, t := range columns.Tables {
		if cols[t] == nil {
			continue
		}
		var any bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+pgx.Identifier{t}.Sanitize()+`)`).Scan(&any); err != nil {
			return nil, fmt.Errorf("migrate: %s: %w", t, err)
		} else if any {
			return nil, fmt.Errorf("migrate: the destination already holds %s; migrate copies into an empty database only", t)
		}
		rows, err := src.QueryContext(ctx, `SELECT `+strings.Join(cols[t], ", ")+` FROM `+t+columns.OrderBy(t))
		if err != nil {
			return nil, fmt.Errorf("migrate: read %s: %w", t, err)
		}
		types := make([]string, len(cols[t]))
		for i, c := range cols[t] {
			types[i] = pgCols[t][c]
		}
		n, err := tx.CopyFrom(ctx, pgx.Identifier{t}, cols[t], &liteSource{rows: rows, types: types, table: t, cols: cols[t]})
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("migrate: copy %s: %w", t, err)
		}
		if pgCols[t]["id"] == "bigint" { // an identity column
			if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'), max(id)) FROM `+
				pgx.Identifier{t}.Sanitize()+` HAVING max(id) IS NOT NULL`, t); err != nil {
				return nil, fmt.Errorf("migrate: %s id sequence: %w", t, err)
			}
		}
		counts = append(counts, tableCount{t, int(n)})
	}
	if err := postgres.EndBulk(ctx, tx); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("migrate: commit: %w", err)
	}
	// Fresh statistics, so the first plans are made on the copied tables
	// and not on empty ones.
	var names []string
	for _, c := range counts {
		names = append(names, pgx.Identifier{c.table}.Sanitize())
	}
	if _, err := conn.Exec(ctx, `ANALYZE `+strings.Join(names, ", ")); err != nil {
		return nil, fmt.Errorf("migrate: analyze: %w", err)
	}
	return counts, nil
}

// liteSource streams SQLite rows into COPY, converting each value to the
// PostgreSQL column's type.
type liteSource struct {
	rows  *sql.Rows
	types []string
	table string
	cols  []string
	vals  []any
	err   error
}

func (s *liteSource) Next() bool {
	if s.err != nil || !s.rows.Next() {
		return false
	}
	raw := make([]any, len(s.types))
	dest := make([]any, len(raw))
	for i := range raw {
		dest[i] = &raw[i]
	}
	if s.err = s.rows.Scan(dest...); s.err != nil {
		return false
	}
	s.vals = make([]any, len(raw))
	for i, v := range raw {
		if s.vals[i], s.err = toPostgres(v, s.types[i]); s.err != nil {
			s.err = fmt.Errorf("%s.%s: %w", s.table, s.cols[i], s.err)
			return false
		}
	}
	return true
}

func (s *liteSource) Values() ([]any, error) { return s.vals, nil }

func (s *liteSource) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.rows.Err()
}

// toPostgres converts an SQLite value to the Go value for a PostgreSQL
// column of type typ.
func toPostgres(v any, typ string) (any, error) {
	if b, ok := v.([]byte); ok && typ != "bytea" {
		v = string(b)
	}
	if v == nil {
		return nil, nil
	}
	switch typ {
	case "date":
		s, _ := v.(string)
		d, err := service.ParseDate(s)
		if err != nil {
			return nil, err
		}
		if d.IsZero() {
			return nil, nil
		}
		return pgtype.Date{Time: d.Time(time.UTC), Valid: true}, nil
	case "timestamp with time zone":
		s, _ := v.(string)
		t, err := sqlite.ParseStamp(s)
		if err != nil {
			return nil, err
		}
		return t.UTC(), nil
	case "boolean":
		n, ok := v.(int64)
		if !ok {
			return nil, fmt.Errorf("want 0 or 1, have %v", v)
		}
		return n != 0, nil
	}
	return v, nil
}

// migrateToSQLite copies PostgreSQL into the SQLite file, all in one
// transaction (foreign keys checked at commit).
func migrateToSQLite(ctx context.Context, dsn, path string) ([]tableCount, error) {
	conn, err := connectPostgres(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	lite, err := sqlite.OpenCopy(path)
	if err != nil {
		return nil, err
	}
	defer lite.Close()
	pgCols, cols, err := migrateColumns(ctx, lite, conn, "postgres")
	if err != nil {
		return nil, err
	}
	src, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer src.Rollback(ctx)
	tx, err := lite.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	var counts []tableCount
	for _, t := range columns.Tables {
		if cols[t] == nil {
			continue
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+t+` LIMIT 1)`).Scan(&n); err != nil {
			return nil, fmt.Errorf("migrate: %s: %w", t, err)
		} else if n > 0 {
			return nil, fmt.Errorf("migrate: the destination already holds %s; migrate copies into an empty database only", t)
		}
		n, err := copyToSQLite(ctx, src, tx, t, cols[t], pgCols[t])
		if err != nil {
			return nil, err
		}
		counts = append(counts, tableCount{t, n})
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("migrate: commit: %w", err)
	}
	return counts, nil
}

func copyToSQLite(ctx context.Context, src pgx.Tx, dst *sql.Tx, table string, cols []string, types map[string]string) (int, error) {
	rows, err := src.Query(ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+pgx.Identifier{table}.Sanitize()+columns.OrderBy(table))
	if err != nil {
		return 0, fmt.Errorf("migrate: read %s: %w", table, err)
	}
	defer rows.Close()
	ins, err := dst.PrepareContext(ctx, `INSERT INTO `+table+` (`+strings.Join(cols, ", ")+`) VALUES (`+
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")+`)`)
	if err != nil {
		return 0, fmt.Errorf("migrate: %s: %w", table, err)
	}
	defer ins.Close()
	n := 0
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return 0, fmt.Errorf("migrate: read %s: %w", table, err)
		}
		for i, v := range vals {
			vals[i] = toSQLite(v, types[cols[i]])
		}
		if _, err := ins.ExecContext(ctx, vals...); err != nil {
			return 0, fmt.Errorf("migrate: write %s: %w", table, err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("migrate: read %s: %w", table, err)
	}
	return n, nil
}

// toSQLite converts a PostgreSQL value (as pgx decodes it) to what the
// SQLite store keeps (sqlite.StoredValue); a PostgreSQL date, decoded
// as an instant, is a date.
func toSQLite(v any, typ string) any {
	if t, ok := v.(time.Time); ok && typ == "date" {
		return sqlite.StoredValue(service.DateOf(t.UTC()))
	}
	return sqlite.StoredValue(v)
}
