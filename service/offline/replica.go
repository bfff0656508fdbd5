package offline

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
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

// State is where a queued event is.
type State string

// Event states: queued until the central store answers, then applied
// (including a duplicate of an event applied before) or rejected.
const (
	Queued   State = "queued"
	Applied  State = "applied"
	Rejected State = "rejected"
)

// Opts configure a Replica. A nil *Opts means DefaultOpts.
type Opts struct {
	// Device names the handheld on every event it records.
	Device string
	// User and Site are stamped on events (the officer and the place).
	User, Site string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultOpts are the options for a nil *Opts.
var DefaultOpts = Opts{Device: "handheld"}

// Replica is a handheld's local copy of what an officer needs, and its
// queue of events recorded offline.
type Replica struct {
	db   *sql.DB
	path string
	o    Opts
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
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("offline: open: %w", err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, replicaSchema+recordTables("")); err != nil {
		db.Close()
		return nil, fmt.Errorf("offline: open %s: %w", path, err)
	}
	r.db = db
	return r, nil
}

// String names the replica.
func (r *Replica) String() string { return "offline:" + r.path }

// Close closes the file.
func (r *Replica) Close() error { return r.db.Close() }

// FindRecordByChip finds the animal carrying the normalised chip code in
// the replica. ENOTFOUND when the replica does not know it (a chip
// implanted since the last sync is not known offline).
func (r *Replica) FindRecordByChip(ctx context.Context, code string) (*service.Record, error) {
	rec, err := r.record(ctx, `SELECT body FROM records WHERE animal_id = (SELECT animal_id FROM chips WHERE code = ?)`, code)
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
	rec, err := r.record(ctx, `SELECT body FROM records WHERE animal_id =
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

func (r *Replica) record(ctx context.Context, query string, args ...any) (*service.Record, error) {
	var body string
	err := r.db.QueryRowContext(ctx, query, args...).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, service.Errorf(service.ENOTFOUND, "No animal has that identifier in the offline copy.")
	} else if err != nil {
		return nil, fmt.Errorf("offline: lookup: %w", err)
	}
	var rec service.Record
	if err := unmarshal([]byte(body), &rec); err != nil {
		return nil, fmt.Errorf("offline: lookup: %w", err)
	}
	return &rec, nil
}

// RecordScan queues a chip read. The animal the replica knows for the
// chip is noted on the scan, but the central store decides it again when
// the event is applied.
func (r *Replica) RecordScan(ctx context.Context, id chipid.ID, reader string) (*service.DeviceEvent, error) {
	s := &service.Scan{Reader: reader, ChipCode: id.Code, ChipKind: id.Kind}
	if rec, err := r.FindRecordByChip(ctx, id.Code); err == nil {
		s.AnimalID = rec.Animal.ID
	} else if service.ErrorCode(err) != service.ENOTFOUND {
		return nil, err
	}
	return r.enqueue(ctx, &service.DeviceEvent{Kind: service.DeviceScan, Scan: s})
}

// RecordBite queues a bite report on an animal the replica knows (its
// central id, from a lookup).
func (r *Replica) RecordBite(ctx context.Context, b *service.BiteIncident) (*service.DeviceEvent, error) {
	if b.AnimalID == 0 {
		return nil, service.Errorf(service.EINVALID, "Bite animal required: look the animal up first.")
	}
	return r.enqueue(ctx, &service.DeviceEvent{Kind: service.DeviceBite, Bite: b})
}

// enqueue gives e its id (a random UUID: the idempotency key of every
// push), device, user, site and time, and stores it durably.
func (r *Replica) enqueue(ctx context.Context, e *service.DeviceEvent) (*service.DeviceEvent, error) {
	e.ID = uuid.NewString()
	e.Device, e.User, e.Site = r.o.Device, r.o.User, r.o.Site
	e.At = r.o.Now().UTC()
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

// PulledAt is when the replica's records were last replaced by a pull;
// zero before the first.
func (r *Replica) PulledAt(ctx context.Context) (time.Time, error) {
	var v string
	err := r.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'pulled_at'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	} else if err != nil {
		return time.Time{}, fmt.Errorf("offline: %w", err)
	}
	return time.Parse(time.RFC3339Nano, v)
}
