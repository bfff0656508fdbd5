package offline

import (
	"context"

	"github.com/chipdesk/chipdesk/service"
)

// Central is the transport seam: what a handheld needs of the central
// service. StoreCentral talks to a store directly (a laptop on the
// county network, and tests); HTTPClient talks to Handler over HTTP.
type Central interface {
	// Push applies events in order and returns one outcome per event. An
	// error means the push did not get through (or the central store
	// failed): the events stay queued and are pushed again, with the same
	// ids, next time.
	Push(ctx context.Context, events []service.DeviceEvent) ([]Outcome, error)
	// Pull calls fn with what changed since the cursor since (a Pulled
	// cursor of an earlier pull; "" for everything): each record the
	// replica should hold, already cut down by Minimal, and each animal it
	// should drop. When the central service cannot answer since (another
	// store's cursor, a restored database) it sends everything and says so
	// (Pulled.Full): the replica then holds only what this pull sent.
	Pull(ctx context.Context, since string, fn func(Item) error) (Pulled, error)
	// DeviceKey is the data key of the pulling device (its token's; a
	// revoked token gets none): the replica seals its records with it.
	DeviceKey(ctx context.Context) (*service.DeviceKey, error)
}

// Item is one line of a pull: a record to hold (Record) or the id of an
// animal to drop (Deleted: deleted, or with nothing left to look it up
// by).
type Item struct {
	Record  *service.Record
	Deleted int64
}

// Pulled is the end of a pull: the cursor of the next one, and whether
// this one sent everything.
type Pulled struct {
	Cursor string `json:"cursor,omitempty"`
	Full   bool   `json:"full"`
}

// Outcome is what became of one pushed event (service.DeviceOutcome).
type Outcome = service.DeviceOutcome

// CentralStore is what StoreCentral needs of a store.
type CentralStore interface {
	service.AnimalService
	service.RecordService
	service.BulkService
	service.DeviceEventService
	service.ChangeFeed
	service.DeviceKeyService
	service.NoteService
}

// StoreCentral is a Central on a store.
type StoreCentral struct {
	Store CentralStore
	// Events applies the pushed events through the application layer
	// (incidents.Service: the same rules and refusals as the other
	// doors, and a pushed bite's quarantine); nil applies them to Store
	// as they are, for a relay that only moves events on.
	Events EventApplier
}

// EventApplier applies one pushed event (service.DeviceEventService's
// contract); incidents.Service is the one the service uses.
type EventApplier interface {
	ApplyDeviceEvent(ctx context.Context, e *service.DeviceEvent) (applied bool, recordID int64, err error)
}

var _ Central = (*StoreCentral)(nil)

// Push implements Central. An event the store refuses (EINVALID,
// ECONFLICT) is rejected; any other failure ends the push with an error.
func (c *StoreCentral) Push(ctx context.Context, events []service.DeviceEvent) ([]Outcome, error) {
	var apply EventApplier = c.Store
	if c.Events != nil {
		apply = c.Events
	}
	out := make([]Outcome, 0, len(events))
	for i := range events {
		e := &events[i]
		applied, id, err := apply.ApplyDeviceEvent(ctx, e)
		switch code := service.ErrorCode(err); code {
		case "":
			out = append(out, Outcome{ID: e.ID, State: Applied, Duplicate: !applied, RecordID: id})
		case service.EINVALID, service.ECONFLICT, service.ENOTFOUND:
			out = append(out, Outcome{ID: e.ID, State: Rejected, Code: code, Message: service.ErrorMessage(err)})
		default:
			return nil, err
		}
	}
	return out, nil
}

// Pull implements Central: the record of every animal that has a chip or
// a licence (or, with since, of those the store's change feed names), as
// the central lookup builds it, cut down by Minimal. The next cursor is
// taken before anything is read, so a change made during the pull is
// sent again next time rather than missed.
func (c *StoreCentral) Pull(ctx context.Context, since string, fn func(Item) error) (Pulled, error) {
	next, err := c.Store.ChangeCursor(ctx)
	if err != nil {
		return Pulled{}, err
	}
	if since != "" {
		var ids []int64
		err := c.Store.ChangedAnimals(ctx, since, func(id int64) error { ids = append(ids, id); return nil })
		if err == nil {
			if err := c.sendAll(ctx, ids, true, fn); err != nil {
				return Pulled{}, err
			}
			return Pulled{Cursor: next}, nil
		} else if service.ErrorCode(err) != service.EINVALID {
			return Pulled{}, err
		}
		// A cursor this store cannot answer: everything, below.
	}
	if err := c.sendEvery(ctx, fn); err != nil {
		return Pulled{}, err
	}
	return Pulled{Cursor: next, Full: true}, nil
}

// sendEvery sends the record of every animal that has a chip or a
// licence, in id order: from the store's one pass over them when it has
// one (service.RecordStreamer), read ahead of fn as sendAll reads; else
// one animal at a time.
func (c *StoreCentral) sendEvery(ctx context.Context, fn func(Item) error) error {
	rs, ok := c.Store.(service.RecordStreamer)
	if !ok {
		var ids []int64
		if err := c.Store.EachAnimal(ctx, func(a *service.Animal) error { ids = append(ids, a.ID); return nil }); err != nil {
			return err
		}
		return c.sendAll(ctx, ids, false, fn)
	}
	return ahead(ctx, 256, func(ctx context.Context, emit func(Item) error) error {
		return rs.EachRecord(ctx, func(r *service.Record) error {
			if !heldOnHandheld(r) {
				return nil
			}
			return emit(Item{Record: Minimal(r)})
		})
	}, fn)
}

// sendAll sends the records of ids in order (send), read from the store
// ahead of fn: over HTTP, the store's reads and the encoding of what was
// read run side by side.
func (c *StoreCentral) sendAll(ctx context.Context, ids []int64, drops bool, fn func(Item) error) error {
	return ahead(ctx, 256, func(ctx context.Context, emit func(Item) error) error {
		for _, id := range ids {
			if err := c.send(ctx, id, drops, emit); err != nil {
				return err
			}
		}
		return nil
	}, fn)
}

// DeviceKey implements Central: the key of the token that called
// Handler (in ctx); reached directly, without a token, the store's own
// key of direct pulls (token id 0).
func (c *StoreCentral) DeviceKey(ctx context.Context) (*service.DeviceKey, error) {
	var id int64
	if t := tokenOf(ctx); t != nil {
		id = t.ID
	}
	return c.Store.DeviceKey(ctx, id)
}

// send sends animal id's minimal record, or (when drops are wanted) its
// deletion when it is gone or has nothing left to look it up by.
func (c *StoreCentral) send(ctx context.Context, id int64, drops bool, fn func(Item) error) error {
	r, err := c.Store.FindRecordByAnimal(ctx, id)
	if err != nil && service.ErrorCode(err) != service.ENOTFOUND {
		return err
	}
	if err != nil || !heldOnHandheld(r) {
		if !drops {
			return nil
		}
		return fn(Item{Deleted: id})
	}
	return fn(Item{Record: Minimal(r)})
}

// heldOnHandheld reports whether a replica holds r: it has something to
// look it up by, a chip or a licence.
func heldOnHandheld(r *service.Record) bool { return len(r.Chips) > 0 || len(r.Licences) > 0 }

// Minimal cuts a record down to what an officer in the field needs to
// identify an animal, judge its licence, rabies and dangerous status and
// reach its owner: no owner address or e-mail, no fees, no veterinary
// or insurance details, no impoundments or bite history (open
// quarantines stay).
func Minimal(r *service.Record) *service.Record {
	m := &service.Record{
		Animal: service.Animal{ID: r.Animal.ID, OwnerID: r.Animal.OwnerID, Name: r.Animal.Name, Species: r.Animal.Species,
			Breed: r.Animal.Breed, Colour: r.Animal.Colour, Sex: r.Animal.Sex, Altered: r.Animal.Altered,
			Description: r.Animal.Description, DiedOn: r.Animal.DiedOn},
		Chips: []service.Chip{}, Licences: []service.Licence{}, Quarantines: []service.Quarantine{},
		Impounds: []service.Impoundment{}, Bites: []service.BiteIncident{},
	}
	if r.Owner != nil {
		m.Owner = &service.Owner{ID: r.Owner.ID, Name: r.Owner.Name, Phone: r.Owner.Phone}
	}
	for _, c := range r.Chips {
		m.Chips = append(m.Chips, service.Chip{ID: c.ID, AnimalID: c.AnimalID, Code: c.Code, Kind: c.Kind, Manufacturer: c.Manufacturer})
	}
	for _, l := range r.Licences {
		m.Licences = append(m.Licences, service.Licence{ID: l.ID, AnimalID: l.AnimalID, Kind: l.Kind, Jurisdiction: l.Jurisdiction,
			Year: l.Year, TagNumber: l.TagNumber, IssuedOn: l.IssuedOn, ExpiresOn: l.ExpiresOn, Status: l.Status,
			IssuedBy: l.IssuedBy, Replaces: l.Replaces, ReplaceReason: l.ReplaceReason})
	}
	if v := r.Rabies; v != nil {
		m.Rabies = &service.RabiesVaccination{ID: v.ID, AnimalID: v.AnimalID, Date: v.Date, Type: v.Type,
			DurationMonths: v.DurationMonths, ExtendedCertified: v.ExtendedCertified, RabiesTag: v.RabiesTag}
	}
	if d := r.Dangerous; d != nil {
		m.Dangerous = &service.DangerousDesignation{ID: d.ID, AnimalID: d.AnimalID, Level: d.Level, Jurisdiction: d.Jurisdiction,
			DeclaredOn: d.DeclaredOn, DecisionOn: d.DecisionOn, Conditions: d.Conditions, RegistrationNumber: d.RegistrationNumber,
			RegisteredOn: d.RegisteredOn, SignOn: d.SignOn, MicrochipOn: d.MicrochipOn, SterilisedOn: d.SterilisedOn,
			PhotoOn: d.PhotoOn, InsuredOn: d.InsuredOn, InsuranceExpires: d.InsuranceExpires, RescindedOn: d.RescindedOn}
	}
	for _, q := range r.Quarantines {
		m.Quarantines = append(m.Quarantines, service.Quarantine{ID: q.ID, AnimalID: q.AnimalID, BiteID: q.BiteID, Kind: q.Kind, Place: q.Place,
			Start: q.Start, End: q.End, ReleasedOn: q.ReleasedOn})
	}
	return m
}
