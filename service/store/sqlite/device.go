package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// ApplyDeviceEvent implements service.DeviceEventService: the ledger row
// and the scan or bite in one IMMEDIATE transaction; a bite's audit event
// then in the audit log (audit.go).
func (db *DB) ApplyDeviceEvent(ctx context.Context, e *service.DeviceEvent) (bool, int64, error) {
	if err := e.Validate(); err != nil {
		return false, 0, err
	}
	applied, recordID := false, int64(0)
	var audit *service.AuditEvent
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
			audit = e.BiteAudit(b.ID, now)
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
	if audit != nil {
		// The bite is stored; should its audit event fail, the caller's
		// retry finds the event applied and answers as for a duplicate.
		if err := db.CreateAuditEvent(ctx, audit); err != nil {
			return applied, recordID, fmt.Errorf("sqlite: device event %s applied, its audit event not stored: %w", e.ID, err)
		}
	}
	return applied, recordID, nil
}
