package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// Import implements service.BulkService: the whole batch in one
// transaction.
func (db *DB) Import(ctx context.Context, b *service.Batch) error {
	return db.ImportStream(ctx, func(put func(*service.Batch) error) error { return put(b) })
}

// ImportStream stores the batches that fill puts, all in one
// transaction: nothing is stored unless fill returns nil and every
// reference holds at the end. References are checked at commit
// (defer_foreign_keys), so a batch may refer to records of a later one;
// licences without a tag number are numbered after all batches, past the
// numbers the batches carry. An importer can thus decode and store at
// the same time, without holding the whole import in memory. Into a
// small table, its plain indexes are dropped before its first row and
// built again before the commit (deferIndexes); the per-row insert
// triggers are run once over the imported rows (suspendTriggers).
func (db *DB) ImportStream(ctx context.Context, fill func(put func(*service.Batch) error) error) error {
	// A larger writer cache for the import's scattered index inserts,
	// back to the serving size afterwards (wdb is one connection).
	if _, err := db.wdb.ExecContext(ctx, fmt.Sprintf(`PRAGMA cache_size = %d`, -importCacheKiB)); err != nil {
		return mapErr(err, "Import")
	}
	defer db.wdb.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA cache_size = %d`, -writeCacheKiB))
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
			return mapErr(err, "Import")
		}
		sales, err := suspendSales(ctx, tx)
		if err != nil {
			return err
		}
		trig, err := suspendTriggers(ctx, tx)
		if err != nil {
			return err
		}
		im := &importer{ctx: ctx, tx: tx, now: now, trig: trig}
		if err := fill(im.put); err != nil {
			return err
		}
		for _, l := range im.unnumbered {
			if err := insertLicence(ctx, tx, l, now); err != nil {
				return err
			}
			im.licences = append(im.licences, l.ID)
			trig.seen("licences", l.ID)
		}
		if err := im.rebuild(); err != nil {
			return err
		}
		if err := trig.resume(ctx, tx); err != nil {
			return err
		}
		return sales.resume(ctx, tx, im.licences)
	})
	if err != nil {
		return err
	}
	// The import's pages, a gigabyte for a million animals, are copied
	// into the database file now, while nothing else runs, rather than
	// by the background checkpoints while the next import or the
	// lookups run. A reader still on an old snapshot makes the copy
	// stop short (busy): the background checkpoints finish it then. The
	// import is committed either way, so a failed copy is no error.
	db.ckdb.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return nil
}

// importer stores the batches of one ImportStream.
type importer struct {
	ctx        context.Context
	tx         *sql.Tx
	now        time.Time
	unnumbered []*service.Licence
	licences   []int64            // ids of the licences stored, for their sales (suspendSales)
	trig       *suspendedTriggers // told the ids of the rows stored
	// deferred are the CREATE INDEX statements of the indexes dropped
	// for the import, to run before it commits; checked tells the
	// tables already looked at.
	deferred []string
	checked  map[string]bool
}

// deferIndexesBelow is the most rows a table may hold for an import to
// drop its plain (not UNIQUE) indexes and build them again at the end,
// in the same transaction. Building an index from scratch sorts once;
// keeping it up to date inserts every row at a scattered place. Above
// this size, rebuilding what is there would cost more than a small
// import saves.
const deferIndexesBelow = 100_000

// deferIndexes drops the plain indexes of table, when it is small
// enough, and remembers them for rebuild. UNIQUE indexes stay: they
// reject duplicates row by row. Readers keep the schema of their
// snapshot; the rebuilt indexes are committed with the rows, or the
// rollback restores the old ones.
func (im *importer) deferIndexes(table string) error {
	if im.checked == nil {
		im.checked = map[string]bool{}
	}
	if im.checked[table] {
		return nil
	}
	im.checked[table] = true
	var n int64
	if err := im.tx.QueryRowContext(im.ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+table+` LIMIT ?)`, deferIndexesBelow).Scan(&n); err != nil {
		return mapErr(err, "Import")
	}
	if n >= deferIndexesBelow {
		return nil
	}
	rows, err := im.tx.QueryContext(im.ctx, `SELECT name, sql FROM sqlite_schema
		WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'`, table)
	if err != nil {
		return mapErr(err, "Import")
	}
	var names, defs []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			rows.Close()
			return mapErr(err, "Import")
		}
		names, defs = append(names, name), append(defs, def)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapErr(err, "Import")
	}
	for i, name := range names {
		if _, err := im.tx.ExecContext(im.ctx, `DROP INDEX "`+strings.ReplaceAll(name, `"`, `""`)+`"`); err != nil {
			return mapErr(err, "Import")
		}
		im.deferred = append(im.deferred, defs[i])
	}
	return nil
}

// rebuild creates the indexes deferIndexes dropped.
func (im *importer) rebuild() error {
	for _, def := range im.deferred {
		if _, err := im.tx.ExecContext(im.ctx, def); err != nil {
			return mapErr(err, "Import")
		}
	}
	im.deferred = nil
	return nil
}

func (im *importer) put(b *service.Batch) error {
	if err := b.Prepare(); err != nil {
		return err
	}
	ctx, tx, now := im.ctx, im.tx, im.now
	if err := importRows(im, "owners", b.Owners, `INSERT INTO owners (`+columns.Owner+`) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		func(o *service.Owner) []any {
			stampNew(&o.CreatedAt, now)
			stampNew(&o.UpdatedAt, now)
			return []any{nullID(o.ID), o.Name, o.Address, o.City, o.State, o.Postcode, o.Phone, o.Email,
				formatStamp(o.CreatedAt), formatStamp(o.UpdatedAt)}
		}, func(o *service.Owner) *int64 { return &o.ID }, "Owner"); err != nil {
		return err
	}
	if err := importRows(im, "animals", b.Animals, insertAnimalSQL, func(a *service.Animal) []any {
		stampNew(&a.CreatedAt, now)
		stampNew(&a.UpdatedAt, now)
		return animalArgs(a)
	}, func(a *service.Animal) *int64 { return &a.ID }, "Animal"); err != nil {
		return err
	}
	if err := importRows(im, "chips", b.Chips, insertChipSQL, func(c *service.Chip) []any {
		stampNew(&c.CreatedAt, now)
		return chipArgs(c)
	}, func(c *service.Chip) *int64 { return &c.ID }, "Chip"); err != nil {
		return err
	}
	// Licences with a tag number now, raising the counters past them;
	// the ones to number at the end.
	type key struct {
		jur  string
		year int
	}
	var numbered []*service.Licence
	top := map[key]int{}
	for _, l := range b.Licences {
		if l.TagNumber == 0 {
			im.unnumbered = append(im.unnumbered, l)
			continue
		}
		numbered = append(numbered, l)
		if k := (key{l.Jurisdiction, l.Year}); l.TagNumber > top[k] {
			top[k] = l.TagNumber
		}
	}
	if err := importRows(im, "licences", numbered, insertLicenceSQL, func(l *service.Licence) []any {
		stampNew(&l.CreatedAt, now)
		return licenceArgs(l)
	}, func(l *service.Licence) *int64 { return &l.ID }, "Licence or tag number"); err != nil {
		return err
	}
	for _, l := range numbered {
		im.licences = append(im.licences, l.ID)
	}
	for k, n := range top {
		if _, err := tx.ExecContext(ctx, raiseTagSQL, k.jur, k.year, n); err != nil {
			return mapErr(err, "Tag number")
		}
	}
	return importRows(im, "vaccinations", b.Vaccinations, insertVaccinationSQL, func(v *service.RabiesVaccination) []any {
		stampNew(&v.CreatedAt, now)
		return vaccinationArgs(v)
	}, func(v *service.RabiesVaccination) *int64 { return &v.ID }, "Vaccination")
}

// importRows stores rows of table (bulkInsert), its plain indexes
// dropped first when it is small (deferIndexes), and tells the
// suspended triggers their ids.
func importRows[T any](im *importer, table string, rows []T, query string, args func(T) []any, id func(T) *int64, what string) error {
	if len(rows) == 0 {
		return nil
	}
	if err := im.deferIndexes(table); err != nil {
		return err
	}
	if err := bulkInsert(im.ctx, im.tx, rows, query, args, id, what); err != nil {
		return err
	}
	for _, r := range rows {
		im.trig.seen(table, *id(r))
	}
	return nil
}

func stampNew(t *time.Time, now time.Time) {
	if t.IsZero() {
		*t = now
	}
}

// bulkRows is how many rows one multi-row INSERT of an import carries.
const bulkRows = 64

// bulkInsert inserts rows: those with an id in multi-row INSERTs of
// bulkRows rows through one prepared statement, those without one at a
// time to get their id back. query is a one-row INSERT ... VALUES (...),
// with or without RETURNING id.
func bulkInsert[T any](ctx context.Context, tx *sql.Tx, rows []T, query string, args func(T) []any, id func(T) *int64, what string) error {
	if len(rows) == 0 {
		return nil
	}
	query = strings.TrimSuffix(query, " RETURNING id")
	k := strings.LastIndex(query, " VALUES ")
	head, tuple := query[:k+len(" VALUES ")], query[k+len(" VALUES "):]
	multi := func(n int) string {
		return head + strings.TrimSuffix(strings.Repeat(tuple+",", n), ",")
	}
	full, err := tx.PrepareContext(ctx, multi(bulkRows))
	if err != nil {
		return mapErr(err, what)
	}
	defer full.Close()
	var returning *sql.Stmt
	batch := make([]any, 0, bulkRows*(strings.Count(tuple, "?")))
	n := 0
	for _, r := range rows {
		p := id(r)
		if *p != 0 {
			batch = append(batch, args(r)...)
			if n++; n == bulkRows {
				if _, err := full.ExecContext(ctx, batch...); err != nil {
					return mapErr(err, what)
				}
				batch, n = batch[:0], 0
			}
			continue
		}
		if returning == nil {
			if returning, err = tx.PrepareContext(ctx, query+" RETURNING id"); err != nil {
				return mapErr(err, what)
			}
			defer returning.Close()
		}
		if err := returning.QueryRowContext(ctx, args(r)...).Scan(p); err != nil {
			return mapErr(err, what)
		}
	}
	if n > 0 {
		if _, err := tx.ExecContext(ctx, multi(n), batch...); err != nil {
			return mapErr(err, what)
		}
	}
	return nil
}

// EachOwner implements service.BulkService.
func (db *DB) EachOwner(ctx context.Context, fn func(*service.Owner) error) error {
	return each(ctx, db.rdb, scanOwner, fn, "Owner", `SELECT `+columns.Owner+` FROM owners ORDER BY id`)
}

// EachAnimal implements service.BulkService.
func (db *DB) EachAnimal(ctx context.Context, fn func(*service.Animal) error) error {
	return each(ctx, db.rdb, scanAnimal, fn, "Animal", `SELECT `+columns.Animal+` FROM animals ORDER BY id`)
}

// EachChip implements service.BulkService.
func (db *DB) EachChip(ctx context.Context, fn func(*service.Chip) error) error {
	return each(ctx, db.rdb, scanChip, fn, "Chip", `SELECT `+columns.Chip+` FROM chips ORDER BY id`)
}

// EachLicence implements service.BulkService.
func (db *DB) EachLicence(ctx context.Context, fn func(*service.Licence) error) error {
	return each(ctx, db.rdb, scanLicence, fn, "Licence", `SELECT `+columns.Licence+` FROM licences ORDER BY id`)
}

// EachVaccination implements service.BulkService.
func (db *DB) EachVaccination(ctx context.Context, fn func(*service.RabiesVaccination) error) error {
	return each(ctx, db.rdb, scanVaccination, fn, "Vaccination", `SELECT `+columns.Vaccination+` FROM vaccinations ORDER BY id`)
}

// MissingIDs returns those of ids that are not in table (owners,
// animals or licences), in the order given: one statement per 50,000
// ids, for checking an import's references without a query per row.
func (db *DB) MissingIDs(ctx context.Context, table string, ids []int64) ([]int64, error) {
	if err := columns.CheckIDTable(table); err != nil {
		return nil, err
	}
	var missing []int64
	err := idLists(ids, func(list string) error {
		got, err := collect(ctx, db.rdb, func(r rowScanner, _ ...any) (int64, error) {
			var id int64
			return id, r.Scan(&id)
		}, `SELECT j.value FROM json_each(?) j WHERE NOT EXISTS (SELECT 1 FROM `+table+` t WHERE t.id = j.value) ORDER BY j.key`, list)
		if err != nil {
			return mapErr(err, "Id")
		}
		missing = append(missing, got...)
		return nil
	})
	return missing, err
}

// idLists calls fn with ids as JSON arrays of at most 50,000 ids each,
// in order, for json_each: one statement a list rather than a row.
func idLists(ids []int64, fn func(list string) error) error {
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 50000)]
		ids = ids[len(chunk):]
		if err := fn(idList(chunk)); err != nil {
			return err
		}
	}
	return nil
}

// idList is ids as one JSON array.
func idList(ids []int64) string {
	buf := make([]byte, 0, 2+8*len(ids))
	buf = append(buf, '[')
	for i, id := range ids {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, id, 10)
	}
	return string(append(buf, ']'))
}

// salesTrigger is the trigger of migration 0041 that counts each
// licence sold into licence_sales.
const salesTrigger = "licences_sales_insert"

// suspendedSales is the sales trigger an import dropped (suspendSales);
// nil when the schema has none.
type suspendedSales struct{ def string }

// suspendSales drops, inside an import's transaction, the trigger that
// counts every licence inserted into licence_sales: a million upserts
// of a few thousand rows, with a search of the animal for each. resume
// counts the import's licences in a statement per 50,000 and creates
// the trigger again; a rollback restores it.
func suspendSales(ctx context.Context, tx *sql.Tx) (*suspendedSales, error) {
	var def string
	err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = ?`, salesTrigger).Scan(&def)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, mapErr(err, "Import")
	}
	if _, err := tx.ExecContext(ctx, `DROP TRIGGER `+salesTrigger); err != nil {
		return nil, mapErr(err, "Import")
	}
	return &suspendedSales{def: def}, nil
}

// resume counts the sales of the licences whose ids are given, added to
// the counts there, as the trigger would have one by one, and creates
// the trigger again.
func (s *suspendedSales) resume(ctx context.Context, tx *sql.Tx, ids []int64) error {
	if s == nil {
		return nil
	}
	err := idLists(ids, func(list string) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO licence_sales (day, jurisdiction, species, fee_code, count, cents)
			SELECT l.issued_on, l.jurisdiction, a.species, l.fee_code, COUNT(*), SUM(l.fee_cents)
			FROM json_each(?) j CROSS JOIN licences l ON l.id = j.value JOIN animals a ON a.id = l.animal_id
			WHERE true GROUP BY 1, 2, 3, 4
			ON CONFLICT (day, jurisdiction, species, fee_code) DO UPDATE SET count = count + excluded.count, cents = cents + excluded.cents`,
			list)
		return err
	})
	if err != nil {
		return mapErr(err, "Import")
	}
	if _, err := tx.ExecContext(ctx, s.def); err != nil {
		return mapErr(err, "Import")
	}
	return nil
}
