package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// The lookup path is one SQL statement per lookup, one round trip: a CTE
// resolves the key (chip code, tag, or animal id) to the animal, and a
// UNION ALL of index lookups returns every part of the record. Each part
// has its own range of columns in a wide row, with the other parts'
// columns NULL; (NULL::table).* gives those NULLs their column types, so
// every row decodes with its native types. One statement reads one
// snapshot.

// recordPart is one UNION ALL branch: the kind letter in column 0, the
// table whose columns the part fills (in table order), the row alias
// and the FROM clause. $1 is the start of the twelve-month window.
type recordPart struct {
	kind, table, cols, alias, from string
	off                            int // first column of the part in the row
}

var recordParts = func() []recordPart {
	parts := []recordPart{
		{kind: "A", table: "animals", cols: animalCols, alias: "a",
			from: `animals a LEFT JOIN owners o ON o.id = a.owner_id WHERE a.id = (SELECT aid FROM k)`},
		{kind: "O", table: "owners", cols: ownerCols, alias: "o"}, // fetched in the A row
		{kind: "C", table: "chips", cols: chipCols, alias: "c", from: `chips c WHERE c.animal_id = (SELECT aid FROM k)`},
		{kind: "L", table: "licences", cols: licenceCols, alias: "l",
			from: `licences l WHERE l.animal_id = (SELECT aid FROM k) AND (l.expires_on >= $1 OR l.id = (SELECT lid FROM k))`},
		{kind: "V", table: "vaccinations", cols: vaccinationCols, alias: "v",
			from: `(SELECT * FROM vaccinations WHERE animal_id = (SELECT aid FROM k) ORDER BY date DESC, id DESC LIMIT 1) v`},
		{kind: "D", table: "designations", cols: designationCols, alias: "d",
			from: `(SELECT * FROM designations WHERE animal_id = (SELECT aid FROM k) AND rescinded_on IS NULL ORDER BY declared_on DESC, id DESC LIMIT 1) d`},
		{kind: "Q", table: "quarantines", cols: quarantineCols, alias: "q",
			from: `quarantines q WHERE q.animal_id = (SELECT aid FROM k) AND q.released_on IS NULL`},
		{kind: "I", table: "impoundments", cols: impoundCols, alias: "i",
			from: `impoundments i WHERE i.animal_id = (SELECT aid FROM k) AND (i.intake_on >= $1 OR i.disposition = '')`},
		{kind: "B", table: "bites", cols: biteCols, alias: "b", from: `bites b WHERE b.animal_id = (SELECT aid FROM k) AND b.date >= $1`},
	}
	off := 1
	for i := range parts {
		parts[i].off = off
		off += strings.Count(parts[i].cols, ",") + 1
	}
	return parts
}()

// offset returns the first column of the part of kind.
func offset(kind string) (int, bool) {
	for _, p := range recordParts {
		if p.kind == kind {
			return p.off, true
		}
	}
	return 0, false
}

// prefixed qualifies each column of a column list with alias.
func prefixed(alias, cols string) string {
	fields := strings.Split(cols, ",")
	for i, f := range fields {
		fields[i] = alias + "." + strings.TrimSpace(f)
	}
	return strings.Join(fields, ", ")
}

// recordSQL builds the lookup statement for a key query returning
// (animal id, matched licence id).
func recordSQL(key string) string {
	var b strings.Builder
	b.WriteString("WITH k(aid, lid) AS (" + key + ")\n")
	first := true
	for _, p := range recordParts {
		if p.from == "" {
			continue
		}
		if !first {
			b.WriteString("\nUNION ALL\n")
		}
		first = false
		b.WriteString("SELECT '" + p.kind + "'::text")
		for _, q := range recordParts {
			switch {
			case q.kind == p.kind || (p.kind == "A" && q.kind == "O"):
				b.WriteString(", " + prefixed(q.alias, q.cols))
			default:
				b.WriteString(", (NULL::" + q.table + ").*")
			}
		}
		b.WriteString(" FROM " + p.from)
	}
	return b.String()
}

var (
	recordByChipSQL   = recordSQL(`SELECT animal_id, 0::bigint FROM chips WHERE code = $2`)
	recordByTagSQL    = recordSQL(`SELECT animal_id, id FROM licences WHERE jurisdiction = $2 AND year = $3 AND tag_number = $4`)
	recordByAnimalSQL = recordSQL(`SELECT id, 0::bigint FROM animals WHERE id = $2`)
)

// FindRecordByChip implements service.RecordService.
func (db *DB) FindRecordByChip(ctx context.Context, code string) (*service.Record, error) {
	r, err := db.queryRecord(ctx, recordByChipSQL, code)
	if err != nil {
		return nil, err
	}
	for i := range r.Chips {
		if r.Chips[i].Code == code {
			c := r.Chips[i]
			r.MatchedChip = &c
		}
	}
	return r, nil
}

// FindRecordByTag implements service.RecordService.
func (db *DB) FindRecordByTag(ctx context.Context, jurisdiction string, year, tag int) (*service.Record, error) {
	return db.queryRecord(ctx, recordByTagSQL, jurisdiction, int64(year), int64(tag))
}

// FindRecordByAnimal implements service.RecordService.
func (db *DB) FindRecordByAnimal(ctx context.Context, animalID int64) (*service.Record, error) {
	return db.queryRecord(ctx, recordByAnimalSQL, animalID)
}

// queryRecord runs one lookup statement and assembles the record.
func (db *DB) queryRecord(ctx context.Context, query string, key ...any) (*service.Record, error) {
	yearAgo := db.today().AddMonths(-12)
	rows, err := db.pool.Query(ctx, query, append([]any{pdate(yearAgo)}, key...)...)
	if err != nil {
		return nil, fmt.Errorf("postgres: lookup: %w", err)
	}
	defer rows.Close()
	r := &service.Record{Chips: []service.Chip{}, Licences: []service.Licence{}, Quarantines: []service.Quarantine{},
		Impounds: []service.Impoundment{}, Bites: []service.BiteIncident{}}
	found := false
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			return nil, fmt.Errorf("postgres: lookup: %w", err)
		}
		kind, _ := v[0].(string)
		off, ok := offset(kind)
		if !ok {
			return nil, fmt.Errorf("postgres: lookup: row of unknown kind %q", kind)
		}
		c := cols(v[off:])
		switch kind {
		case "A":
			found = true
			r.Animal = c.animal()
			ooff, _ := offset("O")
			if o := cols(v[ooff:]); o[0] != nil {
				x := o.owner()
				r.Owner = &x
			}
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
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: lookup: %w", err)
	}
	if !found {
		return nil, service.Errorf(service.ENOTFOUND, "No animal has that identifier.")
	}
	slices.SortFunc(r.Chips, func(a, b service.Chip) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortFunc(r.Licences, func(a, b service.Licence) int {
		return cmp.Or(cmp.Compare(b.IssuedOn, a.IssuedOn), cmp.Compare(b.ID, a.ID))
	})
	slices.SortFunc(r.Quarantines, func(a, b service.Quarantine) int {
		return cmp.Or(cmp.Compare(b.Start, a.Start), cmp.Compare(b.ID, a.ID))
	})
	slices.SortFunc(r.Impounds, func(a, b service.Impoundment) int {
		return cmp.Or(cmp.Compare(b.IntakeOn, a.IntakeOn), cmp.Compare(b.ID, a.ID))
	})
	slices.SortFunc(r.Bites, func(a, b service.BiteIncident) int {
		return cmp.Or(cmp.Compare(b.Date, a.Date), cmp.Compare(b.ID, a.ID))
	})
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
		r.Licences = slices.DeleteFunc(r.Licences, func(l service.Licence) bool { return l.ExpiresOn < yearAgo })
	}
	return r, nil
}

// cols decodes one part's values (as pgx.Rows.Values returns them), in
// the column order of the *Cols constants.
type cols []any

func str(v any) string {
	x, _ := v.(string)
	return x
}

func num(v any) int64 {
	x, _ := v.(int64)
	return x
}

func flag(v any) bool {
	x, _ := v.(bool)
	return x
}

func date(v any) service.Date {
	if t, ok := v.(time.Time); ok {
		return service.DateOf(t.UTC())
	}
	return 0
}

func ts(v any) time.Time {
	if t, ok := v.(time.Time); ok {
		return t.UTC()
	}
	return time.Time{}
}

func (c cols) owner() service.Owner {
	return service.Owner{ID: num(c[0]), Name: str(c[1]), Address: str(c[2]), City: str(c[3]), State: str(c[4]),
		Postcode: str(c[5]), Phone: str(c[6]), Email: str(c[7]), CreatedAt: ts(c[8]), UpdatedAt: ts(c[9])}
}

func (c cols) animal() service.Animal {
	return service.Animal{ID: num(c[0]), OwnerID: num(c[1]), Name: str(c[2]), Species: service.Species(str(c[3])),
		Breed: str(c[4]), Colour: str(c[5]), Sex: service.Sex(str(c[6])), Altered: flag(c[7]), BirthDate: date(c[8]),
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
		Type: service.VaccineType(str(c[3])), DurationMonths: int(num(c[4])), ExtendedCertified: flag(c[5]),
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
		BiteCase: flag(c[9]), Disposition: service.Disposition(str(c[10])), DispositionOn: date(c[11]),
		DispositionNote: str(c[12]), FeesCents: num(c[13]), CreatedAt: ts(c[14]), UpdatedAt: ts(c[15])}
}

func (c cols) bite() service.BiteIncident {
	return service.BiteIncident{ID: num(c[0]), AnimalID: num(c[1]), Date: date(c[2]), Victim: service.Victim(str(c[3])),
		SkinBroken: flag(c[4]), Provoked: flag(c[5]), Location: str(c[6]), Notes: str(c[7]), CreatedAt: ts(c[8])}
}
