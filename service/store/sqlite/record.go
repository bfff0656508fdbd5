package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/service"
)

// recordStmts are the prepared statements of the lookup path. Every
// statement is an index lookup: chips(code), licences(jurisdiction, year,
// tag_number), and the (animal_id, ...) indexes of the other tables.
type recordStmts struct {
	chip, tag, animal, chips, licences, rabies, danger, quarantines, impounds, bites *sql.Stmt
}

func prepareRecordStmts(ctx context.Context, db *sql.DB) (*recordStmts, error) {
	var s recordStmts
	for _, p := range []struct {
		dst   **sql.Stmt
		query string
	}{
		{&s.chip, `SELECT ` + chipCols + ` FROM chips WHERE code = ?`},
		{&s.tag, `SELECT ` + licenceCols + ` FROM licences WHERE jurisdiction = ? AND year = ? AND tag_number = ?`},
		{&s.animal, `SELECT ` + prefixed("a", animalCols) + `, o.id, ` + prefixed("o", ownerCols[len("id, "):]) +
			` FROM animals a LEFT JOIN owners o ON o.id = a.owner_id WHERE a.id = ?`},
		{&s.chips, `SELECT ` + chipCols + ` FROM chips WHERE animal_id = ? ORDER BY id`},
		{&s.licences, `SELECT ` + licenceCols + ` FROM licences WHERE animal_id = ? AND expires_on >= ? ORDER BY issued_on DESC, id DESC`},
		{&s.rabies, `SELECT ` + vaccinationCols + ` FROM vaccinations WHERE animal_id = ? ORDER BY date DESC, id DESC LIMIT 1`},
		{&s.danger, `SELECT ` + designationCols + ` FROM designations WHERE animal_id = ? AND rescinded_on IS NULL ORDER BY declared_on DESC, id DESC LIMIT 1`},
		{&s.quarantines, `SELECT ` + quarantineCols + ` FROM quarantines WHERE animal_id = ? AND released_on IS NULL ORDER BY start_on DESC, id DESC`},
		{&s.impounds, `SELECT ` + impoundCols + ` FROM impoundments WHERE animal_id = ? AND (intake_on >= ? OR disposition = '') ORDER BY intake_on DESC, id DESC`},
		{&s.bites, `SELECT ` + biteCols + ` FROM bites WHERE animal_id = ? AND date >= ? ORDER BY date DESC, id DESC`},
	} {
		st, err := db.PrepareContext(ctx, p.query)
		if err != nil {
			s.close()
			return nil, fmt.Errorf("sqlite: prepare: %w", err)
		}
		*p.dst = st
	}
	return &s, nil
}

func (s *recordStmts) close() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.chip, s.tag, s.animal, s.chips, s.licences, s.rabies, s.danger, s.quarantines, s.impounds, s.bites} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// prefixed qualifies each column of a column list with alias.
func prefixed(alias, cols string) string {
	out := make([]byte, 0, len(cols)*2)
	start := true
	for i := 0; i < len(cols); i++ {
		c := cols[i]
		if start && c != ' ' && c != '\t' && c != '\n' {
			out = append(out, alias...)
			out = append(out, '.')
			start = false
		}
		out = append(out, c)
		if c == ',' {
			start = true
		}
	}
	return string(out)
}

// FindRecordByChip implements service.RecordService.
func (db *DB) FindRecordByChip(ctx context.Context, code string) (*service.Record, error) {
	tx, err := db.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	c, err := scanChip(tx.StmtContext(ctx, db.rec.chip).QueryRowContext(ctx, code))
	if err != nil {
		return nil, notFound(err, "Chip")
	}
	r, err := db.loadRecord(ctx, tx, c.AnimalID)
	if err != nil {
		return nil, err
	}
	r.MatchedChip = c
	return r, nil
}

// FindRecordByTag implements service.RecordService.
func (db *DB) FindRecordByTag(ctx context.Context, jurisdiction string, year, tag int) (*service.Record, error) {
	tx, err := db.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	l, err := scanLicence(tx.StmtContext(ctx, db.rec.tag).QueryRowContext(ctx, jurisdiction, year, tag))
	if err != nil {
		return nil, notFound(err, "Tag")
	}
	r, err := db.loadRecord(ctx, tx, l.AnimalID)
	if err != nil {
		return nil, err
	}
	r.MatchedLicence = l
	return r, nil
}

// FindRecordByAnimal implements service.RecordService.
func (db *DB) FindRecordByAnimal(ctx context.Context, animalID int64) (*service.Record, error) {
	tx, err := db.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	return db.loadRecord(ctx, tx, animalID)
}

// loadRecord reads the record of one animal inside tx.
func (db *DB) loadRecord(ctx context.Context, tx *sql.Tx, animalID int64) (*service.Record, error) {
	r := &service.Record{Chips: []service.Chip{}, Licences: []service.Licence{}, Quarantines: []service.Quarantine{},
		Impounds: []service.Impoundment{}, Bites: []service.BiteIncident{}}
	var o service.Owner
	var oid sql.NullInt64
	var oName, oAddr, oCity, oState, oPost, oPhone, oEmail sql.NullString
	var oCreated, oUpdated sql.NullString
	a, err := scanAnimal(tx.StmtContext(ctx, db.rec.animal).QueryRowContext(ctx, animalID),
		&oid, &oName, &oAddr, &oCity, &oState, &oPost, &oPhone, &oEmail, &oCreated, &oUpdated)
	if err != nil {
		return nil, notFound(err, "Animal")
	}
	r.Animal = *a
	if oid.Valid {
		o = service.Owner{ID: oid.Int64, Name: oName.String, Address: oAddr.String, City: oCity.String,
			State: oState.String, Postcode: oPost.String, Phone: oPhone.String, Email: oEmail.String}
		if err := (stamp{&o.CreatedAt}).Scan(oCreated.String); err != nil {
			return nil, mapErr(err, "Owner")
		}
		if err := (stamp{&o.UpdatedAt}).Scan(oUpdated.String); err != nil {
			return nil, mapErr(err, "Owner")
		}
		r.Owner = &o
	}
	today := db.today()
	yearAgo := today.AddMonths(-12)
	if err := appendRows(ctx, tx.StmtContext(ctx, db.rec.chips), scanChip, &r.Chips, animalID); err != nil {
		return nil, mapErr(err, "Chip")
	}
	if err := appendRows(ctx, tx.StmtContext(ctx, db.rec.licences), scanLicence, &r.Licences, animalID, yearAgo); err != nil {
		return nil, mapErr(err, "Licence")
	}
	if v, err := scanVaccination(tx.StmtContext(ctx, db.rec.rabies).QueryRowContext(ctx, animalID)); err == nil {
		r.Rabies = v
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, mapErr(err, "Vaccination")
	}
	if d, err := scanDesignation(tx.StmtContext(ctx, db.rec.danger).QueryRowContext(ctx, animalID)); err == nil {
		r.Dangerous = d
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, mapErr(err, "Designation")
	}
	if err := appendRows(ctx, tx.StmtContext(ctx, db.rec.quarantines), scanQuarantine, &r.Quarantines, animalID); err != nil {
		return nil, mapErr(err, "Quarantine")
	}
	if err := appendRows(ctx, tx.StmtContext(ctx, db.rec.impounds), scanImpound, &r.Impounds, animalID, yearAgo); err != nil {
		return nil, mapErr(err, "Impoundment")
	}
	if err := appendRows(ctx, tx.StmtContext(ctx, db.rec.bites), scanBite, &r.Bites, animalID, yearAgo); err != nil {
		return nil, mapErr(err, "Bite")
	}
	return r, nil
}

// appendRows runs a prepared statement and appends each scanned row.
func appendRows[T any](ctx context.Context, st *sql.Stmt, scan scanFunc[*T], dst *[]T, args ...any) error {
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		*dst = append(*dst, *v)
	}
	return rows.Err()
}
