package sqlite

import (
	"database/sql"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// scanRow scans one row of a column list into a new T, through the
// destinations package columns lists for it, then into extra.
func scanRow[T any](r rowScanner, dest func(*T, columns.Wrapper) []any, extra []any) (*T, error) {
	var v T
	if err := r.Scan(append(dest(&v, wrap{}), extra...)...); err != nil {
		return nil, err
	}
	return &v, nil
}

// wrap is columns.Wrapper for database/sql on SQLite: instants are
// stored as text (stamp), dates scan themselves, references may be NULL.
type wrap struct{}

var _ columns.Wrapper = wrap{}

func (wrap) Stamp(t *time.Time) any   { return stamp{t} }
func (wrap) Date(d *service.Date) any { return d }
func (wrap) ID(id *int64) any         { return idDst{id} }

// idDst scans a nullable reference, NULL as 0.
type idDst struct{ id *int64 }

// Scan implements sql.Scanner.
func (d idDst) Scan(src any) error {
	var n sql.NullInt64
	if err := n.Scan(src); err != nil {
		return err
	}
	*d.id = n.Int64
	return nil
}
