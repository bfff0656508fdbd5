package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// ApplyDeviceEvent implements service.DeviceEventService: the ledger row
// and the scan or bite in one IMMEDIATE transaction, with a bite's audit
// event in the same transaction (the outbox, moved to the audit log after
// the commit).
func (db *DB) ApplyDeviceEvent(ctx context.Context, e *service.DeviceEvent) (bool, int64, error) {
	if err := e.Validate(); err != nil {
		return false, 0, err
	}
	applied, recordID := false, int64(0)
	audited := false
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		digest := e.Digest()
		res, err := tx.ExecContext(ctx, `INSERT INTO device_events (id, device, kind, at, received_at, user_name, site, digest)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, e.ID, e.Device, e.Kind, formatStamp(e.At), formatStamp(now), e.User, e.Site, digest)
		if err != nil {
			return mapErr(err, "Device event")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var kind service.DeviceEventKind
			var device, was string
			if err := tx.QueryRowContext(ctx, `SELECT kind, device, record_id, digest FROM device_events WHERE id = ?`, e.ID).Scan(&kind, &device, &recordID, &was); err != nil {
				return mapErr(err, "Device event")
			}
			if kind != e.Kind || device != e.Device || was != "" && was != digest {
				return service.Errorf(service.ECONFLICT, "Device event id %s was used for another event.", e.ID)
			}
			service.Replayed(ctx)
			return nil
		}
		switch e.Kind {
		case service.DeviceScan:
			s := e.Scan
			if err := s.Validate(); err != nil {
				return err
			}
			e.FillScan()
			err = tx.QueryRowContext(ctx, `INSERT INTO scans (`+columns.Scan+`)
				VALUES (NULL, ?, ?, ?, ?, ?, ?, COALESCE((SELECT animal_id FROM chips WHERE code = ?), 0)) RETURNING id, animal_id`,
				formatStamp(s.At), s.Reader, s.ChipCode, s.ChipKind, s.User, s.Site, s.ChipCode).Scan(&s.ID, &s.AnimalID)
			if err != nil {
				return mapErr(err, "Scan")
			}
			recordID = s.ID
		case service.DeviceBite:
			b := e.Bite
			if err := b.Validate(); err != nil {
				return err
			}
			b.CreatedAt = now
			err := tx.QueryRowContext(ctx, `INSERT INTO bites (`+columns.Bite+`) VALUES (NULL,?,?,?,?,?,?,?,?) RETURNING id`,
				b.AnimalID, b.Date, b.Victim, b.SkinBroken, b.Provoked, b.Location, b.Notes, formatStamp(now)).Scan(&b.ID)
			if err != nil {
				return mapErr(err, "Bite")
			}
			recordID = b.ID
			// The bite's event commits with it (the outbox) and is
			// moved to the audit log below.
			if err := db.putOutbox(ctx, tx, now, e.BiteAudit(b.ID, now)); err != nil {
				return err
			}
			audited = true
		case service.DeviceImpound:
			im := e.Impound
			if err := im.Validate(); err != nil {
				return err
			}
			im.ID = 0
			if err := insertImpoundment(ctx, tx, im, now); err != nil {
				return err
			}
			recordID = im.ID
		case service.DeviceNote:
			n := e.Note
			if err := n.Validate(); err != nil {
				return err
			}
			n.At, n.Author, n.Site, n.Device = e.At, e.User, e.Site, e.Device
			err := tx.QueryRowContext(ctx, `INSERT INTO animal_notes (animal_id, at, author, site, device, text, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, n.AnimalID, formatStamp(n.At), n.Author, n.Site, n.Device, n.Text, formatStamp(now)).Scan(&n.ID)
			if err != nil {
				return mapErr(err, "Note")
			}
			recordID = n.ID
			if err := db.putOutbox(ctx, tx, now, e.NoteAudit(n.ID, now)); err != nil {
				return err
			}
			audited = true
		}
		if _, err := tx.ExecContext(ctx, `UPDATE device_events SET record_id = ? WHERE id = ?`, recordID, e.ID); err != nil {
			return mapErr(err, "Device event")
		}
		applied = true
		return nil
	})
	if err != nil {
		return false, 0, err
	}
	if audited {
		// A move that fails here is done by the next one, or by Open.
		_ = db.moveOutbox(context.WithoutCancel(ctx), db.rdb)
	}
	return applied, recordID, nil
}

// DeviceKey implements service.DeviceKeyService.
func (db *DB) DeviceKey(ctx context.Context, tokenID int64) (*service.DeviceKey, error) {
	var k *service.DeviceKey
	err := db.write(ctx, func(tx *sql.Tx, now time.Time) error {
		var id, key string
		err := tx.QueryRowContext(ctx, `SELECT key_id, data_key FROM device_keys WHERE id = ?`, tokenID).Scan(&id, &key)
		if err == nil {
			k, err = service.DecodeDeviceKey(id, key)
			return err
		} else if !errors.Is(err, sql.ErrNoRows) {
			return mapErr(err, "Device key")
		}
		if k, err = service.NewDeviceKey(tokenID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO device_keys (id, key_id, data_key) VALUES (?, ?, ?)`, tokenID, k.ID, k.Encoded())
		return mapErr(err, "Device key")
	})
	return k, err
}

// FindAnimalNotes implements service.NoteService.
func (db *DB) FindAnimalNotes(ctx context.Context, animalID int64) ([]service.AnimalNote, error) {
	rows, err := db.rdb.QueryContext(ctx, `SELECT id, animal_id, at, author, site, device, text FROM animal_notes
		WHERE animal_id = ? ORDER BY at DESC, id DESC`, animalID)
	if err != nil {
		return nil, mapErr(err, "Note")
	}
	defer rows.Close()
	out := []service.AnimalNote{}
	for rows.Next() {
		var n service.AnimalNote
		if err := rows.Scan(&n.ID, &n.AnimalID, stamp{&n.At}, &n.Author, &n.Site, &n.Device, &n.Text); err != nil {
			return nil, mapErr(err, "Note")
		}
		out = append(out, n)
	}
	return out, mapErr(rows.Err(), "Note")
}
