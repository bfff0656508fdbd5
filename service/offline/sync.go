package offline

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// SyncOpts tune Sync. A nil *SyncOpts means DefaultSyncOpts.
type SyncOpts struct {
	// Batch is the number of events per push; 0 means 100.
	Batch int
	// NoPull pushes only.
	NoPull bool
}

// DefaultSyncOpts are the options for a nil *SyncOpts.
var DefaultSyncOpts = SyncOpts{Batch: 100}

// Report tells what a Sync did.
type Report struct {
	Pushed     int `json:"pushed"`     // events sent
	Applied    int `json:"applied"`    // applied now
	Duplicates int `json:"duplicates"` // applied by an earlier push whose answer was lost
	Rejected   int `json:"rejected"`   // refused by the central store; kept, not sent again
	Records    int `json:"records"`    // records in the replica after the pull
	Queued     int `json:"queued"`     // events still queued
}

// Sync reconciles the replica with the central service: it pushes the
// queued events in the order they were recorded, then replaces the
// replica's records with a fresh pull. The rules are in README.md.
func Sync(ctx context.Context, r *Replica, c Central, o *SyncOpts) (Report, error) {
	if o == nil {
		o = &DefaultSyncOpts
	}
	batch := o.Batch
	if batch <= 0 {
		batch = DefaultSyncOpts.Batch
	}
	var rep Report
	err := r.push(ctx, c, batch, &rep)
	if err == nil && !o.NoPull {
		err = r.pull(ctx, c, &rep)
	}
	q, qerr := r.events(ctx, Queued, -1)
	if qerr != nil && err == nil {
		err = qerr
	}
	rep.Queued = len(q)
	return rep, err
}

// push sends queued events in batches and records each outcome. A failed
// push leaves its events queued.
func (r *Replica) push(ctx context.Context, c Central, batch int, rep *Report) error {
	for {
		queued, err := r.events(ctx, Queued, batch)
		if err != nil || len(queued) == 0 {
			return err
		}
		events := make([]service.DeviceEvent, len(queued))
		for i := range queued {
			events[i] = queued[i].Event
		}
		outcomes, err := c.Push(ctx, events)
		if err != nil {
			return fmt.Errorf("offline: push: %w", err)
		}
		if len(outcomes) != len(events) {
			return fmt.Errorf("offline: push: %d outcomes for %d events", len(outcomes), len(events))
		}
		for i := range outcomes {
			if outcomes[i].ID != events[i].ID {
				return fmt.Errorf("offline: push: outcome %d is for event %s, want %s", i, outcomes[i].ID, events[i].ID)
			}
		}
		rep.Pushed += len(events)
		if err := r.settle(ctx, outcomes, rep); err != nil {
			return err
		}
	}
}

// settle records outcomes in the outbox, in one transaction.
func (r *Replica) settle(ctx context.Context, outcomes []Outcome, rep *Report) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("offline: %w", err)
	}
	defer tx.Rollback()
	now := r.o.Now().UTC().Format(time.RFC3339Nano)
	for _, o := range outcomes {
		detail := ""
		switch {
		case o.State == Applied && o.Duplicate:
			rep.Duplicates++
		case o.State == Applied:
			rep.Applied++
		case o.State == Rejected:
			rep.Rejected++
			detail = o.Code + ": " + o.Message
		default:
			return fmt.Errorf("offline: push: event %s came back %q", o.ID, o.State)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE outbox SET state = ?, detail = ?, record_id = ?, synced_at = ? WHERE id = ? AND state = ?`,
			o.State, detail, o.RecordID, now, o.ID, Queued); err != nil {
			return fmt.Errorf("offline: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("offline: %w", err)
	}
	return nil
}

// pullBatch is the number of records written per transaction while a
// pull fills the new tables; between batches, events can be queued.
const pullBatch = 500

// pull fills fresh tables with the central's records, a batch per
// transaction, then swaps them for the live ones in one short
// transaction: lookups see the old replica or the new one, never a mix,
// and a pull cut short leaves the old one as it was.
func (r *Replica) pull(ctx context.Context, c Central, rep *Report) (err error) {
	drop := `DROP TABLE IF EXISTS records_next; DROP TABLE IF EXISTS chips_next; DROP TABLE IF EXISTS tags_next;`
	if _, err := r.db.ExecContext(ctx, drop+recordTables("_next")); err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	defer func() {
		if err != nil {
			r.db.ExecContext(context.WithoutCancel(ctx), drop)
		}
	}()
	var tx *sql.Tx
	defer func() {
		if tx != nil {
			tx.Rollback()
		}
	}()
	n := 0
	err = c.Pull(ctx, func(rec *service.Record) error {
		if tx == nil {
			var err error
			if tx, err = r.db.BeginTx(ctx, nil); err != nil {
				return err
			}
		}
		body, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO records_next (animal_id, body) VALUES (?, ?)`, rec.Animal.ID, string(body)); err != nil {
			return err
		}
		for _, ch := range rec.Chips {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO chips_next (code, animal_id) VALUES (?, ?)`, ch.Code, rec.Animal.ID); err != nil {
				return err
			}
		}
		for _, l := range rec.Licences {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO tags_next (jurisdiction, year, tag, animal_id) VALUES (?, ?, ?, ?)`,
				l.Jurisdiction, l.Year, l.TagNumber, rec.Animal.ID); err != nil {
				return err
			}
		}
		n++
		if n%pullBatch == 0 {
			err := tx.Commit()
			tx = nil
			return err
		}
		return nil
	})
	if err == nil && tx != nil {
		err = tx.Commit()
		tx = nil
	}
	if err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	swap, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	defer swap.Rollback()
	for _, stmt := range []string{
		`DROP TABLE records`, `DROP TABLE chips`, `DROP TABLE tags`,
		`ALTER TABLE records_next RENAME TO records`, `ALTER TABLE chips_next RENAME TO chips`, `ALTER TABLE tags_next RENAME TO tags`,
	} {
		if _, err := swap.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("offline: pull: %w", err)
		}
	}
	if _, err := swap.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES ('pulled_at', ?)`,
		r.o.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	if err := swap.Commit(); err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	rep.Records = n
	return nil
}
