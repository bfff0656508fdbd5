package offline

import (
	"context"
	"fmt"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// The replica is the scan store of a handheld's own reader: the same
// hardware.Pipeline that stores a desk's reads in the central store
// queues the handheld's in the outbox (chipdesk serve --offline).

var _ service.ScanService = (*Replica)(nil)

// CreateScan queues the read s as a scan event (RecordScan). Its id is
// the event's place in the queue and its time the device's, as pushed.
func (r *Replica) CreateScan(ctx context.Context, s *service.Scan) error {
	e, err := r.RecordScan(ctx, chipid.ID{Kind: s.ChipKind, Code: s.ChipCode}, s.Reader)
	if err != nil {
		return err
	}
	if err := r.db.QueryRowContext(ctx, `SELECT seq FROM outbox WHERE id = ?`, e.ID).Scan(&s.ID); err != nil {
		return fmt.Errorf("offline: scan: %w", err)
	}
	s.At, s.User, s.Site = e.Scan.At, e.Scan.User, e.Scan.Site
	if s.AnimalID == 0 {
		s.AnimalID = e.Scan.AnimalID
	}
	return nil
}

// FindScans lists the scans of the outbox, newest first, whatever their
// state (queued, or already applied by the central service); the count
// is of those the filter selects. Since and Site select as in a store.
func (r *Replica) FindScans(ctx context.Context, f service.ScanFilter) ([]*service.Scan, int, error) {
	rows, err := r.db.QueryContext(ctx, `SELECT seq, event FROM outbox ORDER BY seq DESC`)
	if err != nil {
		return nil, 0, fmt.Errorf("offline: scans: %w", err)
	}
	defer rows.Close()
	var all []*service.Scan
	for rows.Next() {
		var seq int64
		var body string
		if err := rows.Scan(&seq, &body); err != nil {
			return nil, 0, fmt.Errorf("offline: scans: %w", err)
		}
		var e service.DeviceEvent
		if err := unmarshal([]byte(body), &e); err != nil {
			return nil, 0, fmt.Errorf("offline: scans: %w", err)
		}
		s := e.Scan
		if e.Kind != service.DeviceScan || s == nil ||
			f.ChipCode != nil && s.ChipCode != *f.ChipCode || f.Site != nil && s.Site != *f.Site ||
			f.User != nil && s.User != *f.User || f.Since != nil && s.At.Before(*f.Since) {
			continue
		}
		s.ID = seq
		all = append(all, s)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("offline: scans: %w", err)
	}
	n := len(all)
	all = all[min(max(f.Offset, 0), n):]
	if f.Limit > 0 && len(all) > f.Limit {
		all = all[:f.Limit]
	}
	return all, n, nil
}

// Queued is the number of events waiting for the next push.
func (r *Replica) Queued(ctx context.Context) (int, error) { return r.count(ctx, Queued) }
