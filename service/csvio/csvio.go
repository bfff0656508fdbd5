package csvio

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// Table names a CSV file's contents.
type Table string

// Tables, in the order they are imported.
const (
	Owners       Table = "owners"
	Animals      Table = "animals"
	Chips        Table = "chips"
	Licences     Table = "licences"
	Vaccinations Table = "vaccinations"
)

// Tables lists all tables in import order.
var Tables = []Table{Owners, Animals, Chips, Licences, Vaccinations}

// File is the conventional file name of a table.
func (t Table) File() string { return string(t) + ".csv" }

// Columns lists each table's columns, in export order. The columns
// marked required in the import must be present in a file's header.
var Columns = map[Table][]string{
	Owners:       {"id", "name", "address", "city", "state", "postcode", "phone", "email"},
	Animals:      {"id", "owner_id", "name", "species", "breed", "colour", "sex", "altered", "birth_date", "description", "photo", "programme", "died_on"},
	Chips:        {"id", "animal_id", "code", "kind", "manufacturer", "implant_date"},
	Licences:     {"id", "animal_id", "kind", "jurisdiction", "year", "tag_number", "issued_on", "expires_on", "status", "fee_cents", "fee_code", "issued_by", "clinic", "clinic_pay_cents", "replaces", "replace_reason", "site"},
	Vaccinations: {"id", "animal_id", "date", "type", "duration_months", "extended_certified", "product", "manufacturer", "lot", "lot_expires", "veterinarian", "vet_licence", "certificate", "rabies_tag"},
}

var required = map[Table][]string{
	Owners:       {"id", "name"},
	Animals:      {"id", "species"},
	Chips:        {"animal_id", "code"},
	Licences:     {"animal_id", "jurisdiction", "issued_on", "expires_on"},
	Vaccinations: {"animal_id", "date"},
}

// RowError is one problem in one row.
type RowError struct {
	Table  Table  `json:"table"`
	Line   int    `json:"line"` // 1-based line in the file; 0 for the whole file
	Column string `json:"column,omitempty"`
	Msg    string `json:"message"`
}

// String is the error as a line of a report: FILE:LINE[: COLUMN]: MESSAGE.
func (e RowError) String() string {
	s := fmt.Sprintf("%s:%d", e.Table.File(), e.Line)
	if e.Column != "" {
		s += ": " + e.Column
	}
	return s + ": " + e.Msg
}

// MaxErrors is how many row errors an ImportError keeps.
const MaxErrors = 1000

// ImportError lists the bad rows of an import that stored nothing.
type ImportError struct {
	Rows []RowError
	// More counts the errors beyond MaxErrors that were not kept.
	More int
}

// Error implements error.
func (e *ImportError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "csvio: %d bad rows, nothing imported", len(e.Rows)+e.More)
	for i, r := range e.Rows {
		if i == 10 {
			fmt.Fprintf(&b, "; and %d more", len(e.Rows)+e.More-10)
			break
		}
		b.WriteString("; ")
		b.WriteString(r.String())
	}
	return b.String()
}

// Unwrap lets service.ErrorCode see an EINVALID error.
func (e *ImportError) Unwrap() error {
	return service.Errorf(service.EINVALID, "%d bad rows in the import; nothing was imported.", len(e.Rows)+e.More)
}

func (e *ImportError) add(t Table, line int, col, format string, a ...any) {
	if len(e.Rows) >= MaxErrors {
		e.More++
		return
	}
	e.Rows = append(e.Rows, RowError{Table: t, Line: line, Column: col, Msg: fmt.Sprintf(format, a...)})
}

// Store is what Import needs: bulk storage and lookups for references
// to records not in the files.
type Store interface {
	service.BulkService
	FindOwnerByID(ctx context.Context, id int64) (*service.Owner, error)
	FindAnimalByID(ctx context.Context, id int64) (*service.Animal, error)
	FindLicenceByID(ctx context.Context, id int64) (*service.Licence, error)
}

// Report counts what Import stored.
type Report struct {
	Owners, Animals, Chips, Licences, Vaccinations int
}

// Import reads the files (any subset of the tables), checks every row
// and stores all of them in one transaction, or nothing.
//
// When the store is a Streamer, decoding and storing overlap: rows go to
// the store in chunks while later rows are still being read, inside the
// store's one transaction, which is rolled back if any row turns out bad.
func Import(ctx context.Context, st Store, files map[Table]io.Reader) (*Report, error) {
	ss, ok := st.(Streamer)
	if !ok {
		b, err := Decode(ctx, st, files)
		if err != nil {
			return nil, err
		}
		if err := st.Import(ctx, b); err != nil {
			return nil, fmt.Errorf("csvio: import: %w", err)
		}
		return &Report{Owners: len(b.Owners), Animals: len(b.Animals), Chips: len(b.Chips),
			Licences: len(b.Licences), Vaccinations: len(b.Vaccinations)}, nil
	}
	var rep Report
	err := ss.ImportStream(ctx, func(put func(*service.Batch) error) error {
		chunks := make(chan *service.Batch, 4)
		var derr error
		go func() {
			defer close(chunks)
			d := newDecoder(ctx, st)
			d.emit = func(b *service.Batch) { chunks <- b }
			derr = d.run(files)
		}()
		var perr error
		for b := range chunks {
			if perr == nil {
				perr = put(b)
				rep.add(b)
			}
			// after a store error, drain: the decoder's row errors
			// say more than the store's.
		}
		if derr != nil {
			return derr
		}
		return perr
	})
	if err != nil {
		var ie *ImportError
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, fmt.Errorf("csvio: import: %w", err)
	}
	return &rep, nil
}

func (r *Report) add(b *service.Batch) {
	r.Owners += len(b.Owners)
	r.Animals += len(b.Animals)
	r.Chips += len(b.Chips)
	r.Licences += len(b.Licences)
	r.Vaccinations += len(b.Vaccinations)
}

// Streamer is implemented by stores that take an import in chunks
// within one transaction (store/sqlite's ImportStream).
type Streamer interface {
	ImportStream(ctx context.Context, fill func(put func(*service.Batch) error) error) error
}

// chunkRows is how many records the decoder hands a Streamer at a time.
const chunkRows = 4096

// Decode reads and checks the files into a batch without storing it.
// st resolves references to records outside the files; it may be nil,
// and then such references are errors.
func Decode(ctx context.Context, st Store, files map[Table]io.Reader) (*service.Batch, error) {
	d := newDecoder(ctx, st)
	if err := d.run(files); err != nil {
		return nil, err
	}
	return d.b, nil
}

func newDecoder(ctx context.Context, st Store) *decoder {
	return &decoder{ctx: ctx, st: st, errs: &ImportError{}, b: &service.Batch{},
		chips: map[string]int{}, tags: map[tagKey]int{}, jurs: map[string]int{}, ids: map[Table]map[int64]int{}}
}

// run reads the files in table order and checks the references. With
// emit set, it hands over full chunks while all rows so far are good,
// and the rest once everything checked out.
func (d *decoder) run(files map[Table]io.Reader) error {
	for t := range files {
		if _, ok := Columns[t]; !ok {
			return fmt.Errorf("csvio: unknown table %q", t)
		}
	}
	for _, t := range Tables {
		if r, ok := files[t]; ok {
			if err := d.read(t, r); err != nil {
				return err
			}
		}
	}
	if err := d.checkRefs(); err != nil {
		return err
	}
	if len(d.errs.Rows) > 0 {
		return d.errs
	}
	if d.emit != nil && d.b.Len() > 0 {
		d.emit(d.b)
		d.b = &service.Batch{}
	}
	return nil
}

// tagKey is a tag number: the jurisdiction by its number in jurs (a
// key of fixed size hashes faster than one holding a string).
type tagKey struct {
	jur, year, tag int
}

type decoder struct {
	ctx  context.Context
	st   Store
	errs *ImportError
	b    *service.Batch
	// emit, when set, takes chunks of the batch as they fill.
	emit func(*service.Batch)

	owners, animals map[int64]bool // ids in the files
	licences        map[int64]int  // licence id → line
	chips           map[string]int // chip code → line
	tags            map[tagKey]int // tag → line
	jurs            map[string]int // jurisdiction → its number in tagKey
	ids             map[Table]map[int64]int
	// refs to check once all files are read
	ownerRefs, animalRefs, licenceRefs []ref
}

type ref struct {
	t    Table
	line int
	col  string
	id   int64
}

// row gives typed access to one record's fields by column name.
type row struct {
	d      *decoder
	t      Table
	line   int
	idx    map[string]int
	fields []string
}

func (r *row) str(col string) string {
	i, ok := r.idx[col]
	if !ok || i >= len(r.fields) {
		return ""
	}
	return strings.TrimSpace(Restore(strings.TrimSpace(r.fields[i])))
}

func (r *row) bad(col, format string, a ...any) { r.d.errs.add(r.t, r.line, col, format, a...) }

func (r *row) need(col string) string {
	s := r.str(col)
	if s == "" {
		r.bad(col, "required")
	}
	return s
}

func (r *row) id(col string) int64 {
	s := r.str(col)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		r.bad(col, "%q is not a positive whole number", s)
		return 0
	}
	return n
}

func (r *row) num(col string) int64 {
	s := r.str(col)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		r.bad(col, "%q is not a whole number of zero or more", s)
		return 0
	}
	return n
}

func (r *row) date(col string) service.Date {
	s := r.str(col)
	if s == "" {
		return 0
	}
	d, err := service.ParseDate(s)
	if err != nil {
		r.bad(col, "%q is not a date (YYYY-MM-DD)", s)
	}
	return d
}

func (r *row) bool(col string) bool {
	switch strings.ToLower(r.str(col)) {
	case "", "false", "no", "0":
		return false
	case "true", "yes", "1":
		return true
	}
	r.bad(col, "%q is not true or false", r.str(col))
	return false
}

// enum checks a value against the allowed set.
func (r *row) enum(col string, allowed ...string) string {
	s := strings.ToLower(r.str(col))
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	r.bad(col, "%q is not one of %s", r.str(col), strings.Join(allowed, ", "))
	return ""
}

// read decodes one file.
func (d *decoder) read(t Table, rd io.Reader) error {
	cr := csv.NewReader(rd)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		d.errs.add(t, 1, "", "empty file: a header row is required")
		return nil
	} else if err != nil {
		d.errs.add(t, 1, "", "%v", csvErr(err))
		return nil
	}
	idx := map[string]int{}
	known := map[string]bool{}
	for _, c := range Columns[t] {
		known[c] = true
	}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !known[h] {
			d.errs.add(t, 1, h, "unknown column (want %s)", strings.Join(Columns[t], ", "))
			continue
		}
		if _, dup := idx[h]; dup {
			d.errs.add(t, 1, h, "column given twice")
		}
		idx[h] = i
	}
	for _, c := range required[t] {
		if _, ok := idx[c]; !ok {
			d.errs.add(t, 1, c, "required column missing")
		}
	}
	if len(d.errs.Rows) > 0 && d.errs.Rows[len(d.errs.Rows)-1].Line == 1 {
		return nil // a bad header: rows would only repeat it
	}
	d.ids[t] = map[int64]int{}
	r := row{d: d, t: t, idx: idx}
	for n := 0; ; n++ {
		if n&0xfff == 0 {
			if err := d.ctx.Err(); err != nil {
				return err
			}
		}
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return fmt.Errorf("csvio: read %s: %w", t.File(), err)
			}
			d.errs.add(t, pe.StartLine, "", "%v", csvErr(err))
			continue
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			d.errs.add(t, line, "", "%d fields, the header has %d", len(rec), len(header))
			continue
		}
		r.line, r.fields = line, rec
		d.decode(&r)
		if d.emit != nil && len(d.errs.Rows) == 0 && d.b.Len() >= chunkRows {
			d.emit(d.b)
			d.b = &service.Batch{}
		}
	}
}

// csvErr strips encoding/csv's position prefix (we report our own).
func csvErr(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// seen checks that an id is unique within its file.
func (d *decoder) seen(r *row, id int64) {
	if id == 0 {
		return
	}
	if prev, dup := d.ids[r.t][id]; dup {
		r.bad("id", "id %d already used on line %d", id, prev)
		return
	}
	d.ids[r.t][id] = r.line
}

func (d *decoder) decode(r *row) {
	switch r.t {
	case Owners:
		o := &service.Owner{ID: r.id("id"), Name: r.need("name"), Address: r.str("address"), City: r.str("city"),
			State: r.str("state"), Postcode: r.str("postcode"), Phone: r.str("phone"), Email: r.str("email")}
		if r.str("id") == "" {
			r.bad("id", "required")
		}
		d.seen(r, o.ID)
		d.b.Owners = append(d.b.Owners, o)
	case Animals:
		a := &service.Animal{ID: r.id("id"), OwnerID: r.id("owner_id"), Name: r.str("name"),
			Species: service.Species(r.enum("species", "dog", "cat", "ferret", "other")), Breed: r.str("breed"),
			Colour: r.str("colour"), Altered: r.bool("altered"), BirthDate: r.date("birth_date"),
			Description: r.str("description"), Photo: r.str("photo"), DiedOn: r.date("died_on")}
		if r.str("id") == "" {
			r.bad("id", "required")
		}
		if r.str("sex") != "" {
			a.Sex = service.Sex(r.enum("sex", "male", "female"))
		}
		if r.str("programme") != "" {
			a.Programme = service.Programme(r.enum("programme", "service-dog", "foster"))
		}
		d.seen(r, a.ID)
		if a.OwnerID != 0 {
			d.ownerRefs = append(d.ownerRefs, ref{r.t, r.line, "owner_id", a.OwnerID})
		}
		d.b.Animals = append(d.b.Animals, a)
	case Chips:
		c := &service.Chip{ID: r.id("id"), AnimalID: r.id("animal_id"), Manufacturer: r.str("manufacturer"),
			ImplantDate: r.date("implant_date")}
		d.seen(r, c.ID)
		text := r.need("code")
		if text == "" {
			return
		}
		if k := r.str("kind"); k != "" {
			// The kind column tells the reading, as a reader's word would.
			word := map[string]string{"iso11784": "ISO ", "avid": "AVID ", "fecava": "FECAVA ", "trovan": "TROVAN "}[strings.ToLower(k)]
			if word == "" {
				r.bad("kind", "%q is not one of iso11784, avid, fecava, trovan", k)
				return
			}
			text = word + text
		}
		id, err := chipid.Parse(text, &chipid.Opts{Locale: "en_US"})
		if err != nil {
			r.bad("code", "%s", strings.TrimPrefix(err.Error(), "chipid: "))
			return
		}
		c.Code, c.Kind = id.Code, id.Kind
		if c.Manufacturer == "" {
			c.Manufacturer = id.Manufacturer("en_US")
		}
		if prev, dup := d.chips[c.Code]; dup {
			r.bad("code", "chip %s already on line %d", c.Code, prev)
		}
		d.chips[c.Code] = r.line
		d.animalRefs = append(d.animalRefs, ref{r.t, r.line, "animal_id", c.AnimalID})
		d.b.Chips = append(d.b.Chips, c)
	case Licences:
		l := &service.Licence{ID: r.id("id"), AnimalID: r.id("animal_id"), Jurisdiction: r.need("jurisdiction"),
			Year: int(r.num("year")), TagNumber: int(r.num("tag_number")), IssuedOn: r.date("issued_on"),
			ExpiresOn: r.date("expires_on"), FeeCents: r.num("fee_cents"), FeeCode: r.str("fee_code"),
			Clinic: r.str("clinic"), ClinicPayCents: r.num("clinic_pay_cents"), Replaces: r.id("replaces"),
			Site: r.str("site")}
		if r.str("kind") != "" {
			l.Kind = service.LicenceKind(r.enum("kind", "licence", "off-leash"))
		}
		if r.str("status") != "" {
			l.Status = service.LicenceStatus(r.enum("status", "active", "revoked", "replaced"))
		}
		if r.str("issued_by") != "" {
			l.IssuedBy = service.Issuer(r.enum("issued_by", "office", "clinic"))
		}
		if r.str("replace_reason") != "" {
			l.ReplaceReason = service.ReplaceReason(r.enum("replace_reason", "lost", "stolen"))
		}
		if l.IssuedOn.IsZero() && r.str("issued_on") == "" {
			r.bad("issued_on", "required")
		}
		if l.ExpiresOn.IsZero() && r.str("expires_on") == "" {
			r.bad("expires_on", "required")
		}
		if !l.IssuedOn.IsZero() && !l.ExpiresOn.IsZero() && l.ExpiresOn < l.IssuedOn {
			r.bad("expires_on", "expires before it is issued (%s)", l.IssuedOn)
		}
		if l.Replaces != 0 && l.ReplaceReason == "" {
			r.bad("replace_reason", "a duplicate tag needs the reason: lost or stolen")
		}
		if l.Year == 0 && !l.IssuedOn.IsZero() {
			l.Year = l.IssuedOn.Year()
		}
		d.seen(r, l.ID)
		if l.TagNumber != 0 {
			j, ok := d.jurs[l.Jurisdiction]
			if !ok {
				j = len(d.jurs)
				d.jurs[l.Jurisdiction] = j
			}
			k := tagKey{j, l.Year, l.TagNumber}
			if prev, dup := d.tags[k]; dup {
				r.bad("tag_number", "tag %d/%d in %s already on line %d", l.Year, l.TagNumber, l.Jurisdiction, prev)
			}
			d.tags[k] = r.line
		}
		d.animalRefs = append(d.animalRefs, ref{r.t, r.line, "animal_id", l.AnimalID})
		if l.Replaces != 0 {
			d.licenceRefs = append(d.licenceRefs, ref{r.t, r.line, "replaces", l.Replaces})
		}
		d.b.Licences = append(d.b.Licences, l)
	case Vaccinations:
		v := &service.RabiesVaccination{ID: r.id("id"), AnimalID: r.id("animal_id"), Date: r.date("date"),
			DurationMonths: int(r.num("duration_months")), ExtendedCertified: r.bool("extended_certified"),
			Product: r.str("product"), Manufacturer: r.str("manufacturer"), Lot: r.str("lot"),
			LotExpires: r.date("lot_expires"), Veterinarian: r.str("veterinarian"), VetLicence: r.str("vet_licence"),
			Certificate: r.str("certificate"), RabiesTag: r.str("rabies_tag")}
		if r.str("type") != "" {
			v.Type = service.VaccineType(r.enum("type", "killed", "modified-live"))
		}
		if v.Date.IsZero() && r.str("date") == "" {
			r.bad("date", "required")
		}
		if v.DurationMonths > 48 {
			r.bad("duration_months", "%d months is longer than any rabies vaccine", v.DurationMonths)
		}
		d.seen(r, v.ID)
		d.animalRefs = append(d.animalRefs, ref{r.t, r.line, "animal_id", v.AnimalID})
		d.b.Vaccinations = append(d.b.Vaccinations, v)
	}
}

// IDChecker is implemented by stores that can check many ids in one
// go; Import uses it when the store has it, and one lookup per id
// otherwise.
type IDChecker interface {
	// MissingIDs returns those of ids not in table ("owners",
	// "animals", "licences").
	MissingIDs(ctx context.Context, table string, ids []int64) ([]int64, error)
}

// checkRefs resolves references against the files, then the store.
func (d *decoder) checkRefs() error {
	check := func(refs []ref, inFiles func(int64) bool, table string, find func(int64) error, what string) error {
		// The ids to look up in the store, sorted and each once: a
		// million licences refer to a million animals, which a sort
		// collects faster than a set, and the store reads in order.
		var outside []int64
		for _, x := range refs {
			if x.id != 0 && !inFiles(x.id) {
				outside = append(outside, x.id)
			}
		}
		slices.Sort(outside)
		outside = slices.Compact(outside)
		missing := map[int64]bool{}
		switch ck, ok := d.st.(IDChecker); {
		case len(outside) == 0:
		case d.st == nil:
			for _, id := range outside {
				missing[id] = true
			}
		case ok:
			ids, err := ck.MissingIDs(d.ctx, table, outside)
			if err != nil {
				return fmt.Errorf("csvio: check %s: %w", table, err)
			}
			for _, id := range ids {
				missing[id] = true
			}
		default:
			for _, id := range outside {
				if err := find(id); service.ErrorCode(err) == service.ENOTFOUND {
					missing[id] = true
				} else if err != nil {
					return fmt.Errorf("csvio: check %s: %w", table, err)
				}
			}
		}
		for _, x := range refs {
			if x.id == 0 {
				d.errs.add(x.t, x.line, x.col, "required")
			} else if missing[x.id] {
				d.errs.add(x.t, x.line, x.col, "no %s %d in the files or the store", what, x.id)
			}
		}
		return nil
	}
	in := func(t Table) func(int64) bool {
		return func(id int64) bool { _, ok := d.ids[t][id]; return ok }
	}
	if err := check(d.ownerRefs, in(Owners), "owners", func(id int64) error {
		_, err := d.st.FindOwnerByID(d.ctx, id)
		return err
	}, "owner"); err != nil {
		return err
	}
	if err := check(d.animalRefs, in(Animals), "animals", func(id int64) error {
		_, err := d.st.FindAnimalByID(d.ctx, id)
		return err
	}, "animal"); err != nil {
		return err
	}
	return check(d.licenceRefs, in(Licences), "licences", func(id int64) error {
		_, err := d.st.FindLicenceByID(d.ctx, id)
		return err
	}, "licence")
}

// Export writes one table of the store as CSV.
func Export(ctx context.Context, st service.BulkService, t Table, w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(Columns[t]); err != nil {
		return fmt.Errorf("csvio: export %s: %w", t, err)
	}
	rec := make([]string, len(Columns[t]))
	var err error
	switch t {
	case Owners:
		err = st.EachOwner(ctx, func(o *service.Owner) error {
			fill(rec, i64(o.ID), o.Name, o.Address, o.City, o.State, o.Postcode, o.Phone, o.Email)
			return write(cw, rec)
		})
	case Animals:
		err = st.EachAnimal(ctx, func(a *service.Animal) error {
			fill(rec, i64(a.ID), i64(a.OwnerID), a.Name, string(a.Species), a.Breed, a.Colour, string(a.Sex), b2s(a.Altered),
				a.BirthDate.String(), a.Description, a.Photo, string(a.Programme), a.DiedOn.String())
			return write(cw, rec)
		})
	case Chips:
		err = st.EachChip(ctx, func(c *service.Chip) error {
			fill(rec, i64(c.ID), i64(c.AnimalID), c.Code, string(c.Kind), c.Manufacturer, c.ImplantDate.String())
			return write(cw, rec)
		})
	case Licences:
		err = st.EachLicence(ctx, func(l *service.Licence) error {
			fill(rec, i64(l.ID), i64(l.AnimalID), string(l.Kind), l.Jurisdiction, strconv.Itoa(l.Year), strconv.Itoa(l.TagNumber),
				l.IssuedOn.String(), l.ExpiresOn.String(), string(l.Status), strconv.FormatInt(l.FeeCents, 10), l.FeeCode,
				string(l.IssuedBy), l.Clinic, strconv.FormatInt(l.ClinicPayCents, 10), i64(l.Replaces), string(l.ReplaceReason), l.Site)
			return write(cw, rec)
		})
	case Vaccinations:
		err = st.EachVaccination(ctx, func(v *service.RabiesVaccination) error {
			fill(rec, i64(v.ID), i64(v.AnimalID), v.Date.String(), string(v.Type), strconv.Itoa(v.DurationMonths),
				b2s(v.ExtendedCertified), v.Product, v.Manufacturer, v.Lot, v.LotExpires.String(), v.Veterinarian,
				v.VetLicence, v.Certificate, v.RabiesTag)
			return write(cw, rec)
		})
	default:
		return fmt.Errorf("csvio: unknown table %q", t)
	}
	if err != nil {
		return fmt.Errorf("csvio: export %s: %w", t, err)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("csvio: export %s: %w", t, err)
	}
	return nil
}

func fill(rec []string, vals ...string) { copy(rec, vals) }

// write writes rec with every cell neutralised (formula.go).
func write(cw *csv.Writer, rec []string) error {
	for i, c := range rec {
		rec[i] = Neutralise(c)
	}
	return cw.Write(rec)
}

// i64 formats an id, 0 as empty.
func i64(n int64) string {
	if n == 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

func b2s(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
