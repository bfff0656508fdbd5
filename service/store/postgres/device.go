package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// ApplyDeviceEvent implements service.DeviceEventService. The ledger row
// goes in first with ON CONFLICT DO NOTHING: a second push of the same
// id, even a concurrent one, waits for the first to commit and then
// finds the row.
func (db *DB) ApplyDeviceEvent(ctx context.Context, e *service.DeviceEvent) (bool, int64, error) {
	if err := e.Validate(); err != nil {
		return false, 0, err
	}
	applied, recordID := false, int64(0)
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		at := e.At.UTC().Truncate(time.Microsecond)
		digest := e.Digest()
		tag, err := tx.Exec(ctx, `INSERT INTO device_events (id, device, kind, at, received_at, user_name, site, digest)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`, e.ID, e.Device, e.Kind, at, now, e.User, e.Site, digest)
		if err != nil {
			return mapErr(err, "Device event")
		}
		if tag.RowsAffected() == 0 {
			var kind service.DeviceEventKind
			var device, was string
			if err := tx.QueryRow(ctx, `SELECT kind, device, record_id, digest FROM device_events WHERE id = $1`, e.ID).Scan(&kind, &device, &recordID, &was); err != nil {
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
			s.At = s.At.UTC().Truncate(time.Microsecond)
			err = tx.QueryRow(ctx, `INSERT INTO scans (id, at, reader, chip_code, chip_kind, user_name, site, animal_id)
				VALUES (nextval('scans_id_seq'), $1, $2, $3, $4, $5, $6, COALESCE((SELECT animal_id FROM chips WHERE code = $3), 0))
				RETURNING id, animal_id`, s.At, s.Reader, s.ChipCode, s.ChipKind, s.User, s.Site).Scan(&s.ID, &s.AnimalID)
			if err != nil {
				return mapErr(err, "Scan")
			}
			recordID = s.ID
		case service.DeviceBite:
			b := e.Bite
			if err := b.Validate(); err != nil {
				return err
			}
			b.ID, b.CreatedAt = 0, now
			if err := insertRow(ctx, tx, "bites", &b.ID, "Bite", insertBiteSQL,
				b.AnimalID, pdate(b.Date), b.Victim, b.SkinBroken, b.Provoked, b.Location, b.Notes, now); err != nil {
				return err
			}
			recordID = b.ID
			a := e.BiteAudit(b.ID, now)
			if _, err := tx.Exec(ctx, `INSERT INTO audit_events (`+columns.Audit+`)
				VALUES (nextval('audit_events_id_seq'), $1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				a.At, a.Actor, a.Role, a.Action, a.Entity, a.EntityID, a.Detail, a.Site, a.TokenID); err != nil {
				return mapErr(err, "Audit event")
			}
		}
		if e.Kind == service.DeviceImpound {
			im := e.Impound
			if err := im.Validate(); err != nil {
				return err
			}
			im.ID = 0
			if err := insertImpoundment(ctx, tx, im, now); err != nil {
				return err
			}
			recordID = im.ID
		}
		if e.Kind == service.DeviceNote {
			n := e.Note
			if err := n.Validate(); err != nil {
				return err
			}
			n.At, n.Author, n.Site, n.Device = e.At.UTC().Truncate(time.Microsecond), e.User, e.Site, e.Device
			if err := tx.QueryRow(ctx, `INSERT INTO animal_notes (animal_id, at, author, site, device, text, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, n.AnimalID, n.At, n.Author, n.Site, n.Device, n.Text, now).Scan(&n.ID); err != nil {
				return mapErr(err, "Note")
			}
			recordID = n.ID
			a := e.NoteAudit(n.ID, now)
			if _, err := tx.Exec(ctx, `INSERT INTO audit_events (`+columns.Audit+`)
				VALUES (nextval('audit_events_id_seq'), $1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				a.At, a.Actor, a.Role, a.Action, a.Entity, a.EntityID, a.Detail, a.Site, a.TokenID); err != nil {
				return mapErr(err, "Audit event")
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE device_events SET record_id = $1 WHERE id = $2`, recordID, e.ID); err != nil {
			return mapErr(err, "Device event")
		}
		applied = true
		return nil
	})
	if err != nil {
		return false, 0, err
	}
	return applied, recordID, nil
}

// DeviceKey implements service.DeviceKeyService. Two first pulls at once
// make one key: the second insert does nothing and reads the first's.
func (db *DB) DeviceKey(ctx context.Context, tokenID int64) (*service.DeviceKey, error) {
	var k *service.DeviceKey
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		fresh, err := service.NewDeviceKey(tokenID)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO device_keys (id, key_id, data_key) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
			tokenID, fresh.ID, fresh.Encoded()); err != nil {
			return mapErr(err, "Device key")
		}
		var id, key string
		if err := tx.QueryRow(ctx, `SELECT key_id, data_key FROM device_keys WHERE id = $1`, tokenID).Scan(&id, &key); err != nil {
			return mapErr(err, "Device key")
		}
		k, err = service.DecodeDeviceKey(id, key)
		return err
	})
	return k, err
}

// FindAnimalNotes implements service.NoteService.
func (db *DB) FindAnimalNotes(ctx context.Context, animalID int64) ([]service.AnimalNote, error) {
	rows, err := db.pool.Query(ctx, `SELECT id, animal_id, at, author, site, device, text FROM animal_notes
		WHERE animal_id = $1 ORDER BY at DESC, id DESC`, animalID)
	if err != nil {
		return nil, mapErr(err, "Note")
	}
	defer rows.Close()
	out := []service.AnimalNote{}
	for rows.Next() {
		var n service.AnimalNote
		if err := rows.Scan(&n.ID, &n.AnimalID, &n.At, &n.Author, &n.Site, &n.Device, &n.Text); err != nil {
			return nil, mapErr(err, "Note")
		}
		out = append(out, n)
	}
	return out, mapErr(rows.Err(), "Note")
}
