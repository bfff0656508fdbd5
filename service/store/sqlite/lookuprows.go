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
)

// Lookup rows (migration 0007) hold, per chip code, every part of the
// animal's record but its licences (recordParts with inRow): the animal
// and its owner, chips, latest rabies vaccination, active dangerous
// designation, open quarantines, impoundments, bites, permits and open
// adoption agreements (migration 0160), as one JSON
// array of the record statement's rows (the body), its instants and
// dates as integers (rowCols). A chip lookup then
// reads one row of one b-tree and the licences, instead of seeking into
// nine tables and indexes; at a million animals nearly every seek reads
// a page the cache does not hold, so the seeks were most of its cost.
//
// Licences stay a live part of the lookup statement, because an import
// of a million licences would otherwise rewrite a million rows.
//
// Keeping them right: triggers on the tables of the parts in the row
// mark the animals whose rows change (lookup_dirty), and every write
// transaction (DB.write) rebuilds the marked animals' rows before it
// commits. A reader's snapshot thus never holds a row older than its
// records. A transaction that commits without DB.write (a migration,
// another program) leaves marks: the lookup statement ignores the row of
// a marked animal and the full record statement answers, and the next
// DB.write (Open does one) rebuilds them. An import suspends the insert
// triggers and marks its rows' animals in one statement a table
// (suspendTriggers).

// lookupShapeVersion names the body's layout beyond recordParts.
const lookupShapeVersion = "6"

// lookupShape is the body's layout: a body written for another one is
// rebuilt when the store opens.
func lookupShape() string {
	parts := []string{lookupShapeVersion}
	for _, p := range recordParts {
		if p.inRow {
			parts = append(parts, p.kind+":"+strings.Join(strings.Fields(p.cols+" FROM "+p.from), " "))
		}
	}
	return strings.Join(parts, "|")
}

// lookupKey is the rowid of the lookup row of the chip whose code is
// code, when code is an ISO 11784 number in its fifteen-digit decimal
// form (country or manufacturer code, then national number): the
// number. The rows of other codes (AVID, FDX-A, Trovan) have their
// chip's id, negated (lookupKeySQL); the lookup finds that through the
// chips' code index. Fifteen digits read as an integer are never
// negative and name one code each. It is a storage key, not chipid's
// parse (which also checks the country and national number's ranges):
// it must agree with lookupKeySQL on every text, a valid chip or not.
func lookupKey(code string) (int64, bool) {
	if len(code) != 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(code); i++ {
		c := code[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// lookupKeySQL is lookupKey in SQL, for the chip whose alias is chip.
func lookupKeySQL(chip string) string {
	return "CASE WHEN " + keyedSQL(chip) + " THEN CAST(" + chip + ".code AS INTEGER) ELSE -" + chip + ".id END"
}

// lookupCodeSQL is the code a lookup row keeps for the chip whose alias
// is chip: NULL when its key is its code's digits (lookupKey), which
// give the code back; else the code (migration 0150).
func lookupCodeSQL(chip string) string {
	return "CASE WHEN " + keyedSQL(chip) + " THEN NULL ELSE " + chip + ".code END"
}

// keyedSQL holds for the chip whose alias is chip when lookupKey gives
// its key.
func keyedSQL(chip string) string {
	return "length(" + chip + ".code) = 15 AND " + chip + ".code NOT GLOB '*[^0-9]*'"
}

// lookupRowChip is the rebuild's alias for the chip whose row is built.
const lookupRowChip = "lookup_row_chip"

// lookupBodySQL is the body for the animal of chip lookupRowChip,
// leaving out the parts whose kind skip names (nil: none).
func lookupBodySQL(skip map[string]bool) string {
	return partsJSON(true, lookupRowChip+".animal_id", skip)
}

// partsJSON is the parts of recordParts in a lookup row (inRow), or the
// others, for the animal whose id is animal (an expression), as one JSON
// array of the rows they return, each [kind, column...]. The parts
// whose kind skip names are left out: a caller skips those of empty
// tables, which return no rows.
func partsJSON(inRow bool, animal string, skip map[string]bool) string {
	var b strings.Builder
	for _, p := range recordParts {
		if p.inRow != inRow || skip[p.kind] {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\tUNION ALL ")
		}
		c := p.cols
		if inRow {
			c = rowCols(c)
		}
		b.WriteString("SELECT json_array('" + p.kind + "', " + c + ") AS part FROM " +
			strings.ReplaceAll(p.from, "?2", animal))
	}
	// The parts are joined as text: json_group_array(json(part)) would
	// parse every part again to learn that it is JSON.
	return "(SELECT '[' || COALESCE(group_concat(part, ','), '') || ']' FROM (" + b.String() + "))"
}

// rowCols is a part's column list as a lookup row keeps it: an instant
// (a column named *_at) as its nanoseconds since 1970 (an integer of 19
// digits, not 32 characters of quoted text; ts reads both), when it has
// stampLayout's form and a year whose nanoseconds fit an int64; a date
// (dateColumn) as its service.Date number, six digits, not twelve
// characters, when it is a calendar date in YYYY-MM-DD form from year 1
// (date reads both); any other text is kept as it is. The common row,
// some 510 bytes, was a few bytes too long for eight to fit a page.
func rowCols(list string) string {
	fields := strings.Split(list, ",")
	for i, f := range fields {
		f = strings.TrimSpace(f)
		if dateColumn(f) {
			// date() gives YYYY-MM-DD of the day it reads: it gives the
			// text back only when that is a calendar day in that form.
			f = "CASE WHEN date(" + f + ") = " + f + " AND " + f + " >= '0001' THEN unixepoch(" + f + ") / 86400 + " +
				strconv.Itoa(dateOfUnixEpoch) + " ELSE " + f + " END"
		}
		if strings.HasSuffix(f, "_at") {
			f = "CASE WHEN length(" + f + ") = 30 AND substr(" + f + ", 20, 1) = '.' AND substr(" + f +
				", 1, 4) BETWEEN '1678' AND '2261' THEN COALESCE(unixepoch(substr(" + f + ", 1, 19)) * 1000000000 + CAST(substr(" +
				f + ", 21, 9) AS INTEGER), " + f + ") ELSE " + f + " END"
		}
		fields[i] = f
	}
	return strings.Join(fields, ", ")
}

// dateColumn reports the columns of the lookup rows' parts that hold a
// date (service.Date): date, *_date, *_on, *_expires and hold_until.
// TestRowDateColumns checks that the record's decoders read each one as
// a date.
func dateColumn(name string) bool {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name == "date" || name == "hold_until" || strings.HasSuffix(name, "_date") ||
		strings.HasSuffix(name, "_on") || strings.HasSuffix(name, "_expires")
}

// dateOfUnixEpoch is the service.Date number of 1970-01-01.
const dateOfUnixEpoch = 719163

// lookupRebuildSQL rebuilds the rows of the marked animals and clears
// the marks, whether one animal is marked or every one (an import),
// leaving out of the bodies the parts whose kind skip names (nil: none).
// CROSS JOIN keeps the marks the outer loop: the planner, without
// statistics, would otherwise scan every chip for one mark. In code
// order (ordered), the chips are read through their code index instead
// (+ keeps the planner off the animal index), so that the rows of ISO
// codes, whose keys are their codes' digits, are inserted in key order:
// each row goes at the end of the table's b-tree, whose pages are then
// left full, where rows in animal order, at scattered keys, split pages
// and left a tenth of the table empty. That reads every chip's index
// entry, so it is for a rebuild of most of them (flush).
func lookupRebuildSQL(skip map[string]bool, ordered bool) []string {
	from := `FROM lookup_dirty k CROSS JOIN chips ` + lookupRowChip + ` WHERE ` + lookupRowChip + `.animal_id = k.animal_id`
	if ordered {
		from = `FROM chips ` + lookupRowChip + ` WHERE +` + lookupRowChip + `.animal_id IN (SELECT animal_id FROM lookup_dirty) ORDER BY ` +
			lookupRowChip + `.code`
	}
	return []string{
		`DELETE FROM lookup_rows WHERE animal_id IN (SELECT animal_id FROM lookup_dirty)`,
		`INSERT INTO lookup_rows (id, code, animal_id, body)
SELECT ` + lookupKeySQL(lookupRowChip) + `, ` + lookupCodeSQL(lookupRowChip) + `, ` + lookupRowChip + `.animal_id, ` + lookupBodySQL(skip) + `
` + from,
		`DELETE FROM lookup_dirty`,
	}
}

// lookupStmts are the writer's prepared statements for the rows.
type lookupStmts struct {
	dirty   *sql.Stmt   // how many marks, up to a limit?
	rebuild []*sql.Stmt // lookupRebuildSQL
}

func prepareLookupStmts(ctx context.Context, db *sql.DB) (*lookupStmts, error) {
	s := &lookupStmts{}
	var err error
	if s.dirty, err = db.PrepareContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM lookup_dirty LIMIT ?)`); err != nil {
		return nil, fmt.Errorf("sqlite: prepare: %w", err)
	}
	for _, q := range lookupRebuildSQL(nil, false) {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("sqlite: prepare: %w", err)
		}
		s.rebuild = append(s.rebuild, st)
	}
	return s, nil
}

func (s *lookupStmts) close() error {
	var errs []error
	for _, st := range append([]*sql.Stmt{s.dirty}, s.rebuild...) {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// manyMarks is the number of marked animals from which a rebuild leaves
// the parts of empty tables out of its statement (emptyParts): an
// import's, or a new layout's, of every animal. Into an empty store, the
// designations, quarantines, impoundments and bites are empty, and their
// four searches were a third of the rebuild's time. A write of a few
// animals keeps the prepared statement.
const manyMarks = 1000

// flush rebuilds the rows of the animals marked in tx, if any.
func (s *lookupStmts) flush(ctx context.Context, tx *sql.Tx) error {
	var marked int
	if err := tx.StmtContext(ctx, s.dirty).QueryRowContext(ctx, manyMarks).Scan(&marked); err != nil {
		return fmt.Errorf("sqlite: lookup rows: %w", err)
	}
	if marked == 0 {
		return nil
	}
	if marked >= manyMarks {
		skip, err := emptyParts(ctx, tx)
		if err != nil {
			return err
		}
		// In code order when at least half the chips are to be rebuilt.
		var ordered bool
		if err := tx.QueryRowContext(ctx, `SELECT 2 * (SELECT COUNT(*) FROM lookup_dirty) >= COALESCE((SELECT MAX(id) FROM chips), 0)`).
			Scan(&ordered); err != nil {
			return fmt.Errorf("sqlite: lookup rows: %w", err)
		}
		for _, q := range lookupRebuildSQL(skip, ordered) {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("sqlite: lookup rows: %w", err)
			}
		}
		return nil
	}
	for _, st := range s.rebuild {
		if _, err := tx.StmtContext(ctx, st).ExecContext(ctx); err != nil {
			return fmt.Errorf("sqlite: lookup rows: %w", err)
		}
	}
	return nil
}

// emptyParts names the kinds of the lookup rows' parts whose table holds
// no row in tx: they add nothing to any body.
func emptyParts(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	skip := map[string]bool{}
	for _, p := range recordParts {
		if !p.inRow {
			continue
		}
		var has bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM `+partTable(p.from)+`)`).Scan(&has); err != nil {
			return nil, fmt.Errorf("sqlite: lookup rows: %w", err)
		}
		if !has {
			skip[p.kind] = true
		}
	}
	return skip, nil
}

// partTable is the table a part's source (recordParts' from) reads
// first: "animals" of "animals a LEFT JOIN owners ...", "vaccinations"
// of "(SELECT * FROM vaccinations WHERE ...)".
func partTable(from string) string {
	f := strings.Fields(from)
	if strings.HasPrefix(from, "(") {
		for i, w := range f {
			if strings.EqualFold(w, "FROM") && i+1 < len(f) {
				return f[i+1]
			}
		}
	}
	return f[0]
}

// syncLookupShape marks every animal for rebuild when the stored rows
// were written for another layout; the write's flush then rebuilds them
// (and any animal a migration marked).
func (db *DB) syncLookupShape(ctx context.Context) error {
	return db.write(ctx, func(tx *sql.Tx, _ time.Time) error {
		var shape string
		err := tx.QueryRowContext(ctx, `SELECT shape FROM lookup_shape`).Scan(&shape)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlite: lookup rows: %w", err)
		}
		if shape == lookupShape() {
			return nil
		}
		for _, q := range []string{
			`DELETE FROM lookup_rows`,
			`INSERT OR IGNORE INTO lookup_dirty SELECT DISTINCT animal_id FROM chips`,
			`DELETE FROM lookup_shape`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("sqlite: lookup rows: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO lookup_shape (shape) VALUES (?)`, lookupShape()); err != nil {
			return fmt.Errorf("sqlite: lookup rows: %w", err)
		}
		return nil
	})
}

// DerivedTable reports whether a table of the SQLite schema holds only
// data derived from the others (the lookup rows, licence_sales), or is a
// view of them (charge_totals), which a copy of the
// store leaves out: the copy's own triggers and writes rebuild it.
func DerivedTable(name string) bool {
	switch name {
	case "lookup_rows", "lookup_dirty", "lookup_shape":
		return true
	case "licence_sales", "charge_totals":
		// Kept by triggers as licences are written; a view.
		return true
	}
	// The search indexes (0110_search.sql) and their FTS5 shadow tables.
	return strings.HasPrefix(name, "search_")
}

// errLookupBody reports a body that does not have the layout written.
var errLookupBody = errors.New("sqlite: malformed lookup row")

// addParts adds the rows of a body (partsJSON) to r, as runRecord adds
// the record statement's rows, and reports whether it held the animal;
// row is parseBody's scratch, recordWidth wide.
func (db *DB) addParts(body string, row cols, r *service.Record) (bool, error) {
	found := false
	err := parseBody(body, row, func(c cols) error {
		if len(c) == 0 {
			return fmt.Errorf("%w: an empty row", errLookupBody)
		}
		kind := str(c[0])
		if want, ok := db.rec.partCols[kind]; !ok || want != len(c)-1 {
			return fmt.Errorf("%w: a row of kind %q with %d columns", errLookupBody, kind, len(c)-1)
		}
		found = db.addPart(r, kind, c[1:]) || found
		return nil
	})
	return found, err
}
