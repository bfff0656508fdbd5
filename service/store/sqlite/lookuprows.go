package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// Lookup rows (migration 0007) hold, per chip code, the parts of the
// animal's record that do not depend on the date: the animal and its
// owner, the latest rabies vaccination, the active dangerous designation
// and every chip of the animal, as one JSON array (the body). A chip
// lookup then reads one row of one b-tree instead of seeking into seven
// tables and indexes; at a million animals every seek reads a page the
// cache does not hold, so the seeks were most of a lookup's cost.
//
// Licences, quarantines, impoundments and bites stay live parts of the
// lookup statement: licences because an import of a million licences
// would otherwise rewrite a million rows, the others because they are
// few and their pages stay cached.
//
// Keeping them right: triggers on animals, owners, chips, vaccinations
// and designations mark the animals whose rows change (lookup_dirty),
// and every write transaction (DB.write) rebuilds the marked animals'
// rows before it commits. A reader's snapshot thus never holds a row
// older than its records. A transaction that commits without DB.write
// (a migration, another program) leaves marks: the lookup statement
// ignores the row of a marked animal and the full record statement
// answers, and the next DB.write (Open does one) rebuilds them.

// lookupShapeVersion names the body's layout beyond the column lists.
const lookupShapeVersion = "1"

// lookupShape is the body's layout: a body written for another one is
// rebuilt when the store opens.
func lookupShape() string {
	norm := func(cols string) string { return strings.Join(strings.Fields(cols), "") }
	return strings.Join([]string{lookupShapeVersion, norm(animalCols), norm(ownerCols), norm(vaccinationCols),
		norm(designationCols), norm(chipCols)}, "|")
}

// The body is [animal+owner, vaccination, designation, [chip...]]: each
// part the columns of the record statement's part, in the same order
// (null for a missing vaccination or designation); see decodeLookupBody.
func lookupBodySQL() string {
	return `json_array(json_array(` + prefixed("a", animalCols) + `, ` + prefixed("o", ownerCols) + `),
	json((SELECT json_array(` + vaccinationCols + `) FROM vaccinations WHERE animal_id = a.id ORDER BY date DESC, id DESC LIMIT 1)),
	json((SELECT json_array(` + designationCols + `) FROM designations WHERE animal_id = a.id AND rescinded_on IS NULL
		ORDER BY declared_on DESC, id DESC LIMIT 1)),
	json((SELECT json_group_array(json_array(` + chipCols + `)) FROM chips WHERE animal_id = a.id)))`
}

// lookupRebuildSQL rebuilds the rows of the marked animals and clears
// the marks, whether one animal is marked or every one (an import).
// CROSS JOIN keeps the marks the outer loop: the planner, without
// statistics, would otherwise scan every chip for one mark.
func lookupRebuildSQL() []string {
	return []string{
		`DELETE FROM lookup_rows WHERE animal_id IN (SELECT animal_id FROM lookup_dirty)`,
		`INSERT INTO lookup_rows (code, animal_id, body)
SELECT c.code, a.id, ` + lookupBodySQL() + `
FROM lookup_dirty k CROSS JOIN animals a CROSS JOIN chips c LEFT JOIN owners o ON o.id = a.owner_id
WHERE a.id = k.animal_id AND c.animal_id = a.id`,
		`DELETE FROM lookup_dirty`,
	}
}

// lookupStmts are the writer's prepared statements for the rows.
type lookupStmts struct {
	dirty   *sql.Stmt   // any mark?
	rebuild []*sql.Stmt // lookupRebuildSQL
}

func prepareLookupStmts(ctx context.Context, db *sql.DB) (*lookupStmts, error) {
	s := &lookupStmts{}
	var err error
	if s.dirty, err = db.PrepareContext(ctx, `SELECT EXISTS (SELECT 1 FROM lookup_dirty)`); err != nil {
		return nil, fmt.Errorf("sqlite: prepare: %w", err)
	}
	for _, q := range lookupRebuildSQL() {
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

// flush rebuilds the rows of the animals marked in tx, if any.
func (s *lookupStmts) flush(ctx context.Context, tx *sql.Tx) error {
	var any bool
	if err := tx.StmtContext(ctx, s.dirty).QueryRowContext(ctx).Scan(&any); err != nil {
		return fmt.Errorf("sqlite: lookup rows: %w", err)
	}
	if !any {
		return nil
	}
	for _, st := range s.rebuild {
		if _, err := tx.StmtContext(ctx, st).ExecContext(ctx); err != nil {
			return fmt.Errorf("sqlite: lookup rows: %w", err)
		}
	}
	return nil
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
// data derived from the others (the lookup rows), which a copy of the
// store leaves out: the copy's own triggers and writes rebuild it.
func DerivedTable(name string) bool {
	switch name {
	case "lookup_rows", "lookup_dirty", "lookup_shape":
		return true
	}
	return false
}

// errLookupBody reports a body that does not have the layout written.
var errLookupBody = errors.New("sqlite: malformed lookup row")

// decodeLookupBody fills r's animal, owner, rabies vaccination,
// dangerous designation and chips from a body.
func decodeLookupBody(body []byte, r *service.Record) error {
	v, err := parseBody(body)
	if err != nil {
		return err
	}
	parts, ok := v.([]any)
	if !ok || len(parts) != 4 {
		return fmt.Errorf("%w: want 4 parts", errLookupBody)
	}
	row := func(v any, n int) (cols, error) {
		a, ok := v.([]any)
		if !ok || len(a) != n {
			return nil, fmt.Errorf("%w: a part of %T, want %d columns", errLookupBody, v, n)
		}
		for _, x := range a {
			if _, nested := x.([]any); nested {
				return nil, fmt.Errorf("%w: an array for a column", errLookupBody)
			}
		}
		return cols(a), nil
	}
	na := ncols(animalCols)
	c, err := row(parts[0], na+ncols(ownerCols))
	if err != nil {
		return err
	}
	r.Animal, r.Owner = c.animal(), nil
	if c[na] != nil { // the owner's id
		o := c[na:].owner()
		r.Owner = &o
	}
	if parts[1] != nil {
		if c, err = row(parts[1], ncols(vaccinationCols)); err != nil {
			return err
		}
		v := c.vaccination()
		r.Rabies = &v
	}
	if parts[2] != nil {
		if c, err = row(parts[2], ncols(designationCols)); err != nil {
			return err
		}
		x := c.designation()
		r.Dangerous = &x
	}
	chips, ok := parts[3].([]any)
	if !ok {
		return fmt.Errorf("%w: chips of %T", errLookupBody, parts[3])
	}
	for _, ch := range chips {
		if c, err = row(ch, ncols(chipCols)); err != nil {
			return err
		}
		r.Chips = append(r.Chips, c.chip())
	}
	return nil
}
