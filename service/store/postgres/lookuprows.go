package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// The lookup rows (migrations 0030 and 0170): every part of an
// animal's record but its licences, kept by triggers in the transaction
// of each change. The animal, its owner and its latest vaccination, the
// parts every lookup shows, are typed columns (typedParts), which pgx
// reads in the binary protocol straight into the record's fields
// through package columns' destinations; the lists and the designation,
// most of them empty, are one JSON text (listParts). A lookup reads the
// row and the licences in one statement of three index lookups, instead
// of the nine subqueries of recordSQL, which stays the fallback for an
// animal without a row. The row holds every impoundment and bite; the
// twelve-month window is applied when it is read (fromRow), so the row
// does not age.
//
// A table that a record shows must, to appear in lookups: be a part of
// typedParts or listParts (and of service.Record), and have a trigger
// calling lookup_refresh in a migration, as those of 0030. The table's
// columns follow the parts: Open makes the table and the function
// lookup_store again, rebuilding every row, when they change
// (syncLookupRows).

// typedPart is a part of the lookup row kept in typed columns: the
// columns cols of its table, named prefix+column in lookup_rows.
type typedPart struct {
	prefix, cols string
}

// typedParts are the typed parts, in their order in the row: the
// animal (alias a), its owner (o) and its latest vaccination (v).
var typedParts = []typedPart{{"a", columns.Animal}, {"o", columns.Owner}, {"v", columns.Vaccination}}

// typedCols lists the typed parts' columns taken from their aliases
// (a.id AS a_id, ...), or, with bare, their names in lookup_rows as
// read from alias bare (r.a_id, ...).
func typedCols(bare string) string {
	var out []string
	for _, p := range typedParts {
		for _, f := range strings.Split(p.cols, ",") {
			f = strings.TrimSpace(f)
			if bare != "" {
				out = append(out, bare+"."+p.prefix+"_"+f)
			} else {
				out = append(out, p.prefix+"."+f+" AS "+p.prefix+"_"+f)
			}
		}
	}
	return strings.Join(out, ", ")
}

// typedNames are the typed parts' column names in lookup_rows.
func typedNames() []string {
	var out []string
	for _, p := range typedParts {
		for _, f := range strings.Split(p.cols, ",") {
			out = append(out, p.prefix+"_"+strings.TrimSpace(f))
		}
	}
	return out
}

// listParts are the JSON parts of a lookup row (its column parts), in
// their order; $1 is the animal id.
var listParts = []recordPart{
	{columns.Chip, "json_agg", `chips WHERE animal_id = $1`},
	{columns.Designation, "row_to_json", `designations WHERE animal_id = $1 AND rescinded_on IS NULL ORDER BY declared_on DESC, id DESC LIMIT 1`},
	{columns.Quarantine, "json_agg", `quarantines WHERE animal_id = $1 AND released_on IS NULL`},
	{columns.Impound, "json_agg", `impoundments WHERE animal_id = $1`},
	{columns.Bite, "json_agg", `bites WHERE animal_id = $1`},
	// permit.go: id and body of the permits and open agreements.
	{"id, body", "json_agg", `permits WHERE animal_id = $1 ORDER BY id`},
	{"id, body", "json_agg", `adoption_agreements WHERE animal_id = $1 AND open ORDER BY id`},
}

// rowFrom is the FROM of the typed parts of the animals of lookup_set
// (the vaccination's table or subquery vacc), aliased a, o and v.
func rowFrom(set, vacc string) string {
	return ` FROM ` + set + ` a LEFT JOIN owners o ON o.id = a.owner_id LEFT JOIN ` + vacc + ` v ON v.animal_id = a.id`
}

// upsert is the ON CONFLICT clause of an insert into lookup_rows.
func upsert() string {
	names := append(typedNames(), "parts")
	for i, n := range names {
		names[i] = n + " = excluded." + n
	}
	return "\nON CONFLICT (animal_id) DO UPDATE SET " + strings.Join(names, ", ")
}

// insertHead is the head of an insert into lookup_rows.
func insertHead() string {
	return "INSERT INTO lookup_rows (animal_id, " + strings.Join(typedNames(), ", ") + ", parts)\n"
}

// lookupStoreSrc is the body of the PL/pgSQL function lookup_store(aid),
// which lookup_refresh (migration 0170) calls to write the row of the
// animal aid.
func lookupStoreSrc() string {
	var b strings.Builder
	b.WriteString("BEGIN\n" + insertHead() + "SELECT a.id, " + typedCols("") + ",\njson_build_array(")
	for i, p := range listParts {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("(SELECT " + p.agg + "(x) FROM (SELECT " + jsonCols(p.cols) + " FROM " + strings.ReplaceAll(p.from, "$1", "aid") + ") x)")
	}
	b.WriteString(")::text" + rowFrom("animals", "LATERAL (SELECT * FROM vaccinations WHERE animal_id = aid ORDER BY date DESC, id DESC LIMIT 1)") +
		"\nWHERE a.id = aid" + upsert() + ";\nEND")
	return b.String()
}

// syncLookupRows makes lookup_rows and lookup_store again when the
// function's definition is not the one of this build (the first open,
// or a column added to a part) and then rebuilds every row; Open runs
// it under the migrations' lock. The table takes its columns' types
// from the parts' tables.
func syncLookupRows(ctx context.Context, tx pgx.Tx) error {
	src := lookupStoreSrc()
	var have string
	err := tx.QueryRow(ctx, `SELECT prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
		WHERE p.proname = 'lookup_store' AND n.nspname = current_schema()`).Scan(&have)
	if err == nil && have == src {
		return nil
	}
	if err != nil && err != pgx.ErrNoRows {
		return err
	}
	for _, q := range []string{`DROP TABLE IF EXISTS lookup_rows`,
		`CREATE TABLE lookup_rows AS SELECT a.id AS animal_id, ` + typedCols("") + `, ''::text AS parts` +
			rowFrom("animals", "vaccinations") + ` WITH NO DATA`,
		`ALTER TABLE lookup_rows ADD PRIMARY KEY (animal_id), ALTER COLUMN parts SET NOT NULL`,
		// PL/pgSQL, not SQL: a session plans its statement once, where an
		// SQL function not inlined is planned at every call (10 ms a row).
		`CREATE OR REPLACE FUNCTION lookup_store(aid BIGINT) RETURNS void LANGUAGE plpgsql AS $body$` + src + `$body$`,
	} {
		if _, err := tx.Exec(ctx, q); err != nil {
			return err
		}
	}
	return rebuildLookupRows(ctx, tx, "")
}

// rebuildLookupRows rebuilds the rows of the animals that where (a
// condition on animals, named lookup_animal, with the arguments args)
// selects, all when it is empty. It is one set-wise statement, each
// part aggregated by animal over its table and joined by hash: the
// correlated form (lookup_store row by row) costs a bulk load of a
// million animals minutes instead of seconds. The parts are those of
// typedParts and listParts, and TestLookupRowsFollowEveryWrite checks
// both make the same rows.
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
	// A permit or agreement as permitPart reads it, in id order.
	bodies := func(table, cond string) string {
		return `(SELECT t.animal_id AS aid, json_agg(json_build_object('id', t.id, 'body', t.body) ORDER BY t.id) AS j FROM ` +
			table + ` t` + in + cond + ` GROUP BY 1)`
	}
	return `WITH lookup_set AS MATERIALIZED (SELECT * FROM animals lookup_animal` + where + `)
` + insertHead() + `SELECT a.id, ` + typedCols("") + `, json_build_array(ch.j, d.j, q.j, i.j, b.j, p.j, g.j)::text` +
		rowFrom("lookup_set", `(SELECT DISTINCT ON (animal_id) * FROM vaccinations`+in+` ORDER BY animal_id, date DESC, id DESC)`) + `
LEFT JOIN ` + grouped("chips", columns.Chip, "") + ` ch ON ch.aid = a.id
LEFT JOIN ` + latest("designations", columns.Designation, " AND rescinded_on IS NULL", q("declared_on")+` DESC, `+q("id")+` DESC`) + ` d ON d.aid = a.id
LEFT JOIN ` + grouped("quarantines", columns.Quarantine, " AND released_on IS NULL") + ` q ON q.aid = a.id
LEFT JOIN ` + grouped("impoundments", columns.Impound, "") + ` i ON i.aid = a.id
LEFT JOIN ` + grouped("bites", columns.Bite, "") + ` b ON b.aid = a.id
LEFT JOIN ` + bodies("permits", "") + ` p ON p.aid = a.id
LEFT JOIN ` + bodies("adoption_agreements", " AND open") + ` g ON g.aid = a.id` + upsert()
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
// query (animal id, matched licence id) finds, one row per licence (one
// with NULL licence columns when there is none): the row's animal_id
// (NULL when the animal has no row), its typed columns and parts, then
// the licence's columns, typed too.
func rowSQL(key string) string {
	var lic []string
	for _, f := range strings.Split(columns.Licence, ",") {
		lic = append(lic, "l."+strings.TrimSpace(f))
	}
	// The licences are read live, not kept in the row (those of
	// recordParts[3]).
	return "WITH k(aid, lid) AS (" + key + ")\nSELECT r.animal_id, " + typedCols("r") + ", r.parts,\n" + strings.Join(lic, ", ") +
		"\nFROM k LEFT JOIN lookup_rows r ON r.animal_id = k.aid" +
		"\nLEFT JOIN licences l ON l.animal_id = k.aid AND (l.expires_on >= $1 OR l.id = k.lid)"
}

var (
	rowByChipSQL   = rowSQL(`SELECT animal_id, 0::bigint FROM chips WHERE code = $2`)
	rowByTagSQL    = rowSQL(`SELECT animal_id, id FROM licences WHERE jurisdiction = $2 AND year = $3 AND tag_number = $4`)
	rowByAnimalSQL = rowSQL(`SELECT id, 0::bigint FROM animals WHERE id = $2`)
)

// lookupRow is what rowSQL reads.
type lookupRow struct {
	found bool // the animal's key matched
	row   bool // the animal has a lookup row
	r     service.Record
	parts []byte
}

// scanLookupRow reads the rows of rows (rowSQL's): the typed parts into
// the record's fields, an absent owner or vaccination (its id NULL)
// left nil, its columns skipped; and a licence from each row.
func (p *rowPlans) scanLookupRow(rows pgx.Rows) (*lookupRow, error) {
	defer rows.Close()
	lr := &lookupRow{}
	r := &lr.r
	r.Licences = []service.Licence{}
	var dest []any // made once the first row gives its width
	for rows.Next() {
		raw := rows.RawValues()
		if !lr.found {
			lr.found = true
			if raw[0] == nil {
				return lr, nil
			}
			lr.row = true
			dest = make([]any, 1, len(raw))
			dest = append(dest, columns.AnimalDest(&r.Animal, wrap{})...)
			if raw[len(dest)] == nil {
				dest = append(dest, make([]any, len(columns.OwnerDest(&service.Owner{}, wrap{})))...)
			} else {
				r.Owner = &service.Owner{}
				dest = append(dest, columns.OwnerDest(r.Owner, wrap{})...)
			}
			if raw[len(dest)] == nil {
				dest = append(dest, make([]any, len(columns.VaccinationDest(&service.RabiesVaccination{}, wrap{})))...)
			} else {
				r.Rabies = &service.RabiesVaccination{}
				dest = append(dest, columns.VaccinationDest(r.Rabies, wrap{})...)
			}
			dest = append(dest, &lr.parts)
		} else {
			clear(dest) // the lookup row's columns, read from the first
		}
		dest = dest[:len(raw)-len(columns.LicenceDest(&service.Licence{}, wrap{}))]
		if raw[len(dest)] != nil { // the licence's id
			r.Licences = append(r.Licences, service.Licence{})
			dest = append(dest, columns.LicenceDest(&r.Licences[len(r.Licences)-1], wrap{})...)
		}
		if err := p.scan(rows, raw, dest); err != nil {
			return nil, err
		}
	}
	rows.Close()
	return lr, rows.Err()
}

// rowPlans keeps pgx's scan plans of rowSQL's columns, by connection
// (its type map): pgx plans the scan of every column of a row again at
// each query, which for the forty columns of a lookup row cost more
// than reading them. A plan depends only on the column's type and the
// destination's, which are the same at every lookup; a connection is
// used by one lookup at a time, so its plans need no lock of their own.
type rowPlans struct {
	mu sync.Mutex
	by map[*pgtype.Map][]pgtype.ScanPlan
}

// scan scans the row's values raw into dest (nil: skipped), as
// rows.Scan does, with the plans of the row's connection.
func (p *rowPlans) scan(rows pgx.Rows, raw [][]byte, dest []any) error {
	m := rows.Conn().TypeMap()
	p.mu.Lock()
	plans := p.by[m]
	if plans == nil {
		if p.by == nil || len(p.by) >= 256 { // connections closed since
			p.by = map[*pgtype.Map][]pgtype.ScanPlan{}
		}
		plans = make([]pgtype.ScanPlan, len(raw))
		p.by[m] = plans
	}
	p.mu.Unlock()
	fds := rows.FieldDescriptions()
	for i, d := range dest {
		if d == nil {
			continue
		}
		if plans[i] == nil {
			plans[i] = m.PlanScan(fds[i].DataTypeOID, fds[i].Format, d)
		}
		if err := plans[i].Scan(raw[i], d); err != nil {
			return fmt.Errorf("column %s: %w", fds[i].Name, err)
		}
	}
	return nil
}

// fromRow completes a record whose typed parts and licences are read
// from the list parts' JSON, keeping the impoundments and bites
// of the window from yearAgo as recordParts selects them.
func fromRow(r *service.Record, parts []byte, yearAgo service.Date) error {
	// One pass over the parts, each decoded into its field: the array's
	// elements are pointers, which encoding/json fills (a JSON null
	// leaves a struct alone and sets a pointer to nil). The element past
	// the parts and the last part are pointers to pointers, which a JSON
	// null only empties and a missing element sets to nil: the first is
	// nil when the array has no more than len(listParts), the second
	// when it has fewer.
	var extra, permits, agreements json.RawMessage
	agrs, more := &agreements, &extra
	all := [8]any{&r.Chips, &r.Dangerous, &r.Quarantines, &r.Impounds, &r.Bites, &permits, &agrs, &more}
	if err := json.Unmarshal(parts, &all); err != nil || all[len(listParts)-1] == nil || all[len(listParts)] != nil {
		return fmt.Errorf("postgres: lookup row: not the %d parts of a row (%v)", len(listParts), err)
	}
	if err := addPermitParts(r, permits, agreements); err != nil { // permit.go
		return fmt.Errorf("postgres: lookup row: %w", err)
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
	// recordParts: impoundments with intake in the window or still
	// open, bites in the window.
	r.Impounds = keep(r.Impounds, func(i *service.Impoundment) bool { return i.IntakeOn >= yearAgo || i.Disposition == service.Held })
	r.Bites = keep(r.Bites, func(b *service.BiteIncident) bool { return b.Date >= yearAgo })
	return nil
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
