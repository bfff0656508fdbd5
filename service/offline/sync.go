package offline

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// SyncOpts tune Sync. A nil *SyncOpts means DefaultSyncOpts.
type SyncOpts struct {
	// Batch is the number of events per push; 0 means 100.
	Batch int
	// NoPull pushes only; NoPush pulls only.
	NoPull, NoPush bool
	// Full pulls everything, not only what changed since the last pull.
	Full bool
	// Retry is how a push or a pull that failed in transit is tried
	// again; the zero value means DefaultRetry.
	Retry Retry
}

// DefaultSyncOpts are the options for a nil *SyncOpts.
var DefaultSyncOpts = SyncOpts{Batch: 100}

// Report tells what a Sync did.
type Report struct {
	Pushed     int `json:"pushed"`     // events sent
	Applied    int `json:"applied"`    // applied now
	Duplicates int `json:"duplicates"` // applied by an earlier push whose answer was lost
	Rejected   int `json:"rejected"`   // refused by the central store; kept, not sent again
	// Pulled is the number of records the pull sent (all of them, or
	// those changed), Dropped the animals it removed; Full tells a full
	// pull.
	Pulled  int  `json:"pulled"`
	Dropped int  `json:"dropped"`
	Full    bool `json:"full"`
	Records int  `json:"records"` // records in the replica after the pull
	// Queued is the number of events still queued; -1 when it could not
	// be counted (never reported as 0 then).
	Queued int `json:"queued"`
}

func (rep *Report) count(o Outcome) {
	switch {
	case o.State == Applied && o.Duplicate:
		rep.Duplicates++
	case o.State == Applied:
		rep.Applied++
	case o.State == Rejected:
		rep.Rejected++
	}
}

// Sync reconciles the replica with the central service: it pushes the
// queued events in the order they were recorded, then pulls what changed
// since the last pull (everything the first time). The rules are in
// README.md.
func Sync(ctx context.Context, r *Replica, c Central, o *SyncOpts) (Report, error) {
	if o == nil {
		o = &DefaultSyncOpts
	}
	batch := o.Batch
	if batch <= 0 {
		batch = DefaultSyncOpts.Batch
	}
	var rep Report
	var err error
	if !o.NoPush {
		err = o.Retry.Do(ctx, func() error { return r.push(ctx, c, batch, &rep) })
	}
	if err == nil && !o.NoPull {
		err = o.Retry.Do(ctx, func() error { return r.pull(ctx, c, o.Full, &rep) })
	}
	// Counted even when ctx has ended (a push cut short by the officer):
	// the queue is what the officer must know about.
	rep.Queued = -1
	if n, qerr := r.count(context.WithoutCancel(ctx), Queued); qerr == nil {
		rep.Queued = n
	} else if err == nil {
		err = qerr
	}
	return rep, err
}

// Retry tries a step again after a failure in transit, waiting First,
// then twice as long each time up to Max, Attempts times in all. A
// refusal (a 4xx answer, a typed service error) or the end of the
// context is not retried.
type Retry struct {
	Attempts   int
	First, Max time.Duration
	// Sleep waits d or until ctx ends; nil waits on a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultRetry is the Retry of a zero Retry: four attempts over about
// seven seconds.
var DefaultRetry = Retry{Attempts: 4, First: time.Second, Max: 4 * time.Second}

// Do runs fn until it succeeds, fails for good, or the attempts are
// spent; it returns fn's last error.
func (o Retry) Do(ctx context.Context, fn func() error) error {
	if o.Attempts <= 0 {
		o.Attempts, o.First, o.Max = DefaultRetry.Attempts, DefaultRetry.First, DefaultRetry.Max
	}
	sleep := o.Sleep
	if sleep == nil {
		sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	wait := o.First
	for i := 1; ; i++ {
		err := fn()
		if err == nil || i >= o.Attempts || permanent(ctx, err) {
			return err
		}
		if serr := sleep(ctx, wait); serr != nil {
			return err
		}
		wait = min(2*wait, max(o.Max, o.First))
	}
}

// permanent reports whether err would come back on a retry.
func permanent(ctx context.Context, err error) bool {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return true
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Permanent()
	}
	var ve *service.Error
	return errors.As(err, &ve) && ve.Code != service.EINTERNAL
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
		switch o.State {
		case Applied:
		case Rejected:
			detail = o.Code + ": " + o.Message
		default:
			return fmt.Errorf("offline: push: event %s came back %q", o.ID, o.State)
		}
		rep.count(o)
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

// pull fills fresh tables with what the central sends, a batch per
// transaction, then in one short transaction swaps them for the live
// ones (a full pull) or merges them in (an incremental one): lookups see
// the old replica or the new one, never a mix, and a pull cut short
// leaves the old one as it was. The file is compacted after.
func (r *Replica) pull(ctx context.Context, c Central, full bool, rep *Report) (err error) {
	drop := `DROP TABLE IF EXISTS records_next; DROP TABLE IF EXISTS chips_next; DROP TABLE IF EXISTS tags_next; DROP TABLE IF EXISTS gone_next;`
	if _, err := r.db.ExecContext(ctx, drop+recordTables("_next")+`CREATE TABLE gone_next (animal_id INTEGER PRIMARY KEY);`); err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	defer func() {
		if err != nil {
			r.db.ExecContext(context.WithoutCancel(ctx), drop)
		}
	}()
	// The device's data key, issued to this device's token only: a
	// revoked device gets none, and pulls nothing. A copy sealed with
	// another key (or none) is pulled in full under this one.
	// The PIN is checked on the copy first, before the central service
	// is asked.
	if r.o.PIN == "" {
		return errNoPIN
	}
	if _, err := r.dataKey(ctx); err != nil {
		return err
	}
	key, err := c.DeviceKey(ctx)
	if err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	keyMeta, rekeyed, err := r.rekey(ctx, key)
	if err != nil {
		return err
	}
	full = full || rekeyed
	since := ""
	if !full {
		if since, err = r.meta(ctx, "cursor"); err != nil {
			return err
		}
	}
	sealer, err := newBodySealer(key.Key)
	if err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	// The writes of the new tables run without ctx's cancellation: they
	// are a few microseconds each, and with a context that can end
	// database/sql and the driver each start a goroutine per statement to
	// watch it. Reading the answer still ends with ctx, and so does the
	// pull.
	wctx := context.WithoutCancel(ctx)
	var tx *sql.Tx
	var gone *sql.Stmt
	defer func() {
		if tx != nil {
			tx.Rollback()
		}
	}()
	// The rows are written putRows at a time, in one statement per
	// table: a statement per row (three a record) was most of the
	// writing's time.
	records := &rowsInsert{q: `INSERT OR REPLACE INTO records_next (animal_id, body) VALUES `, width: 2}
	chips := &rowsInsert{q: `INSERT OR REPLACE INTO chips_next (code, animal_id) VALUES `, width: 2}
	tags := &rowsInsert{q: `INSERT OR REPLACE INTO tags_next (jurisdiction, year, tag, animal_id) VALUES `, width: 4}
	inserts := []*rowsInsert{records, chips, tags}
	flush := func() error {
		for _, in := range inserts {
			if err := in.flush(wctx, tx); err != nil {
				return err
			}
		}
		return nil
	}
	sent, dropped := 0, 0
	put := func(it rawItem) error {
		if tx == nil {
			var err error
			if tx, err = r.db.BeginTx(wctx, nil); err != nil {
				return err
			}
			// Prepared once a batch: parsing each statement anew was
			// most of a large pull's time.
			if gone, err = tx.PrepareContext(wctx, `INSERT OR IGNORE INTO gone_next (animal_id) VALUES (?)`); err != nil {
				return err
			}
			for _, in := range inserts {
				in.st = nil
			}
		}
		if it.Deleted != 0 {
			dropped++
			_, err := gone.ExecContext(wctx, it.Deleted)
			return err
		}
		k := &it.keys
		if err := records.add(wctx, tx, k.Animal.ID, it.sealed); err != nil {
			return err
		}
		for _, ch := range k.Chips {
			if err := chips.add(wctx, tx, ch.Code, k.Animal.ID); err != nil {
				return err
			}
		}
		for _, l := range k.Licences {
			if err := tags.add(wctx, tx, l.Jurisdiction, l.Year, l.TagNumber, k.Animal.ID); err != nil {
				return err
			}
		}
		sent++
		if sent%pullBatch == 0 {
			if err := flush(); err != nil {
				return err
			}
			err := tx.Commit()
			tx = nil
			return err
		}
		return nil
	}
	// The answer is read, decoded and sealed ahead of the writing, in a
	// goroutine of its own: each takes about half of a pull's time.
	var end Pulled
	err = ahead(ctx, 256, func(ctx context.Context, emit func(rawItem) error) error {
		sealed := func(it rawItem) error {
			if it.Deleted == 0 {
				var err error
				if it.sealed, err = sealer.seal(it.keys.Animal.ID, it.Body); err != nil {
					return err
				}
			}
			return emit(it)
		}
		var err error
		if rc, ok := c.(rawPuller); ok {
			end, err = rc.pullRaw(ctx, since, sealed)
		} else {
			end, err = c.Pull(ctx, since, func(it Item) error {
				if it.Record == nil {
					return sealed(rawItem{Deleted: it.Deleted})
				}
				return sealed(rawOf(it.Record))
			})
		}
		return err
	}, put)
	if err == nil && tx != nil {
		if err = flush(); err == nil {
			err = tx.Commit()
			tx = nil
		}
	}
	if err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	if rekeyed && !end.Full {
		return fmt.Errorf("offline: pull: the central service answered a pull of everything with changes only")
	}
	if end.Full && dropped > 0 {
		return fmt.Errorf("offline: pull: a full pull named %d animals to drop", dropped)
	}
	swap, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	defer swap.Rollback()
	// Each step's count is the sign with which the rows it changes
	// change the number of records (0: not records).
	type step struct {
		q     string
		count int
	}
	steps := []step{
		{`DROP TABLE records`, 0}, {`DROP TABLE chips`, 0}, {`DROP TABLE tags`, 0}, {`DROP TABLE gone_next`, 0},
		{`ALTER TABLE records_next RENAME TO records`, 0}, {`ALTER TABLE chips_next RENAME TO chips`, 0},
		{`ALTER TABLE tags_next RENAME TO tags`, 0}, {keyIndexes, 0},
	}
	if !end.Full {
		// Every animal the pull names loses its rows; those sent get
		// their new ones.
		steps = []step{
			{`INSERT OR IGNORE INTO gone_next SELECT animal_id FROM records_next`, 0},
			{`DELETE FROM records WHERE animal_id IN (SELECT animal_id FROM gone_next)`, -1},
			{`DELETE FROM chips WHERE animal_id IN (SELECT animal_id FROM gone_next)`, 0},
			{`DELETE FROM tags WHERE animal_id IN (SELECT animal_id FROM gone_next)`, 0},
			{`INSERT INTO records SELECT animal_id, body FROM records_next`, +1},
			{`INSERT OR REPLACE INTO chips SELECT code, animal_id FROM chips_next`, 0},
			{`INSERT OR REPLACE INTO tags SELECT jurisdiction, year, tag, animal_id FROM tags_next`, 0},
			{`DROP TABLE records_next`, 0}, {`DROP TABLE chips_next`, 0}, {`DROP TABLE tags_next`, 0}, {`DROP TABLE gone_next`, 0},
		}
	}
	// The records are counted as the merge changes them (meta records):
	// a COUNT(*) reads every page of the table, seconds at a million
	// records, where an incremental pull changes a few. A full pull, and
	// a copy that has no count yet, count them.
	count := -1
	if !end.Full {
		// Read in the swap's transaction: the replica has one connection.
		var v string
		err := swap.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'records'`).Scan(&v)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("offline: pull: %w", err)
		}
		if n, err := strconv.Atoi(v); err == nil {
			count = n
		}
	}
	for _, st := range steps {
		res, err := swap.ExecContext(ctx, st.q)
		if err != nil {
			return fmt.Errorf("offline: pull: %w", err)
		}
		if count >= 0 && st.count != 0 {
			n, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("offline: pull: %w", err)
			}
			count += st.count * int(n)
		}
	}
	if count < 0 {
		if err := swap.QueryRowContext(ctx, `SELECT COUNT(*) FROM records`).Scan(&count); err != nil {
			return fmt.Errorf("offline: pull: %w", err)
		}
	}
	rep.Records = count
	now := r.o.Now().UTC().Format(time.RFC3339Nano)
	if err := putMeta(ctx, swap, "pulled_at", now, "cursor", end.Cursor); err != nil {
		return err
	}
	if end.Full {
		if err := putMeta(ctx, swap, "full_pulled_at", now); err != nil {
			return err
		}
	}
	if err := putMeta(ctx, swap, keyMeta...); err != nil {
		return err
	}
	if err := putMeta(ctx, swap, "records", strconv.Itoa(count)); err != nil {
		return err
	}
	if err := swap.Commit(); err != nil {
		return fmt.Errorf("offline: pull: %w", err)
	}
	rep.Pulled, rep.Dropped, rep.Full = sent, dropped, end.Full
	r.key = key.Key
	return r.compact(ctx)
}

// putRows is the number of rows a rowsInsert writes per statement.
const putRows = 64

// rowsInsert writes rows of one table putRows to a statement, in the
// order added: INSERT OR REPLACE of many rows is the statements of each
// row, one after the other.
type rowsInsert struct {
	q     string // the INSERT up to VALUES
	width int    // values per row
	args  []any  // of the rows not yet written
	st    *sql.Stmt
}

// add adds one row's values, writing the rows when putRows are waiting.
func (in *rowsInsert) add(ctx context.Context, tx *sql.Tx, v ...any) error {
	in.args = append(in.args, v...)
	if len(in.args) < putRows*in.width {
		return nil
	}
	if in.st == nil {
		var err error
		if in.st, err = tx.PrepareContext(ctx, in.sql(putRows)); err != nil {
			return err
		}
	}
	_, err := in.st.ExecContext(ctx, in.args...)
	in.args = in.args[:0]
	return err
}

// flush writes the rows waiting.
func (in *rowsInsert) flush(ctx context.Context, tx *sql.Tx) error {
	n := len(in.args) / in.width
	if n == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, in.sql(n), in.args...)
	in.args = in.args[:0]
	return err
}

// sql is the statement of n rows.
func (in *rowsInsert) sql(n int) string {
	row := "(?" + strings.Repeat(", ?", in.width-1) + ")"
	return in.q + row + strings.Repeat(", "+row, n-1)
}

// rawItem is a pull's line as the replica stores it: the record's JSON
// and the keys it is looked up by, or an animal to drop.
type rawItem struct {
	Body    []byte
	keys    recordKeys
	Deleted int64
	sealed  string // Body sealed for the replica (bodySealer)
}

// recordKeys are the parts of a record's JSON a replica indexes.
type recordKeys struct {
	Animal struct {
		ID int64 `json:"id"`
	} `json:"animal"`
	Chips []struct {
		Code string `json:"code"`
	} `json:"chips"`
	Licences []struct {
		Jurisdiction string `json:"jurisdiction"`
		Year         int    `json:"year"`
		TagNumber    int    `json:"tag_number"`
	} `json:"licences"`
}

// rawOf is rec as a rawItem.
func rawOf(rec *service.Record) rawItem {
	it := rawItem{}
	it.Body, _ = json.Marshal(rec) // a Record always marshals
	it.keys.Animal.ID = rec.Animal.ID
	for _, c := range rec.Chips {
		it.keys.Chips = append(it.keys.Chips, struct {
			Code string `json:"code"`
		}{c.Code})
	}
	for _, l := range rec.Licences {
		it.keys.Licences = append(it.keys.Licences, struct {
			Jurisdiction string `json:"jurisdiction"`
			Year         int    `json:"year"`
			TagNumber    int    `json:"tag_number"`
		}{l.Jurisdiction, l.Year, l.TagNumber})
	}
	return it
}

// rawPuller is a Central that can hand a pull's lines over as they came,
// without decoding whole records (HTTPClient): a large pull's time was
// mostly decoding records only to encode them again.
type rawPuller interface {
	pullRaw(ctx context.Context, since string, fn func(rawItem) error) (Pulled, error)
}

// compact gives the pages the pull freed back to the file system and
// empties the write-ahead log, so that the file is about the size of
// what it holds.
func (r *Replica) compact(ctx context.Context) error {
	for _, stmt := range []string{`PRAGMA incremental_vacuum`, `PRAGMA wal_checkpoint(TRUNCATE)`} {
		if _, err := r.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("offline: compact: %w", err)
		}
	}
	return nil
}

// putMeta sets meta keys: key, value, key, value...
func putMeta(ctx context.Context, tx *sql.Tx, kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, kv[i], kv[i+1]); err != nil {
			return fmt.Errorf("offline: %w", err)
		}
	}
	return nil
}
