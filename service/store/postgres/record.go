package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// The lookup path is one SQL statement per lookup, one round trip: a CTE
// resolves the key (chip code, tag, or animal id) to the animal, and one
// row carries every part of the record as JSON, each part an index
// lookup aggregated by row_to_json or json_agg. The JSON keys are the
// domain types' own JSON names, so each part decodes straight into its
// service type. (A UNION ALL of typed rows, as in the SQLite store, costs
// PostgreSQL four times the server time: the rows are wide and every
// branch is a separate plan node.) One statement reads one snapshot.

// recordPart is one part of the record: a column of the lookup row.
// $1 is the start of the twelve-month window; k is the key CTE
// (aid: animal id, lid: matched licence id).
type recordPart struct {
	cols string // columns, in the order of the *Cols constant
	agg  string // row_to_json (one row) or json_agg (a list)
	from string
}

var recordParts = []recordPart{
	{columns.Animal, "row_to_json", `animals WHERE id = k.aid`},
	{columns.Owner, "row_to_json", `owners WHERE id = (SELECT owner_id FROM animals WHERE id = k.aid)`},
	{columns.Chip, "json_agg", `chips WHERE animal_id = k.aid`},
	{columns.Licence, "json_agg", `licences WHERE animal_id = k.aid AND (expires_on >= $1 OR id = k.lid)`},
	{columns.Vaccination, "row_to_json", `vaccinations WHERE animal_id = k.aid ORDER BY date DESC, id DESC LIMIT 1`},
	{columns.Designation, "row_to_json", `designations WHERE animal_id = k.aid AND rescinded_on IS NULL ORDER BY declared_on DESC, id DESC LIMIT 1`},
	{columns.Quarantine, "json_agg", `quarantines WHERE animal_id = k.aid AND released_on IS NULL`},
	{columns.Impound, "json_agg", `impoundments WHERE animal_id = k.aid AND (intake_on >= $1 OR disposition = '')`},
	{columns.Bite, "json_agg", `bites WHERE animal_id = k.aid AND date >= $1`},
	// permit.go: id and body of the permits and open agreements.
	{"id, body", "json_agg", `permits WHERE animal_id = k.aid ORDER BY id`},
	{"id, body", "json_agg", `adoption_agreements WHERE animal_id = k.aid AND open ORDER BY id`},
}

// jsonNames maps the columns whose JSON name is not the column's own
// (the domain types' JSON names are their columns' snake_case names).
var jsonNames = map[string]string{"start_on": "start", "end_on": "end"}

// jsonName is the JSON name of the domain field stored in column col.
func jsonName(col string) string {
	if n, ok := jsonNames[col]; ok {
		return n
	}
	return col
}

// jsonCols aliases each column to its JSON name.
func jsonCols(cols string) string {
	fields := strings.Split(cols, ",")
	for i, f := range fields {
		f = strings.TrimSpace(f)
		fields[i] = f + ` AS "` + jsonName(f) + `"`
	}
	return strings.Join(fields, ", ")
}

// recordSQL builds the lookup statement for a key query returning
// (animal id, matched licence id).
func recordSQL(key string) string {
	var b strings.Builder
	b.WriteString("WITH k(aid, lid) AS (" + key + ")\nSELECT ")
	for i, p := range recordParts {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString("(SELECT " + p.agg + "(x) FROM (SELECT " + jsonCols(p.cols) + " FROM " + p.from + ") x)")
	}
	b.WriteString("\nFROM k")
	return b.String()
}

var (
	recordByChipSQL   = recordSQL(`SELECT animal_id, 0::bigint FROM chips WHERE code = $2`)
	recordByTagSQL    = recordSQL(`SELECT animal_id, id FROM licences WHERE jurisdiction = $2 AND year = $3 AND tag_number = $4`)
	recordByAnimalSQL = recordSQL(`SELECT id, 0::bigint FROM animals WHERE id = $2`)
)

// FindRecordByChip implements service.RecordService.
func (db *DB) FindRecordByChip(ctx context.Context, code string) (*service.Record, error) {
	r, err := db.queryRecord(ctx, rowByChipSQL, recordByChipSQL, code)
	if err != nil {
		return nil, err
	}
	r.MatchChip(code)
	return r, nil
}

// FindRecordByTag implements service.RecordService.
func (db *DB) FindRecordByTag(ctx context.Context, jurisdiction string, year, tag int) (*service.Record, error) {
	return db.queryRecord(ctx, rowByTagSQL, recordByTagSQL, jurisdiction, int64(year), int64(tag))
}

// FindRecordByAnimal implements service.RecordService.
func (db *DB) FindRecordByAnimal(ctx context.Context, animalID int64) (*service.Record, error) {
	return db.queryRecord(ctx, rowByAnimalSQL, recordByAnimalSQL, animalID)
}

// queryRecord assembles the record from the lookup row and licences
// that rowQuery reads (lookuprows.go), or, for an animal without a
// row, from the full statement query.
func (db *DB) queryRecord(ctx context.Context, rowQuery, query string, key ...any) (*service.Record, error) {
	yearAgo := db.today().AddMonths(-12)
	args := append([]any{pdate(yearAgo)}, key...)
	rows, err := db.pool.Query(ctx, rowQuery, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: lookup: %w", err)
	}
	lr, err := db.plans.scanLookupRow(rows) // lookuprows.go
	if err != nil {
		return nil, fmt.Errorf("postgres: lookup: %w", err)
	} else if !lr.found {
		return nil, service.Errorf(service.ENOTFOUND, "No animal has that identifier.")
	}
	var r *service.Record
	if lr.row {
		r = &lr.r
		if err := fromRow(r, lr.parts, yearAgo); err != nil {
			return nil, err
		}
	} else if r, err = db.queryFull(ctx, query, args); err != nil {
		return nil, err
	}
	utcRecord(r)
	r.Sort()
	if len(key) == 3 { // a tag lookup: the licence with that tag
		for i := range r.Licences {
			l := &r.Licences[i]
			if l.Jurisdiction == key[0] && int64(l.Year) == key[1] && int64(l.TagNumber) == key[2] {
				m := *l
				r.MatchedLicence = &m
			}
		}
		// The matched licence is listed even when it is long expired;
		// keep the list to the window.
		r.DropLicencesExpiredBefore(yearAgo)
	}
	return r, nil
}

// queryFull runs the full lookup statement (recordSQL).
func (db *DB) queryFull(ctx context.Context, query string, args []any) (*service.Record, error) {
	var raw [11][]byte
	err := db.pool.QueryRow(ctx, query, args...).Scan(
		&raw[0], &raw[1], &raw[2], &raw[3], &raw[4], &raw[5], &raw[6], &raw[7], &raw[8], &raw[9], &raw[10])
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && raw[0] == nil) {
		return nil, service.Errorf(service.ENOTFOUND, "No animal has that identifier.")
	} else if err != nil {
		return nil, fmt.Errorf("postgres: lookup: %w", err)
	}
	r := &service.Record{Chips: []service.Chip{}, Licences: []service.Licence{}, Quarantines: []service.Quarantine{},
		Impounds: []service.Impoundment{}, Bites: []service.BiteIncident{}}
	if raw[1] != nil {
		r.Owner = &service.Owner{}
	}
	if raw[4] != nil {
		r.Rabies = &service.RabiesVaccination{}
	}
	if raw[5] != nil {
		r.Dangerous = &service.DangerousDesignation{}
	}
	for i, dst := range []any{&r.Animal, r.Owner, &r.Chips, &r.Licences, r.Rabies, r.Dangerous, &r.Quarantines, &r.Impounds, &r.Bites} {
		if raw[i] == nil {
			continue
		}
		if err := json.Unmarshal(raw[i], dst); err != nil {
			return nil, fmt.Errorf("postgres: lookup: %w", err)
		}
	}
	if err := addPermitParts(r, raw[9], raw[10]); err != nil { // permit.go
		return nil, fmt.Errorf("postgres: lookup: %w", err)
	}
	return r, nil
}

// utcRecord puts the instants decoded from JSON (with a "+00:00"
// offset) into UTC, as every other read returns them.
func utcRecord(r *service.Record) {
	utc := func(ts ...*time.Time) {
		for _, t := range ts {
			*t = t.UTC()
		}
	}
	utc(&r.Animal.CreatedAt, &r.Animal.UpdatedAt)
	if r.Owner != nil {
		utc(&r.Owner.CreatedAt, &r.Owner.UpdatedAt)
	}
	for i := range r.Chips {
		utc(&r.Chips[i].CreatedAt)
	}
	for i := range r.Licences {
		utc(&r.Licences[i].CreatedAt)
	}
	if r.Rabies != nil {
		utc(&r.Rabies.CreatedAt)
	}
	if r.Dangerous != nil {
		utc(&r.Dangerous.CreatedAt, &r.Dangerous.UpdatedAt)
	}
	for i := range r.Quarantines {
		utc(&r.Quarantines[i].CreatedAt)
	}
	for i := range r.Impounds {
		utc(&r.Impounds[i].IntakeAt, &r.Impounds[i].CreatedAt, &r.Impounds[i].UpdatedAt)
	}
	for i := range r.Bites {
		utc(&r.Bites[i].CreatedAt)
	}
}
