package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// Import implements service.BulkService: the whole batch in one
// transaction. Rows that carry their id go in through COPY (fast enough
// for a million animals); rows without one are inserted one by one to
// learn their id. The id sequences are then moved past the largest id.
func (db *DB) Import(ctx context.Context, b *service.Batch) error {
	if err := b.Prepare(); err != nil {
		return err
	}
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		// The lookup rows of what the batch touches are rebuilt once, at
		// the end, not by the triggers row by row.
		if err := BeginBulk(ctx, tx); err != nil {
			return err
		}
		// Into tables that were empty, the batch is all their rows, and
		// the statements at the end read whole tables, not the batch's
		// ids one by one.
		var noAnimals, noLicences bool
		if err := tx.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM animals), NOT EXISTS (SELECT 1 FROM licences)`).Scan(&noAnimals, &noLicences); err != nil {
			return fmt.Errorf("postgres: import: %w", err)
		}
		analyzed := map[string]bool{}
		if err := db.importBatch(ctx, tx, now, b, analyzed); err != nil {
			return err
		}
		if err := addLicenceSales(ctx, tx, b.Licences, noLicences); err != nil {
			return err
		}
		if err := markLicensed(ctx, tx, b.Licences, noLicences); err != nil {
			return err
		}
		large := b.Len() >= analyzeAfter
		animals, owners := batchAnimals(b), batchOwners(b)
		switch {
		case len(animals) == 0 && len(owners) == 0:
			// Licences alone: not in the rows.
			if _, err := tx.Exec(ctx, `SET LOCAL chipdesk.bulk = 'off'`); err != nil {
				return err
			}
		default:
			if large {
				// The rows' parts are read by index only with
				// statistics that know the tables just loaded.
				if err := analyze(ctx, tx, analyzed, "owners", "animals", "chips", "vaccinations"); err != nil {
					return err
				}
			}
			where, args := `lookup_animal.id IN (SELECT unnest($1::bigint[]))
				OR lookup_animal.owner_id IN (SELECT unnest($2::bigint[]))`, []any{animals, owners}
			if noAnimals {
				where, args = "", nil
			}
			// Semi-joins on the unnested lists, not = ANY: a list of a
			// million ids would be searched once per animal.
			if err := endBulk(ctx, tx, where, args...); err != nil {
				return err
			}
		}
		if !large {
			return nil
		}
		// Plans made on the statistics of the tables before a large
		// import (empty ones: sequential scans) would hold until
		// autovacuum comes round; the tables the import wrote are
		// analyzed, each once, in its transaction, and cached plans are
		// made again when it commits.
		var tables []string
		for _, t := range []struct {
			name string
			n    int
		}{{"owners", len(b.Owners)}, {"animals", len(b.Animals)}, {"chips", len(b.Chips)},
			{"licences", len(b.Licences)}, {"tag_counters", len(b.Licences)}, {"vaccinations", len(b.Vaccinations)},
			{"lookup_rows", len(b.Animals) + len(b.Chips) + len(b.Vaccinations)}} {
			if t.n > 0 {
				tables = append(tables, t.name)
			}
		}
		return analyze(ctx, tx, analyzed, tables...)
	})
	return err
}

// analyze refreshes the planner's statistics of those of tables not in
// done, and adds them to it.
func analyze(ctx context.Context, tx pgx.Tx, done map[string]bool, tables ...string) error {
	var todo []string
	for _, t := range tables {
		if !done[t] {
			todo = append(todo, pgx.Identifier{t}.Sanitize())
			done[t] = true
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `ANALYZE `+strings.Join(todo, ", ")); err != nil {
		return fmt.Errorf("postgres: analyze: %w", err)
	}
	return nil
}

// licenceSalesSQL counts the sales of the licences that cond (on
// licences l, with arguments) selects into licence_sales (migration
// 0041), added to the counts there: what the row trigger, silent in a
// bulk load (migration 0100), would have added one by one.
func licenceSalesSQL(cond string) string {
	return `INSERT INTO licence_sales (day, jurisdiction, species, fee_code, count, cents)
SELECT l.issued_on, l.jurisdiction, a.species, l.fee_code, COUNT(*), SUM(l.fee_cents)
FROM licences l JOIN animals a ON a.id = l.animal_id` + cond + `
GROUP BY 1, 2, 3, 4
ON CONFLICT (day, jurisdiction, species, fee_code)
DO UPDATE SET count = licence_sales.count + excluded.count, cents = licence_sales.cents + excluded.cents`
}

// addLicenceSales counts the sales of the licences an import stored;
// all is true when they are every licence of the store.
func addLicenceSales(ctx context.Context, tx pgx.Tx, ls []*service.Licence, all bool) error {
	if len(ls) == 0 {
		return nil
	}
	if all {
		_, err := tx.Exec(ctx, licenceSalesSQL(""))
		if err != nil {
			return fmt.Errorf("postgres: licence sales: %w", err)
		}
		return nil
	}
	if _, err := tx.Exec(ctx, licenceSalesSQL(` WHERE l.id IN (SELECT unnest($1::bigint[]))`), licenceIDs(ls)); err != nil {
		return fmt.Errorf("postgres: licence sales: %w", err)
	}
	return nil
}

// markLicensed enters the animals of licences, which an import stored,
// in the change sequence: a handheld's copy shows them, and the sync
// triggers are silent in a bulk load (migration 0140). all is true when
// they are every licence of the store.
func markLicensed(ctx context.Context, tx pgx.Tx, ls []*service.Licence, all bool) error {
	if len(ls) == 0 {
		return nil
	}
	cond, args := ` WHERE id IN (SELECT unnest($1::bigint[]))`, []any{licenceIDs(ls)}
	if all {
		cond, args = "", nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO sync_changes (animal_id, xid)
		SELECT DISTINCT animal_id, txid_current() FROM licences`+cond+`
		ON CONFLICT (animal_id) DO UPDATE SET xid = excluded.xid`, args...); err != nil {
		return fmt.Errorf("postgres: changes: %w", err)
	}
	return nil
}

func licenceIDs(ls []*service.Licence) []int64 {
	ids := make([]int64, len(ls))
	for i, l := range ls {
		ids[i] = l.ID
	}
	return ids
}

// batchAnimals lists the animals whose lookup rows a batch changes (its
// licences are not in the rows).
func batchAnimals(b *service.Batch) []int64 {
	seen := map[int64]bool{}
	for _, a := range b.Animals {
		seen[a.ID] = true
	}
	for _, c := range b.Chips {
		seen[c.AnimalID] = true
	}
	for _, v := range b.Vaccinations {
		seen[v.AnimalID] = true
	}
	out := make([]int64, 0, len(seen))
	for id := range seen {
		out = append(out, id)
	}
	return out
}

// batchOwners lists the batch's owners: their animals' rows show them.
func batchOwners(b *service.Batch) []int64 {
	out := make([]int64, 0, len(b.Owners))
	for _, o := range b.Owners {
		out = append(out, o.ID)
	}
	return out
}

// importBatch inserts the batch's rows in tx.
func (db *DB) importBatch(ctx context.Context, tx pgx.Tx, now time.Time, b *service.Batch, analyzed map[string]bool) error {
	{
		if err := bulkInsert(ctx, tx, analyzed, "owners", columns.Owner, insertOwnerSQL, b.Owners, func(o *service.Owner) (*int64, []any) {
			stampNew(&o.CreatedAt, now)
			stampNew(&o.UpdatedAt, now)
			return &o.ID, ownerArgs(o)
		}, "Owner"); err != nil {
			return err
		}
		if err := bulkInsert(ctx, tx, analyzed, "animals", columns.Animal, insertAnimalSQL, b.Animals, func(a *service.Animal) (*int64, []any) {
			stampNew(&a.CreatedAt, now)
			stampNew(&a.UpdatedAt, now)
			return &a.ID, animalArgs(a)
		}, "Animal"); err != nil {
			return err
		}
		if err := bulkInsert(ctx, tx, analyzed, "chips", columns.Chip, insertChipSQL, b.Chips, func(c *service.Chip) (*int64, []any) {
			stampNew(&c.CreatedAt, now)
			return &c.ID, chipArgs(c)
		}, "Chip"); err != nil {
			return err
		}
		// Licences with a tag number first, then the counters raised
		// past them, then the ones to number.
		var numbered, unnumbered []*service.Licence
		for _, l := range b.Licences {
			if l.TagNumber != 0 {
				numbered = append(numbered, l)
			} else {
				unnumbered = append(unnumbered, l)
			}
		}
		if err := bulkInsert(ctx, tx, analyzed, "licences", columns.Licence, insertLicenceSQL, numbered, func(l *service.Licence) (*int64, []any) {
			stampNew(&l.CreatedAt, now)
			return &l.ID, licenceArgs(l)
		}, "Licence or tag number"); err != nil {
			return err
		}
		if len(numbered) > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO tag_counters (jurisdiction, year, last)
				SELECT jurisdiction, year, MAX(tag_number) FROM licences GROUP BY jurisdiction, year
				ON CONFLICT (jurisdiction, year) DO UPDATE SET last = GREATEST(tag_counters.last, excluded.last)`); err != nil {
				return mapErr(err, "Tag number")
			}
		}
		for _, l := range unnumbered {
			if err := insertLicence(ctx, tx, l, now); err != nil {
				return err
			}
		}
		return bulkInsert(ctx, tx, analyzed, "vaccinations", columns.Vaccination, insertVaccinationSQL, b.Vaccinations,
			func(v *service.RabiesVaccination) (*int64, []any) {
				stampNew(&v.CreatedAt, now)
				return &v.ID, vaccinationArgs(v)
			}, "Vaccination")
	}
}

// analyzeAfter is the batch size from which Import refreshes the
// planner's statistics.
const analyzeAfter = 10000

func stampNew(t *time.Time, now time.Time) {
	if t.IsZero() {
		*t = now
	} else {
		*t = t.UTC().Truncate(time.Microsecond)
	}
}

// bulkInsert stores rows: those with an id by COPY, the others by
// insert (query, an insertSQL statement) to learn their id. row returns
// a row's id field and its other column values in the order of cols.
func bulkInsert[T any](ctx context.Context, tx pgx.Tx, analyzed map[string]bool, table, cols, query string, rows []T, row func(T) (*int64, []any), what string) error {
	var copyRows [][]any
	var rest []T
	for _, r := range rows {
		id, args := row(r)
		if *id == 0 {
			rest = append(rest, r)
			continue
		}
		copyRows = append(copyRows, append([]any{*id}, args...))
	}
	if len(copyRows) > 0 {
		restore, err := deferTableChecks(ctx, tx, analyzed, table, len(copyRows))
		if err != nil {
			return mapErr(err, what)
		}
		names := strings.Split(cols, ",")
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, names, pgx.CopyFromRows(copyRows)); err != nil {
			return mapErr(err, what)
		}
		if err := bumpSeq(ctx, tx, table); err != nil {
			return mapErr(err, what)
		}
		if err := restore(); err != nil {
			return mapErr(err, what)
		}
	}
	for _, r := range rest {
		id, args := row(r)
		if err := insertRow(ctx, tx, table, id, what, query, args...); err != nil {
			return err
		}
	}
	return nil
}

// EachOwner implements service.BulkService.
func (db *DB) EachOwner(ctx context.Context, fn func(*service.Owner) error) error {
	return each(ctx, db.pool, scanOwner, fn, "Owner", `SELECT `+columns.Owner+` FROM owners ORDER BY id`)
}

// EachAnimal implements service.BulkService.
func (db *DB) EachAnimal(ctx context.Context, fn func(*service.Animal) error) error {
	return each(ctx, db.pool, scanAnimal, fn, "Animal", `SELECT `+columns.Animal+` FROM animals ORDER BY id`)
}

// EachChip implements service.BulkService.
func (db *DB) EachChip(ctx context.Context, fn func(*service.Chip) error) error {
	return each(ctx, db.pool, scanChip, fn, "Chip", `SELECT `+columns.Chip+` FROM chips ORDER BY id`)
}

// EachLicence implements service.BulkService.
func (db *DB) EachLicence(ctx context.Context, fn func(*service.Licence) error) error {
	return each(ctx, db.pool, scanLicence, fn, "Licence", `SELECT `+columns.Licence+` FROM licences ORDER BY id`)
}

// EachVaccination implements service.BulkService.
func (db *DB) EachVaccination(ctx context.Context, fn func(*service.RabiesVaccination) error) error {
	return each(ctx, db.pool, scanVaccination, fn, "Vaccination", `SELECT `+columns.Vaccination+` FROM vaccinations ORDER BY id`)
}

// MissingIDs returns those of ids that are not in table (owners,
// animals or licences), in the order given: one statement per 100,000
// ids, so that an import's references (a million licences to a million
// animals) are checked without a round trip a row.
func (db *DB) MissingIDs(ctx context.Context, table string, ids []int64) ([]int64, error) {
	if err := columns.CheckIDTable(table); err != nil {
		return nil, err
	}
	var missing []int64
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 100000)]
		ids = ids[len(chunk):]
		got, err := collect(ctx, db.pool, func(r rowScanner, _ ...any) (int64, error) {
			var id int64
			return id, r.Scan(&id)
		}, `SELECT u.id FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, n)
			WHERE NOT EXISTS (SELECT 1 FROM `+pgx.Identifier{table}.Sanitize()+` t WHERE t.id = u.id) ORDER BY u.n`, chunk)
		if err != nil {
			return nil, mapErr(err, "Id")
		}
		missing = append(missing, got...)
	}
	return missing, nil
}

// deferChecksBelow is the most rows a table may hold for a load of at
// least as many rows (deferTableChecks) to drop its plain indexes and
// foreign keys and make them again after the COPY. Building an index
// sorts once, and adding a foreign key checks every row in one join,
// where the COPY would insert each row into each index at a scattered
// place and check each reference by a query of its own (100,000
// licences: 1.9 s and 0.7 s to build, against 4.5 s). Dropping them
// locks the table until the import commits, so that lookups wait for
// it: acceptable for a table this small, the first load of a county's
// records, not for a live one.
const deferChecksBelow = 100_000

// deferTableChecks drops, when table holds fewer than deferChecksBelow
// rows and a load of n rows is coming, its indexes that back no
// constraint and its foreign keys; restore makes them again, in the
// same transaction (a reference the load broke fails restore, and the
// import with it), after analyzing the table (added to analyzed).
// Unique indexes and constraints stay: they refuse a duplicate row by
// row.
func deferTableChecks(ctx context.Context, tx pgx.Tx, analyzed map[string]bool, table string, n int) (restore func() error, err error) {
	none := func() error { return nil }
	if n < deferChecksBelow/10 {
		return none, nil
	}
	var have int64
	ident := pgx.Identifier{table}.Sanitize()
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+ident+` LIMIT $1) x`, deferChecksBelow).Scan(&have); err != nil {
		return nil, err
	}
	if have >= deferChecksBelow {
		return none, nil
	}
	var drops, makes []string
	rows, err := tx.Query(ctx, `SELECT 'DROP INDEX ' || quote_ident(i.relname), pg_get_indexdef(x.indexrelid)
		FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
		WHERE x.indrelid = $1::regclass AND NOT x.indisunique AND NOT x.indisprimary
			AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
		UNION ALL
		SELECT 'ALTER TABLE ' || $2 || ' DROP CONSTRAINT ' || quote_ident(c.conname),
			'ALTER TABLE ' || $2 || ' ADD CONSTRAINT ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid)
		FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype = 'f'`, ident, ident)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var drop, make string
		if err := rows.Scan(&drop, &make); err != nil {
			rows.Close()
			return nil, err
		}
		drops, makes = append(drops, drop), append(makes, make)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, q := range drops {
		if _, err := tx.Exec(ctx, q); err != nil {
			return nil, err
		}
	}
	return func() error {
		// The checks of the new foreign keys are joins, planned on the
		// statistics of the tables just loaded (without them, on an
		// empty table's, a nested loop of sequential scans).
		if err := analyze(ctx, tx, analyzed, table); err != nil {
			return err
		}
		for _, q := range makes {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	}, nil
}
