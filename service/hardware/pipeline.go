package hardware

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// Pipeline resolves, stores and publishes scans.
type Pipeline struct {
	lookup *lookup.Service
	scans  service.ScanService
	hub    *events.Hub
	log    *slog.Logger
	now    func() time.Time
	site   string
}

// PipelineOpts configures a Pipeline. Lookup, Scans and Hub are required.
type PipelineOpts struct {
	Lookup *lookup.Service
	Scans  service.ScanService
	Hub    *events.Hub
	// Logger receives failures; nil discards.
	Logger *slog.Logger
	// Now stamps scans whose read carries no time; nil means time.Now.
	Now func() time.Time
	// Site names this installation on stored scans of local readers.
	Site string
}

// NewPipeline returns a Pipeline.
func NewPipeline(o *PipelineOpts) (*Pipeline, error) {
	if o == nil || o.Lookup == nil || o.Scans == nil || o.Hub == nil {
		return nil, errors.New("hardware: pipeline needs Lookup, Scans and Hub")
	}
	p := &Pipeline{lookup: o.Lookup, scans: o.Scans, hub: o.Hub, log: o.Logger, now: o.Now, site: o.Site}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.now == nil {
		p.now = time.Now
	}
	return p, nil
}

// HandleText handles a chip read that came as text (a handheld or a
// keyboard-wedge page posting to the API), as a scan of readerName by
// user at site. It implements httpapi.ScanHandler.
func (p *Pipeline) HandleText(ctx context.Context, readerName, text, user, site string) (*lookup.ScanEvent, error) {
	id, err := p.lookup.ParseChip(text)
	if err != nil {
		return nil, err
	}
	return p.handle(ctx, readerName, id, time.Time{}, user, site)
}

// handle resolves id, stores the scan and publishes the event. The scan
// is stored before it is published, so every event on the stream names
// a stored scan. The Manager calls it with each read of a connected
// reader (user "", this installation's site), HandleText with a chip
// that came as text.
func (p *Pipeline) handle(ctx context.Context, readerName string, id chipid.ID, at time.Time, user, site string) (*lookup.ScanEvent, error) {
	if at.IsZero() {
		at = p.now()
	}
	at = at.UTC()
	sc := &service.Scan{At: at, Reader: readerName, ChipCode: id.Code, ChipKind: id.Kind, User: user, Site: site}
	a, err := p.lookup.ByID(ctx, id)
	if service.ErrorCode(err) == service.ECONFLICT {
		// A store that may not answer now (a handheld's copy too old)
		// still keeps the read: the chip was read, whoever it is.
		if serr := p.scans.CreateScan(ctx, sc); serr != nil {
			return nil, serr
		}
		return nil, err
	} else if err != nil {
		return nil, err
	}
	if a.Found && a.Animal != nil {
		sc.AnimalID = a.Animal.ID
	}
	if err := p.scans.CreateScan(ctx, sc); err != nil {
		return nil, err
	}
	ev := &lookup.ScanEvent{ScanID: sc.ID, Reader: readerName, At: at, Chip: *a.Chip, Lookup: a}
	data, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	p.hub.PublishAt(readerName, site, data)
	p.log.LogAttrs(ctx, slog.LevelInfo, "scan",
		slog.String("reader", readerName), slog.String("chip", id.Code),
		slog.Bool("found", a.Found), slog.Int("alerts", len(a.Alerts)))
	return ev, nil
}
