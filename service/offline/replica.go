package offline

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite" // the replica is an SQLite file

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// replicaSchema is the handheld's database: the records an officer may
// look up (each as the JSON of a minimal service.Record), their chip and
// tag keys, and the outbox of events recorded offline.
const replicaSchema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS outbox (
	seq       INTEGER PRIMARY KEY,
	id        TEXT NOT NULL UNIQUE,
	event     TEXT NOT NULL,
	state     TEXT NOT NULL DEFAULT 'queued',
	detail    TEXT NOT NULL DEFAULT '',
	record_id INTEGER NOT NULL DEFAULT 0,
	synced_at TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS outbox_state ON outbox (state, seq);
`

// recordTables creates the looked-up tables with a name suffix: "" for
// the live ones, "_next" for those a pull fills before it swaps them in.
func recordTables(suffix string) string {
	return `
CREATE TABLE IF NOT EXISTS records` + suffix + ` (animal_id INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chips` + suffix + ` (code TEXT PRIMARY KEY, animal_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tags` + suffix + ` (
	jurisdiction TEXT NOT NULL, year INTEGER NOT NULL, tag INTEGER NOT NULL, animal_id INTEGER NOT NULL,
	PRIMARY KEY (jurisdiction, year, tag));
`
}

// keyIndexes index the live tables' keys by animal, for an incremental
// pull's merge; a full pull's new tables get them once filled.
const keyIndexes = `
CREATE INDEX IF NOT EXISTS chips_animal ON chips (animal_id);
CREATE INDEX IF NOT EXISTS tags_animal ON tags (animal_id);
`

// State is where a queued event is (service.DeviceEventState).
type State = service.DeviceEventState

// Event states: queued until the central store answers, then applied
// (including a duplicate of an event applied before) or rejected.
const (
	Queued   = service.DeviceQueued
	Applied  = service.DeviceApplied
	Rejected = service.DeviceRejected
)

// Opts configure a Replica. A nil *Opts means DefaultOpts.
type Opts struct {
	// Device names the handheld on every event it records.
	Device string
	// User and Site are stamped on events (the officer and the place).
	User, Site string
	// Now is the clock; nil means time.Now. Location is the zone of the
	// officer's dates (a bite's day); nil means UTC.
	Now      func() time.Time
	Location *time.Location
	// MaxAge is how old the copy may be (since its last pull) before
	// lookups are refused until the handheld syncs; 0 means
	// DefaultMaxAge, negative never refuses. Events are queued however
	// old the copy is.
	MaxAge time.Duration
	// PIN is the officer's PIN: it unwraps the data key the copy's
	// records are sealed with (a pull wraps the key with it). Never
	// stored.
	PIN string
}

// DefaultMaxAge is a replica's MaxAge when its Opts set none: a copy
// three days old may miss a designation, a quarantine or a revoked tag.
const DefaultMaxAge = 72 * time.Hour

// DefaultOpts are the options for a nil *Opts.
var DefaultOpts = Opts{Device: "handheld"}

// Replica is a handheld's local copy of what an officer needs, and its
// queue of events recorded offline.
type Replica struct {
	db   *sql.DB
	path string
	o    Opts
	key  []byte // the data key, once the PIN unwrapped it
}

// Open opens (creating if needed) the replica file at path.
func Open(ctx context.Context, path string, o *Opts) (*Replica, error) {
	if o == nil {
		o = &DefaultOpts
	}
	r := &Replica{path: path, o: *o}
	if r.o.Device == "" {
		r.o.Device = DefaultOpts.Device
	}
	if r.o.Now == nil {
		r.o.Now = time.Now
	}
	if r.o.Location == nil {
		r.o.Location = time.UTC
	}
	if r.o.MaxAge == 0 {
		r.o.MaxAge = DefaultMaxAge
	}
	if err := refuseForeign(ctx, path); err != nil {
		return nil, err
	}
	// Readable by the officer's user only: it holds owners' names and
	// phones. Created so, and made so if an older version left it wider.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		return nil, fmt.Errorf("offline: open: %w", err)
	} else {
		f.Close()
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("offline: open: %w", err)
		}
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+
		"?_pragma=auto_vacuum(INCREMENTAL)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_pragma=secure_delete(ON)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("offline: open: %w", err)
	}
	db.SetMaxOpenConns(1)
	r.db = db
	if err := r.init(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("offline: open %s: %w", path, err)
	}
	return r, nil
}

// ApplicationID marks a replica file in its SQLite header (PRAGMA
// application_id): "CDRP", chipdesk replica.
const ApplicationID = 0x43445250

// init creates the schema and marks the file as a replica. A file made
// before incremental vacuuming is vacuumed once, to switch it on.
func (r *Replica) init(ctx context.Context) error {
	var av int
	if err := r.db.QueryRowContext(ctx, `PRAGMA auto_vacuum`).Scan(&av); err != nil {
		return err
	}
	if av != 2 {
		if _, err := r.db.ExecContext(ctx, `PRAGMA auto_vacuum = INCREMENTAL; VACUUM`); err != nil {
			return err
		}
	}
	_, err := r.db.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d;`, ApplicationID)+replicaSchema+recordTables("")+keyIndexes+
		`INSERT OR IGNORE INTO meta (key, value) VALUES ('kind', 'chipdesk handheld replica');`)
	return err
}

// IsReplica reports whether the file at path is a handheld's replica (by
// its header mark, or the meta table of a replica made before it), so
// that the service refuses to take one for its database.
func IsReplica(path string) bool {
	id, tables, err := peek(path)
	return err == nil && (id == ApplicationID || tables["outbox"] && tables["meta"] && !tables["migrations"])
}

// refuseForeign refuses a file that is an SQLite database of something
// else: above all the central service's own, whose tables a pull would
// rewrite.
func refuseForeign(ctx context.Context, path string) error {
	id, tables, err := peek(path)
	if err != nil || len(tables) == 0 || id == ApplicationID {
		return nil // new, empty, not SQLite (Open says so), or a replica
	}
	if tables["migrations"] || tables["animals"] || tables["owners"] {
		return service.Invalidf("replica", "%s is the central service's database, not a handheld's replica: give --replica a file of its own.", path)
	}
	if !tables["outbox"] && !tables["meta"] {
		return service.Invalidf("replica", "%s is an SQLite database of something else, not a handheld's replica.", path)
	}
	return nil
}

// peek reads a file's SQLite application id and table names without
// changing it; a missing or empty file has neither.
func peek(path string) (int, map[string]bool, error) {
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return 0, nil, err
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, nil, err
	}
	defer db.Close()
	var id int
	if err := db.QueryRow(`PRAGMA application_id`).Scan(&id); err != nil {
		return 0, nil, err
	}
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	tables := map[string]bool{}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return 0, nil, err
		}
		tables[n] = true
	}
	return id, tables, rows.Err()
}

// String names the replica.
func (r *Replica) String() string { return "offline:" + r.path }

// Close closes the file.
func (r *Replica) Close() error { return r.db.Close() }

// FindRecordByChip finds the animal carrying the normalised chip code in
// the replica. ENOTFOUND when the replica does not know it (a chip
// implanted since the last sync is not known offline).
func (r *Replica) FindRecordByChip(ctx context.Context, code string) (*service.Record, error) {
	rec, err := r.record(ctx, `SELECT animal_id, body FROM records WHERE animal_id = (SELECT animal_id FROM chips WHERE code = ?)`, code)
	if err != nil {
		return nil, err
	}
	for i := range rec.Chips {
		if rec.Chips[i].Code == code {
			c := rec.Chips[i]
			rec.MatchedChip = &c
		}
	}
	return rec, nil
}

// FindRecordByTag finds the animal by licence tag number. The matched
// licence may be revoked or replaced: a stolen tag.
func (r *Replica) FindRecordByTag(ctx context.Context, jurisdiction string, year, tag int) (*service.Record, error) {
	rec, err := r.record(ctx, `SELECT animal_id, body FROM records WHERE animal_id =
		(SELECT animal_id FROM tags WHERE jurisdiction = ? AND year = ? AND tag = ?)`, jurisdiction, year, tag)
	if err != nil {
		return nil, err
	}
	for i := range rec.Licences {
		if l := rec.Licences[i]; l.Jurisdiction == jurisdiction && l.Year == year && l.TagNumber == tag {
			rec.MatchedLicence = &l
		}
	}
	return rec, nil
}

// FindRecordByAnimal finds an animal of the replica by its central id.
func (r *Replica) FindRecordByAnimal(ctx context.Context, id int64) (*service.Record, error) {
	return r.record(ctx, `SELECT animal_id, body FROM records WHERE animal_id = ?`, id)
}

var _ service.RecordService = (*Replica)(nil)

// Stale reports why the copy may not answer lookups (never pulled, or
// pulled longer than MaxAge ago), nil when it may.
func (r *Replica) Stale(ctx context.Context) error {
	if r.o.MaxAge < 0 {
		return nil
	}
	at, err := r.PulledAt(ctx)
	if err != nil {
		return err
	}
	if at.IsZero() {
		return service.Errorf(service.ECONFLICT, "The offline copy was never pulled: sync the handheld before looking animals up.")
	}
	if age := r.o.Now().Sub(at); age > r.o.MaxAge {
		return service.Errorf(service.ECONFLICT, "The offline copy is of %s, older than %s: sync the handheld before looking animals up (a designation, a quarantine or a stolen tag since then would be missed).",
			at.UTC().Format("2006-01-02 15:04Z"), r.o.MaxAge)
	}
	return nil
}

func (r *Replica) record(ctx context.Context, query string, args ...any) (*service.Record, error) {
	if err := r.Stale(ctx); err != nil {
		return nil, err
	}
	var body string
	var id int64
	err := r.db.QueryRowContext(ctx, query, args...).Scan(&id, &body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, service.Errorf(service.ENOTFOUND, "No animal has that identifier in the offline copy.")
	} else if err != nil {
		return nil, fmt.Errorf("offline: lookup: %w", err)
	}
	plain, err := r.unseal(ctx, id, body)
	if err != nil {
		return nil, err
	}
	var rec service.Record
	if err := unmarshal(plain, &rec); err != nil {
		return nil, fmt.Errorf("offline: lookup: %w", err)
	}
	return &rec, nil
}

// RecordScan queues a chip read. The animal the replica knows for the
// chip is noted on the scan, but the central store decides it again when
// the event is applied.
func (r *Replica) RecordScan(ctx context.Context, id chipid.ID, reader string) (*service.DeviceEvent, error) {
	s := &service.Scan{Reader: reader, ChipCode: id.Code, ChipKind: id.Kind}
	var animal int64
	if err := r.db.QueryRowContext(ctx, `SELECT animal_id FROM chips WHERE code = ?`, id.Code).Scan(&animal); err == nil {
		s.AnimalID = animal
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("offline: scan: %w", err)
	}
	return r.enqueue(ctx, &service.DeviceEvent{Kind: service.DeviceScan, Scan: s})
}

// RecordBite queues a bite report on an animal the replica knows (its
// central id, from a lookup).
func (r *Replica) RecordBite(ctx context.Context, b *service.BiteIncident) (*service.DeviceEvent, error) {
	if b.AnimalID == 0 {
		return nil, service.Errorf(service.EINVALID, "Bite animal required: look the animal up first.")
	}
	// A bite in the future is refused now, as the central service would
	// refuse it at the push; no date is the day it is recorded.
	if err := service.NotFuture("date", b.Date, service.DateIn(r.o.Now(), r.o.Location)); err != nil {
		return nil, err
	}
	return r.enqueue(ctx, &service.DeviceEvent{Kind: service.DeviceBite, Bite: b})
}

// RecordImpound queues an animal picked up in the field (its central id,
// from a lookup): the central service makes the impoundment and its hold
// when the event is pushed; the intake time is the event's.
func (r *Replica) RecordImpound(ctx context.Context, im *service.Impoundment) (*service.DeviceEvent, error) {
	if im.AnimalID == 0 {
		return nil, service.Invalidf("animal_id", "Impound animal required: look the animal up first.")
	}
	e, err := r.enqueue(ctx, &service.DeviceEvent{Kind: service.DeviceImpound, Impound: im}, func(e *service.DeviceEvent) {
		im.IntakeAt, im.Site = e.At, e.Site
	})
	return e, err
}

// RecordNote queues a field note on an animal the replica knows (its
// central id, from a lookup): pushed, it is a note on the animal's
// record, by the pushing officer.
func (r *Replica) RecordNote(ctx context.Context, animalID int64, text string) (*service.DeviceEvent, error) {
	n := &service.AnimalNote{AnimalID: animalID, Text: text}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return r.enqueue(ctx, &service.DeviceEvent{Kind: service.DeviceNote, Note: n}, func(e *service.DeviceEvent) {
		n.At, n.Author, n.Site, n.Device = e.At, e.User, e.Site, e.Device
	})
}

// enqueue gives e its id (a random UUID: the idempotency key of every
// push), device, user, site and time, and stores it durably.
func (r *Replica) enqueue(ctx context.Context, e *service.DeviceEvent, fill ...func(*service.DeviceEvent)) (*service.DeviceEvent, error) {
	e.ID = uuid.NewString()
	e.Device, e.User, e.Site = r.o.Device, r.o.User, r.o.Site
	e.At = r.o.Now().UTC()
	for _, f := range fill {
		f(e)
	}
	if e.Scan != nil {
		e.Scan.At, e.Scan.User, e.Scan.Site = e.At, e.User, e.Site
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	body, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("offline: queue: %w", err)
	}
	if _, err := r.db.ExecContext(ctx, `INSERT INTO outbox (id, event) VALUES (?, ?)`, e.ID, string(body)); err != nil {
		return nil, fmt.Errorf("offline: queue: %w", err)
	}
	return e, nil
}

// QueuedEvent is an event in the outbox with where it is.
type QueuedEvent struct {
	Event    service.DeviceEvent `json:"event"`
	State    State               `json:"state"`
	Detail   string              `json:"detail,omitempty"`
	RecordID int64               `json:"record_id,omitempty"`
}

// Events lists the outbox in the order the events were recorded; an
// empty state lists all.
func (r *Replica) Events(ctx context.Context, state State) ([]QueuedEvent, error) {
	return r.events(ctx, state, -1)
}

func (r *Replica) events(ctx context.Context, state State, limit int) ([]QueuedEvent, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT event, state, detail, record_id FROM outbox
		WHERE ? = '' OR state = ? ORDER BY seq LIMIT ?`, state, state, limit)
	if err != nil {
		return nil, fmt.Errorf("offline: outbox: %w", err)
	}
	defer rows.Close()
	var out []QueuedEvent
	for rows.Next() {
		var q QueuedEvent
		var body string
		if err := rows.Scan(&body, &q.State, &q.Detail, &q.RecordID); err != nil {
			return nil, fmt.Errorf("offline: outbox: %w", err)
		}
		if err := unmarshal([]byte(body), &q.Event); err != nil {
			return nil, fmt.Errorf("offline: outbox: %w", err)
		}
		out = append(out, q)
	}
	return out, rows.Err()
}

// PulledAt is when the replica's records were last brought up to date
// by a pull; zero before the first.
func (r *Replica) PulledAt(ctx context.Context) (time.Time, error) {
	v, err := r.meta(ctx, "pulled_at")
	if err != nil || v == "" {
		return time.Time{}, err
	}
	return time.Parse(time.RFC3339Nano, v)
}

// meta is a meta key's value, "" when unset.
func (r *Replica) meta(ctx context.Context, key string) (string, error) {
	var v string
	err := r.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("offline: %w", err)
	}
	return v, nil
}

// count is the number of events in state.
func (r *Replica) count(ctx context.Context, state State) (int, error) {
	var n int
	if err := r.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE state = ?`, state).Scan(&n); err != nil {
		return 0, fmt.Errorf("offline: outbox: %w", err)
	}
	return n, nil
}

// AnimalOfChip is the central id of the animal the replica knows for a
// chip code, ENOTFOUND when it knows none. It answers however old the
// copy is (an animal's id does not change); it is how a bite recorded
// in the field names its animal.
func (r *Replica) AnimalOfChip(ctx context.Context, code string) (int64, error) {
	var id int64
	err := r.db.QueryRowContext(ctx, `SELECT animal_id FROM chips WHERE code = ?`, code).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, service.Invalidf("chip", "Chip %s is not in the offline copy: sync the handheld, or record the bite at the office.", code)
	} else if err != nil {
		return 0, fmt.Errorf("offline: %w", err)
	}
	return id, nil
}

// Requeue puts rejected events back in the queue, to be pushed again
// with their ids at the next sync (after the cause was put right at the
// central service: an animal added, a clock set). No ids requeues every
// rejected event. It returns the number requeued; an id that is not
// rejected is EINVALID.
func (r *Replica) Requeue(ctx context.Context, ids ...string) (int, error) {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("offline: %w", err)
	}
	defer tx.Rollback()
	n := 0
	if len(ids) == 0 {
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET state = ?, detail = '', synced_at = '' WHERE state = ?`, Queued, Rejected)
		if err != nil {
			return 0, fmt.Errorf("offline: %w", err)
		}
		m, _ := res.RowsAffected()
		n = int(m)
	}
	for _, id := range ids {
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET state = ?, detail = '', synced_at = '' WHERE id = ? AND state = ?`, Queued, id, Rejected)
		if err != nil {
			return 0, fmt.Errorf("offline: %w", err)
		}
		if m, _ := res.RowsAffected(); m == 0 {
			return 0, service.Invalidf("id", "Event %s is not a rejected event of this handheld.", id)
		}
		n++
	}
	return n, tx.Commit()
}

// EachRecord calls fn with every record of the replica, by animal id,
// however old the copy is (an export, a check of what a lost handheld
// held).
func (r *Replica) EachRecord(ctx context.Context, fn func(*service.Record) error) error {
	rows, err := r.db.QueryContext(ctx, `SELECT animal_id, body FROM records ORDER BY animal_id`)
	if err != nil {
		return fmt.Errorf("offline: records: %w", err)
	}
	type stored struct {
		id   int64
		body string
	}
	var bodies []stored
	for rows.Next() {
		var b stored
		if err := rows.Scan(&b.id, &b.body); err != nil {
			rows.Close()
			return fmt.Errorf("offline: records: %w", err)
		}
		bodies = append(bodies, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("offline: records: %w", err)
	}
	for _, b := range bodies {
		plain, err := r.unseal(ctx, b.id, b.body)
		if err != nil {
			return err
		}
		var rec service.Record
		if err := unmarshal(plain, &rec); err != nil {
			return fmt.Errorf("offline: records: %w", err)
		}
		if err := fn(&rec); err != nil {
			return err
		}
	}
	return nil
}

// Keys lists the replica's lookup keys, "chip CODE -> ID" and
// "tag JURISDICTION YEAR NUMBER -> ID", in order: with EachRecord, all
// that a pull wrote.
func (r *Replica) Keys(ctx context.Context) ([]string, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT 'chip ' || code || ' -> ' || animal_id FROM chips
		UNION ALL SELECT 'tag ' || jurisdiction || ' ' || year || ' ' || tag || ' -> ' || animal_id FROM tags ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("offline: keys: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("offline: keys: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}
