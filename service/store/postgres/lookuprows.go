package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// The lookup rows (migration 0030): every part of an animal's record
// but its licences, as one JSON text per animal, kept by triggers in the
// transaction of each change. A lookup reads the row and the licences
// in one statement of three index lookups, instead of the nine
// subqueries of recordSQL, which stays the fallback for an animal
// without a row. The row holds every impoundment and bite; the
// twelve-month window is applied when it is read (inWindow), so the row
// does not age.
//
// A table that a record shows must, to appear in lookups: be a part of
// bodyParts (and of service.Record), and have a trigger calling
// lookup_refresh in a migration, as those of 0030.

// bodyParts are the parts of a lookup row, in its order; $1 is the
// animal id.
var bodyParts = []recordPart{
	{columns.Animal, "row_to_json", `animals WHERE id = $1`},
	{columns.Owner, "row_to_json", `owners WHERE id = (SELECT owner_id FROM animals WHERE id = $1)`},
	{columns.Chip, "json_agg", `chips WHERE animal_id = $1`},
	{columns.Vaccination, "row_to_json", `vaccinations WHERE animal_id = $1 ORDER BY date DESC, id DESC LIMIT 1`},
	{columns.Designation, "row_to_json", `designations WHERE animal_id = $1 AND rescinded_on IS NULL ORDER BY declared_on DESC, id DESC LIMIT 1`},
	{columns.Quarantine, "json_agg", `quarantines WHERE animal_id = $1 AND released_on IS NULL`},
	{columns.Impound, "json_agg", `impoundments WHERE animal_id = $1`},
	{columns.Bite, "json_agg", `bites WHERE animal_id = $1`},
}

// lookupBodySrc is the body of the PL/pgSQL function lookup_body(aid).
func lookupBodySrc() string {
	return "BEGIN RETURN (" + bodySelect("$1") + "); END"
}

// bodySelect is the SELECT of the lookup row of the animal whose id is
// the expression aid.
func bodySelect(aid string) string {
	var b strings.Builder
	b.WriteString("SELECT json_build_array(")
	for i, p := range bodyParts {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("(SELECT " + p.agg + "(x) FROM (SELECT " + jsonCols(p.cols) + " FROM " + strings.ReplaceAll(p.from, "$1", aid) + ") x)")
	}
	b.WriteString(")::text")
	return b.String()
}

// syncLookupBody writes lookup_body when its definition is not the one
// of this build (the first open, or a column added to a part) and then
// rebuilds every row; Open runs it under the migrations' lock.
func syncLookupBody(ctx context.Context, tx pgx.Tx) error {
	src := lookupBodySrc()
	var have string
	err := tx.QueryRow(ctx, `SELECT prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE p.proname = 'lookup_body' AND n.nspname = current_schema()`).Scan(&have)
	if err == nil && have == src {
		return nil
	}
	if err != nil && err != pgx.ErrNoRows {
		return err
	}
	// PL/pgSQL, not SQL: a session plans its statement once, where an
	// SQL function not inlined is planned at every call (10 ms a row).
	if _, err := tx.Exec(ctx, `CREATE OR REPLACE FUNCTION lookup_body(aid BIGINT) RETURNS TEXT LANGUAGE plpgsql STABLE AS $body$`+
		src+`$body$`); err != nil {
		return err
	}
	return rebuildLookupRows(ctx, tx, "")
}

// rebuildLookupRows rebuilds the rows of the animals that where (a
// condition on animals, named lookup_animal, with the arguments args)
// selects, all when it is empty. It is one set-wise statement, each
// part aggregated by animal over its table and joined by hash: the
// correlated form (lookup_body row by row) costs a bulk load of a
// million animals minutes instead of seconds. The parts are those of
// bodyParts, and TestLookupRowsRebuilt checks both make the same rows.
func rebuildLookupRows(ctx context.Context, tx pgx.Tx, where string, args ...any) error {
	if where != "" {
		where = " WHERE " + where
	}
	_, err := tx.Exec(ctx, rebuildSQL(where), args...)
	return err
}

// rebuildSQL is rebuildLookupRows' statement.
func rebuildSQL(where string) string {
	aid := `"` + jsonName("animal_id") + `"`
	in := ` WHERE animal_id IN (SELECT id FROM lookup_set)`
	if where == "" {
		// Every animal: each part's whole table, aggregated by hash or
		// sort, not searched by index once per animal.
		in = ` WHERE true`
	}
	grouped := func(table, cols, cond string) string {
		return `(SELECT x.` + aid + ` AS aid, json_agg(x) AS j FROM (SELECT ` + jsonCols(cols) + ` FROM ` + table + in + cond + `) x GROUP BY 1)`
	}
	latest := func(table, cols, cond, order string) string {
		return `(SELECT DISTINCT ON (x.` + aid + `) x.` + aid + ` AS aid, row_to_json(x) AS j FROM (SELECT ` + jsonCols(cols) + ` FROM ` +
			table + in + cond + `) x ORDER BY x.` + aid + `, ` + order + `)`
	}
	q := func(c string) string { return `x."` + jsonName(c) + `"` }
	return `WITH lookup_set AS MATERIALIZED (SELECT * FROM animals lookup_animal` + where + `)
INSERT INTO lookup_rows (animal_id, body)
SELECT a.id, json_build_array(
	(SELECT row_to_json(x) FROM (SELECT ` + prefixed("a.", columns.Animal) + `) x),
	CASE WHEN o.id IS NULL THEN NULL ELSE (SELECT row_to_json(x) FROM (SELECT ` + prefixed("o.", columns.Owner) + `) x) END,
	ch.j, v.j, d.j, q.j, i.j, b.j)::text
FROM lookup_set a
LEFT JOIN owners o ON o.id = a.owner_id
LEFT JOIN ` + grouped("chips", columns.Chip, "") + ` ch ON ch.aid = a.id
LEFT JOIN ` + latest("vaccinations", columns.Vaccination, "", q("date")+` DESC, `+q("id")+` DESC`) + ` v ON v.aid = a.id
LEFT JOIN ` + latest("designations", columns.Designation, " AND rescinded_on IS NULL", q("declared_on")+` DESC, `+q("id")+` DESC`) + ` d ON d.aid = a.id
LEFT JOIN ` + grouped("quarantines", columns.Quarantine, " AND released_on IS NULL") + ` q ON q.aid = a.id
LEFT JOIN ` + grouped("impoundments", columns.Impound, "") + ` i ON i.aid = a.id
LEFT JOIN ` + grouped("bites", columns.Bite, "") + ` b ON b.aid = a.id
ON CONFLICT (animal_id) DO UPDATE SET body = excluded.body`
}

// prefixed is jsonCols with each column taken from the table alias
// prefix ("a.").
func prefixed(prefix, cols string) string {
	fields := strings.Split(cols, ",")
	for i, f := range fields {
		f = strings.TrimSpace(f)
		fields[i] = prefix + f + ` AS "` + jsonName(f) + `"`
	}
	return strings.Join(fields, ", ")
}

// BeginBulk makes the triggers of tx's transaction leave the lookup rows
// alone, for a load of many rows (Import, chipdesk migrate); EndBulk
// turns them back on and rebuilds every row. A program that copies rows
// into this store calls both in its transaction.
//
// It also fits the transaction's settings to statements over whole
// tables: no JIT compilation (8 of the 17 s that rebuilding 100,000
// lookup rows took went to compiling the statement), and room to sort
// and hash them in memory and to build their indexes.
func BeginBulk(ctx context.Context, tx pgx.Tx) error {
	for _, q := range []string{`SET LOCAL chipdesk.bulk = 'on'`, `SET LOCAL jit = off`,
		`SET LOCAL work_mem = '64MB'`, `SET LOCAL maintenance_work_mem = '256MB'`} {
		if _, err := tx.Exec(ctx, q); err != nil {
			return fmt.Errorf("postgres: bulk: %w", err)
		}
	}
	return nil
}

// EndBulk ends BeginBulk, rebuilding every lookup row and counting
// every licence's sale again (licence_sales, which the bulk load's
// licences did not count row by row).
func EndBulk(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `DELETE FROM licence_sales`); err != nil {
		return fmt.Errorf("postgres: licence sales: %w", err)
	}
	if _, err := tx.Exec(ctx, licenceSalesSQL("")); err != nil {
		return fmt.Errorf("postgres: licence sales: %w", err)
	}
	return endBulk(ctx, tx, "")
}

// endBulk turns the triggers back on, rebuilds the lookup rows of the
// animals that where selects (as rebuildLookupRows) and enters them in
// the change sequence, which the sync triggers leave alone in a bulk
// load (migration 0140).
func endBulk(ctx context.Context, tx pgx.Tx, where string, args ...any) error {
	if _, err := tx.Exec(ctx, `SET LOCAL chipdesk.bulk = 'off'`); err != nil {
		return fmt.Errorf("postgres: bulk: %w", err)
	}
	if err := rebuildLookupRows(ctx, tx, where, args...); err != nil {
		return fmt.Errorf("postgres: lookup rows: %w", err)
	}
	if where != "" {
		where = " WHERE " + where
	}
	// sync_mark's statement, reading the animals' ids where it takes an
	// array: a million ids in one array cost a sort to make distinct.
	if _, err := tx.Exec(ctx, `INSERT INTO sync_changes (animal_id, xid)
		SELECT id, txid_current() FROM animals lookup_animal`+where+`
		ON CONFLICT (animal_id) DO UPDATE SET xid = excluded.xid`, args...); err != nil {
		return fmt.Errorf("postgres: changes: %w", err)
	}
	return nil
}

// OwnTable reports the tables of this store that a copy leaves out: its
// bookkeeping, and the lookup rows and the change sequence of the
// handhelds' pulls, which EndBulk builds.
func OwnTable(name string) bool {
	switch name {
	case "migrations", "lookup_rows", "sync_changes":
		return true
	}
	return false
}

// rowSQL reads the lookup row and the licences of the animal a key
// query (animal id, matched licence id) finds.
func rowSQL(key string) string {
	live := func(p recordPart) string {
		return "(SELECT " + p.agg + "(x) FROM (SELECT " + jsonCols(p.cols) + " FROM " + p.from + ") x)"
	}
	// The licences, permits and agreements are read live, not kept in
	// the row (permits and agreements: the last two recordParts).
	return "WITH k(aid, lid) AS (" + key + ")\nSELECT (SELECT body FROM lookup_rows WHERE animal_id = k.aid),\n" +
		live(recordParts[3]) + ",\n" + live(recordParts[9]) + ",\n" + live(recordParts[10]) + "\nFROM k"
}

var (
	rowByChipSQL   = rowSQL(`SELECT animal_id, 0::bigint FROM chips WHERE code = $2`)
	rowByTagSQL    = rowSQL(`SELECT animal_id, id FROM licences WHERE jurisdiction = $2 AND year = $3 AND tag_number = $4`)
	rowByAnimalSQL = rowSQL(`SELECT id, 0::bigint FROM animals WHERE id = $2`)
)

// fromRow assembles a record from a lookup row's body and the licences'
// JSON, keeping the impoundments and bites of the window from yearAgo
// as recordParts selects them.
func fromRow(body, licences []byte, yearAgo service.Date) (*service.Record, error) {
	r := &service.Record{}
	// One pass over the body, each part decoded into its field: the
	// array's elements are pointers, which encoding/json fills (a JSON
	// null leaves a struct alone and sets a pointer to nil). Decoding
	// the parts as raw messages first read every body twice, most of
	// a lookup's CPU in this process. The element past the parts and
	// the last part are pointers to pointers, which a JSON null only
	// empties and a missing element sets to nil: the first is nil when
	// the body has no more than len(bodyParts), the second when it has
	// fewer.
	var extra json.RawMessage
	bites, more := &r.Bites, &extra
	parts := [9]any{&r.Animal, &r.Owner, &r.Chips, &r.Rabies, &r.Dangerous, &r.Quarantines, &r.Impounds, &bites, &more}
	if err := json.Unmarshal(body, &parts); err != nil || parts[len(bodyParts)-1] == nil || parts[len(bodyParts)] != nil {
		return nil, fmt.Errorf("postgres: lookup row: not the %d parts of a body (%v)", len(bodyParts), err)
	}
	if r.Chips == nil {
		r.Chips = []service.Chip{}
	}
	if r.Quarantines == nil {
		r.Quarantines = []service.Quarantine{}
	}
	if r.Impounds == nil {
		r.Impounds = []service.Impoundment{}
	}
	if r.Bites == nil {
		r.Bites = []service.BiteIncident{}
	}
	r.Licences = []service.Licence{}
	if licences != nil {
		if err := json.Unmarshal(licences, &r.Licences); err != nil {
			return nil, fmt.Errorf("postgres: lookup: %w", err)
		}
	}
	// recordParts: impoundments with intake in the window or still
	// open, bites in the window.
	r.Impounds = keep(r.Impounds, func(i *service.Impoundment) bool { return i.IntakeOn >= yearAgo || i.Disposition == service.Held })
	r.Bites = keep(r.Bites, func(b *service.BiteIncident) bool { return b.Date >= yearAgo })
	return r, nil
}

func keep[T any](xs []T, ok func(*T) bool) []T {
	out := xs[:0]
	for i := range xs {
		if ok(&xs[i]) {
			out = append(out, xs[i])
		}
	}
	return out
}
