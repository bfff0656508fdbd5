package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// The lookup path is one UNION ALL of index lookups on the animal id,
// which returns every part of the record as rows of one wide shape, told
// apart by the first column. For a chip the key lookup is part of the
// statement (one statement is one read transaction: in WAL mode starting
// one costs shared-memory locks); a tag's key is looked up first. The
// record statement reads one snapshot, so no transaction is needed.

// ncols counts the columns of a column list.
func ncols(cols string) int { return strings.Count(cols, ",") + 1 }

// recordWidth is the number of columns of a record row: the kind letter
// and the widest part.
func recordWidth() int {
	w := 0
	for _, p := range recordParts {
		w = max(w, ncols(p.cols))
	}
	return 1 + w
}

// recordParts lists the UNION ALL branches: kind letter, columns, source,
// and whether the part is in a chip's lookup row (lookuprows.go) rather
// than read live. ?1 is the start of the twelve-month window, ?2 the
// animal id, ?3 the licence a tag lookup matched (0 for none). Only the
// licences are windowed here; impoundments and bites are windowed after
// assembly (service.Record.DropHistoryBefore), so that the parts of a lookup row depend on
// the records alone, not on the date.
var recordParts = []struct {
	kind, cols, from string
	inRow            bool
}{
	{"A", prefixed("a", animalCols) + ", " + prefixed("o", ownerCols),
		`animals a LEFT JOIN owners o ON o.id = a.owner_id WHERE a.id = ?2`, true},
	{"C", chipCols, `chips WHERE animal_id = ?2`, true},
	{"L", licenceCols, `licences WHERE animal_id = ?2 AND (expires_on >= ?1 OR id = ?3)`, false},
	{"V", vaccinationCols, `(SELECT * FROM vaccinations WHERE animal_id = ?2 ORDER BY date DESC, id DESC LIMIT 1)`, true},
	{"D", designationCols, `(SELECT * FROM designations WHERE animal_id = ?2 AND rescinded_on IS NULL ORDER BY declared_on DESC, id DESC LIMIT 1)`, true},
	{"Q", quarantineCols, `quarantines WHERE animal_id = ?2 AND released_on IS NULL`, true},
	{"I", impoundCols, `impoundments WHERE animal_id = ?2`, true},
	{"B", biteCols, `bites WHERE animal_id = ?2`, true},
	// permit.go; kept in the rows by migration 0160's triggers.
	{"P", "id, body", `permits WHERE animal_id = ?2`, true},
	{"G", "id, body", `adoption_agreements WHERE animal_id = ?2 AND open = 1`, true},
}

// recordSQL is the record statement: every part, or (live) only the
// parts a lookup row does not hold.
func recordSQL(live bool) string {
	var b strings.Builder
	for _, p := range recordParts {
		if live && p.inRow {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\nUNION ALL\n")
		}
		b.WriteString("SELECT '" + p.kind + "', " + p.cols + strings.Repeat(", NULL", recordWidth()-1-ncols(p.cols)) + " FROM " + p.from)
	}
	return b.String()
}

// chipRecordSQL is recordSQL for the animal carrying the chip whose code
// is ?2: the animal id is looked up once, in a materialised key.
func chipRecordSQL() string {
	return "WITH k(aid) AS MATERIALIZED (SELECT animal_id FROM chips WHERE code = ?2)\n" +
		strings.ReplaceAll(recordSQL(false), "= ?2", "= (SELECT aid FROM k)")
}

// chipRowSQL answers for the chip whose code is ?2 one row: its lookup
// row's body and the live parts (licences) as a body of their own
// (partsJSON). ?4 is the row's key when the code gives it (lookupKey),
// else NULL and the chip's id gives it; the row's code is checked too
// (a row keyed by the code's digits keeps none: lookupCodeSQL).
// It answers nothing when the chip has no row or its animal is marked
// for rebuild by a transaction that committed without rebuilding;
// chipRecordSQL answers then. One statement, so one read transaction:
// the row and the licences are of one snapshot.
func chipRowSQL() string {
	return "SELECT lookup_row.body, " + partsJSON(false, "lookup_row.animal_id", nil) + "\n" +
		"FROM lookup_rows lookup_row WHERE lookup_row.id = COALESCE(?4, -(SELECT id FROM chips WHERE code = ?2)) AND COALESCE(lookup_row.code, ?2) = ?2\n" +
		"AND NOT EXISTS (SELECT 1 FROM lookup_dirty d WHERE d.animal_id = lookup_row.animal_id)"
}

// animalRowSQL is chipRowSQL for the animal whose id is ?2: any of its
// lookup rows (one per chip, all with the same body). An animal without
// a chip has none; the record statement answers then.
func animalRowSQL() string {
	return "SELECT lookup_row.body, " + partsJSON(false, "lookup_row.animal_id", nil) + "\n" +
		"FROM lookup_rows lookup_row WHERE lookup_row.animal_id = ?2\n" +
		"AND NOT EXISTS (SELECT 1 FROM lookup_dirty d WHERE d.animal_id = lookup_row.animal_id) LIMIT 1"
}

// recordStmts are the prepared lookup statements.
type recordStmts struct {
	chipRow, animalRow *sql.Stmt      // chipRowSQL, animalRowSQL
	chip, tag, record  *sql.Stmt      // chipRecordSQL, by tag, recordSQL
	width, animalCols  int            // recordWidth(), ncols(animalCols)
	partCols           map[string]int // ncols of each recordParts kind
}

func prepareRecordStmts(ctx context.Context, db *sql.DB) (*recordStmts, error) {
	s := recordStmts{width: recordWidth(), animalCols: ncols(animalCols), partCols: map[string]int{}}
	for _, p := range recordParts {
		s.partCols[p.kind] = ncols(p.cols)
	}
	for _, p := range []struct {
		dst   *(*sql.Stmt)
		query string
	}{
		{&s.chipRow, chipRowSQL()},
		{&s.animalRow, animalRowSQL()},
		{&s.chip, chipRecordSQL()},
		{&s.tag, `SELECT animal_id, id FROM licences WHERE jurisdiction = ? AND year = ? AND tag_number = ?`},
		{&s.record, recordSQL(false)},
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
	for _, st := range []*sql.Stmt{s.chipRow, s.animalRow, s.chip, s.tag, s.record} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// prefixed qualifies each column of a column list with alias.
func prefixed(alias, cols string) string {
	fields := strings.Split(cols, ",")
	for i, f := range fields {
		fields[i] = alias + "." + strings.TrimSpace(f)
	}
	return strings.Join(fields, ", ")
}

// pointQuery is the context the record statements run in: the caller's,
// without its cancellation, once checked. They are point lookups of tens
// of microseconds; with a context that can end, database/sql and the
// driver each start a goroutine per statement to watch it, and handing
// over to and from those cost a lookup more than it could save.
func pointQuery(ctx context.Context) (context.Context, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return context.WithoutCancel(ctx), nil
}

// FindRecordByChip implements service.RecordService.
func (db *DB) FindRecordByChip(ctx context.Context, code string) (*service.Record, error) {
	ctx, err := pointQuery(ctx)
	if err != nil {
		return nil, err
	}
	r, err := db.runChipRow(ctx, code)
	if service.ErrorCode(err) == service.ENOTFOUND {
		// No lookup row: an unknown chip, or an animal marked for rebuild.
		r, err = db.runRecord(ctx, db.rec.chip, code, 0)
	}
	if service.ErrorCode(err) == service.ENOTFOUND {
		return nil, service.Errorf(service.ENOTFOUND, "Chip not found.")
	} else if err != nil {
		return nil, err
	}
	r.MatchChip(code)
	return r, nil
}

// FindRecordByTag implements service.RecordService.
func (db *DB) FindRecordByTag(ctx context.Context, jurisdiction string, year, tag int) (*service.Record, error) {
	ctx, err := pointQuery(ctx)
	if err != nil {
		return nil, err
	}
	var aid, lid int64
	if err := db.rec.tag.QueryRowContext(ctx, jurisdiction, year, tag).Scan(&aid, &lid); err != nil {
		return nil, notFound(err, "Tag")
	}
	return db.runRecord(ctx, db.rec.record, aid, lid)
}

// FindRecordByAnimal implements service.RecordService.
func (db *DB) FindRecordByAnimal(ctx context.Context, animalID int64) (*service.Record, error) {
	ctx, err := pointQuery(ctx)
	if err != nil {
		return nil, err
	}
	r, err := db.runRow(ctx, db.rec.animalRow, animalID)
	if service.ErrorCode(err) == service.ENOTFOUND {
		// No lookup row: an animal without a chip, or one marked for
		// rebuild.
		r, err = db.runRecord(ctx, db.rec.record, animalID, 0)
	}
	return r, err
}

// runRecord runs a record statement (recordSQL for an animal id,
// chipRecordSQL for a chip code) for key ?2 and assembles the record;
// matched is the licence a tag lookup found, 0 for others.
func (db *DB) runRecord(ctx context.Context, st *sql.Stmt, key any, matched int64) (*service.Record, error) {
	yearAgo := db.today().AddMonths(-12)
	rows, err := st.QueryContext(ctx, yearAgo, key, matched)
	if err != nil {
		return nil, fmt.Errorf("sqlite: lookup: %w", err)
	}
	defer rows.Close()
	r := newRecord()
	v := make([]any, db.rec.width)
	c := make(cols, len(v))
	dest := make([]any, len(v))
	for i := range v {
		dest[i] = &v[i]
	}
	found := false
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("sqlite: lookup: %w", err)
		}
		for i, x := range v {
			c[i] = valOf(x)
		}
		found = db.addPart(r, str(c[0]), c[1:]) || found
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: lookup: %w", err)
	}
	if !found {
		return nil, service.Errorf(service.ENOTFOUND, "No animal has that identifier.")
	}
	return finishRecord(r, yearAgo, matched), nil
}

// runChipRow answers for a chip from its lookup row (chipRowSQL):
// ENOTFOUND when the statement answers no row.
func (db *DB) runChipRow(ctx context.Context, code string) (*service.Record, error) {
	var key any // NULL: the chip's id gives the row
	if k, ok := lookupKey(code); ok {
		key = k
	}
	return db.runRow(ctx, db.rec.chipRow, code, key)
}

// runRow runs a lookup row statement (chipRowSQL, animalRowSQL) for key
// ?2 (and ?4, rest) and assembles the record: ENOTFOUND when it answers
// no row.
func (db *DB) runRow(ctx context.Context, st *sql.Stmt, key any, rest ...any) (*service.Record, error) {
	yearAgo := db.today().AddMonths(-12)
	var body, live string
	err := st.QueryRowContext(ctx, append([]any{yearAgo, key, 0}, rest...)...).Scan(&body, &live)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, service.Errorf(service.ENOTFOUND, "No lookup row.")
	} else if err != nil {
		return nil, fmt.Errorf("sqlite: lookup: %w", err)
	}
	r := newRecord()
	row := make(cols, 0, db.rec.width)
	found, err := db.addParts(body, row, r)
	if err != nil {
		return nil, err
	}
	if _, err := db.addParts(live, row, r); err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%w: no animal", errLookupBody)
	}
	return finishRecord(r, yearAgo, 0), nil
}

// newRecord returns a record with empty (not nil) lists.
func newRecord() *service.Record {
	return &service.Record{Chips: []service.Chip{}, Licences: []service.Licence{}, Quarantines: []service.Quarantine{},
		Impounds: []service.Impoundment{}, Bites: []service.BiteIncident{}}
}

// finishRecord windows, sorts and, for a tag lookup, matches an
// assembled record.
func finishRecord(r *service.Record, yearAgo service.Date, matched int64) *service.Record {
	r.DropHistoryBefore(yearAgo)
	r.Sort()
	if matched != 0 {
		for i := range r.Licences {
			if r.Licences[i].ID == matched {
				m := r.Licences[i]
				r.MatchedLicence = &m
			}
		}
		// The matched licence is listed even when it is long expired;
		// keep the list to the window.
		r.DropLicencesExpiredBefore(yearAgo)
	}
	return r
}

// addPart adds one part of a record (a row of kind, in recordParts) to r
// and reports whether it was the animal.
func (db *DB) addPart(r *service.Record, kind string, c cols) bool {
	switch kind {
	case "A":
		r.Animal = c.animal()
		if na := db.rec.animalCols; c[na].kind != valNull { // the owner's id
			o := c[na:].owner()
			r.Owner = &o
		}
		return true
	case "C":
		r.Chips = append(r.Chips, c.chip())
	case "L":
		r.Licences = append(r.Licences, c.licence())
	case "V":
		x := c.vaccination()
		r.Rabies = &x
	case "D":
		x := c.designation()
		r.Dangerous = &x
	case "Q":
		r.Quarantines = append(r.Quarantines, c.quarantine())
	case "I":
		r.Impounds = append(r.Impounds, c.impound())
	case "B":
		r.Bites = append(r.Bites, c.bite())
	case "P", "G":
		addPermitPart(r, kind, c) // permit.go
	}
	return false
}

// cols decodes one record row's values, in the column order of the
// *Cols constants.
type cols []val

// val is one column's value as the record statements and lookup rows
// give it: NULL, an integer or text (the record's columns hold no reals
// or blobs). A typed value, not an any, so that decoding a lookup row
// boxes nothing.
type val struct {
	s    string
	n    int64
	kind byte // valNull, valInt or valText
}

const (
	valNull byte = iota
	valInt
	valText
)

// valOf is a value database/sql scanned into an any.
func valOf(x any) val {
	switch x := x.(type) {
	case int64:
		return val{n: x, kind: valInt}
	case string:
		return val{s: x, kind: valText}
	case []byte:
		return val{s: string(x), kind: valText}
	}
	return val{}
}

func str(v val) string { return v.s }

func num(v val) int64 { return v.n }

func date(v val) service.Date {
	var d service.Date
	switch v.kind {
	case valText:
		d.Scan(v.s) // a malformed date reads as no date
	case valInt: // a lookup row's (rowCols)
		d = service.Date(v.n)
	}
	return d
}

func ts(v val) time.Time {
	var t time.Time
	switch v.kind {
	case valText:
		(stamp{&t}).Scan(v.s)
	case valInt: // a lookup row's (rowCols)
		t = time.Unix(0, v.n).UTC()
	}
	return t
}

func (c cols) owner() service.Owner {
	return service.Owner{ID: num(c[0]), Name: str(c[1]), Address: str(c[2]), City: str(c[3]), State: str(c[4]),
		Postcode: str(c[5]), Phone: str(c[6]), Email: str(c[7]), CreatedAt: ts(c[8]), UpdatedAt: ts(c[9])}
}

func (c cols) animal() service.Animal {
	return service.Animal{ID: num(c[0]), OwnerID: num(c[1]), Name: str(c[2]), Species: service.Species(str(c[3])),
		Breed: str(c[4]), Colour: str(c[5]), Sex: service.Sex(str(c[6])), Altered: num(c[7]) != 0, BirthDate: date(c[8]),
		Description: str(c[9]), Photo: str(c[10]), Programme: service.Programme(str(c[11])), DiedOn: date(c[12]),
		CreatedAt: ts(c[13]), UpdatedAt: ts(c[14])}
}

func (c cols) chip() service.Chip {
	return service.Chip{ID: num(c[0]), AnimalID: num(c[1]), Code: str(c[2]), Kind: chipid.Kind(str(c[3])),
		Manufacturer: str(c[4]), ImplantDate: date(c[5]), CreatedAt: ts(c[6])}
}

func (c cols) licence() service.Licence {
	return service.Licence{ID: num(c[0]), AnimalID: num(c[1]), Kind: service.LicenceKind(str(c[2])),
		Jurisdiction: str(c[3]), Year: int(num(c[4])), TagNumber: int(num(c[5])), IssuedOn: date(c[6]),
		ExpiresOn: date(c[7]), Status: service.LicenceStatus(str(c[8])), FeeCents: num(c[9]), FeeCode: str(c[10]),
		IssuedBy: service.Issuer(str(c[11])), Clinic: str(c[12]), ClinicPayCents: num(c[13]), Replaces: num(c[14]),
		ReplaceReason: service.ReplaceReason(str(c[15])), CreatedAt: ts(c[16]), Site: str(c[17])}
}

func (c cols) vaccination() service.RabiesVaccination {
	return service.RabiesVaccination{ID: num(c[0]), AnimalID: num(c[1]), Date: date(c[2]),
		Type: service.VaccineType(str(c[3])), DurationMonths: int(num(c[4])), ExtendedCertified: num(c[5]) != 0,
		Product: str(c[6]), Manufacturer: str(c[7]), Lot: str(c[8]), LotExpires: date(c[9]), Veterinarian: str(c[10]),
		VetLicence: str(c[11]), Certificate: str(c[12]), RabiesTag: str(c[13]), CreatedAt: ts(c[14])}
}

func (c cols) designation() service.DangerousDesignation {
	return service.DangerousDesignation{ID: num(c[0]), AnimalID: num(c[1]), Level: service.DangerLevel(str(c[2])),
		Jurisdiction: str(c[3]), DeclaredOn: date(c[4]), DecisionOn: date(c[5]), Authority: str(c[6]),
		Conditions: str(c[7]), RegisteredOn: date(c[8]), RegistrationNumber: str(c[9]), SignOn: date(c[10]),
		MicrochipOn: date(c[11]), SterilisedOn: date(c[12]), PhotoOn: date(c[13]), InsuredOn: date(c[14]),
		InsuranceCents: num(c[15]), InsuranceExpires: date(c[16]), RescindedOn: date(c[17]), CreatedAt: ts(c[18]),
		UpdatedAt: ts(c[19])}
}

func (c cols) quarantine() service.Quarantine {
	return service.Quarantine{ID: num(c[0]), AnimalID: num(c[1]), BiteID: num(c[2]),
		Kind: service.QuarantineKind(str(c[3])), Place: service.QuarantinePlace(str(c[4])), Start: date(c[5]),
		End: date(c[6]), ReleasedOn: date(c[7]), Notes: str(c[8]), CreatedAt: ts(c[9])}
}

func (c cols) impound() service.Impoundment {
	return service.Impoundment{ID: num(c[0]), AnimalID: num(c[1]), Jurisdiction: str(c[2]), IntakeAt: ts(c[3]),
		IntakeOn: date(c[4]), Site: str(c[5]), WhereFound: str(c[6]), NoticeOn: date(c[7]), HoldUntil: date(c[8]),
		BiteCase: num(c[9]) != 0, Disposition: service.Disposition(str(c[10])), DispositionOn: date(c[11]),
		DispositionNote: str(c[12]), FeesCents: num(c[13]), CreatedAt: ts(c[14]), UpdatedAt: ts(c[15])}
}

func (c cols) bite() service.BiteIncident {
	return service.BiteIncident{ID: num(c[0]), AnimalID: num(c[1]), Date: date(c[2]), Victim: service.Victim(str(c[3])),
		SkinBroken: num(c[4]) != 0, Provoked: num(c[5]) != 0, Location: str(c[6]), Notes: str(c[7]), CreatedAt: ts(c[8])}
}
