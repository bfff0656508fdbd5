package lookup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// Opts configures a Service. Store and Rules are required.
type Opts struct {
	// Store finds records (service.RecordService) and stores the records
	// Service writes (licences, impoundments, quarantines).
	Store service.RecordService
	// Rules holds the jurisdiction profiles.
	Rules *rules.Set
	// Jurisdiction is the profile that applies when nothing in a record
	// names one (an animal with no licence, designation, impoundment or
	// owner's city); the first profile id when empty.
	Jurisdiction string
	// Locale names chip manufacturers ("en_US", the default).
	Locale string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service answers lookups.
type Service struct {
	store  service.RecordService
	search searchStore // the store, when it keeps search indexes (a handheld's copy does not)
	rules  *rules.Set
	home   string
	locale string
	now    func() time.Time
}

// New returns a Service.
func New(o *Opts) (*Service, error) {
	if o == nil || o.Store == nil || o.Rules == nil {
		return nil, errors.New("lookup: Store and Rules required")
	}
	s := &Service{store: o.Store, rules: o.Rules, home: o.Jurisdiction, locale: o.Locale, now: o.Now}
	s.search, _ = o.Store.(searchStore)
	if ids := s.rules.IDs(); len(ids) == 0 {
		return nil, errors.New("lookup: no jurisdiction profiles")
	} else if s.home == "" {
		s.home = ids[0]
	} else if s.rules.Profile(s.home) == nil {
		return nil, fmt.Errorf("lookup: unknown jurisdiction %q", s.home)
	}
	if s.locale == "" {
		s.locale = "en_US"
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Query is one lookup: Chip, or Tag with Jurisdiction (a profile's id,
// name or code) and Year (0 for this year), or AnimalID. AsOf computes
// the statuses for that day instead of today ("what would redemption
// cost on Friday"); staff only, which the door checks.
type Query struct {
	Chip         string
	Tag          int
	Jurisdiction string
	Year         int
	AnimalID     int64
	AsOf         service.Date
}

// Lookup answers q.
func (s *Service) Lookup(ctx context.Context, q Query) (*Answer, error) {
	switch {
	case q.Chip != "":
		id, err := s.ParseChip(q.Chip)
		if err != nil {
			return nil, err
		}
		return s.byID(ctx, id, q.AsOf)
	case q.Tag > 0:
		return s.byTag(ctx, q.Jurisdiction, q.Year, q.Tag, q.AsOf)
	case q.AnimalID > 0:
		rec, err := s.store.FindRecordByAnimal(ctx, q.AnimalID)
		if err != nil {
			return nil, err
		}
		return s.withNotes(ctx, s.build(rec, nil, q.AsOf))
	}
	return nil, service.Errorf(service.EINVALID, "Give chip, or tag with jurisdiction and year.")
}

// Rules returns the jurisdiction profiles the service answers with.
func (s *Service) Rules() *rules.Set { return s.rules }

// Home returns the profile id that applies when a record names none.
func (s *Service) Home() string { return s.home }

// Resolve names the jurisdiction a person typed (id, name or code, any
// case): its id and the name pages show. An unknown one is EINVALID for
// the field "jurisdiction", listing the known ones.
func (s *Service) Resolve(name string) (id, display string, err error) {
	if strings.TrimSpace(name) == "" {
		name = s.home
	}
	p, err := s.rules.Resolve(name)
	if err != nil {
		return "", "", err
	}
	return p.ID, p.Display, nil
}

// Jurisdiction is a profile as pages list it.
type Jurisdiction struct {
	ID      string `json:"id"`
	Display string `json:"display"`
}

// Jurisdictions lists the profiles, home first.
func (s *Service) Jurisdictions() []Jurisdiction {
	out := []Jurisdiction{}
	for _, id := range s.rules.IDs() {
		j := Jurisdiction{ID: id, Display: s.rules.Profile(id).Display}
		if id == s.home {
			out = append([]Jurisdiction{j}, out...)
		} else {
			out = append(out, j)
		}
	}
	return out
}

// ByChip answers for chip text in any form reader/chipid reads. A text
// that is no chip is EINVALID; a chip nobody here registered answers
// Found false with its manufacturer and the next step.
func (s *Service) ByChip(ctx context.Context, text string) (*Answer, error) {
	id, err := s.ParseChip(text)
	if err != nil {
		return nil, err
	}
	return s.ByID(ctx, id)
}

// ByID answers for a parsed chip id.
func (s *Service) ByID(ctx context.Context, id chipid.ID) (*Answer, error) { return s.byID(ctx, id, 0) }

func (s *Service) byID(ctx context.Context, id chipid.ID, asOf service.Date) (*Answer, error) {
	rec, err := s.store.FindRecordByChip(ctx, id.Code)
	if service.ErrorCode(err) == service.ENOTFOUND {
		return s.unknownChip(id), nil
	} else if err != nil {
		return nil, err
	}
	a := s.build(rec, nil, asOf)
	a.Chip = s.chipView(id)
	return a, nil
}

// ByTag answers for a licence tag. year 0 means this year in the
// jurisdiction. An unknown jurisdiction is EINVALID; a tag not issued
// answers Found false with the next step.
func (s *Service) ByTag(ctx context.Context, jurisdiction string, year, tag int) (*Answer, error) {
	return s.byTag(ctx, jurisdiction, year, tag, 0)
}

func (s *Service) byTag(ctx context.Context, jurisdiction string, year, tag int, asOf service.Date) (*Answer, error) {
	p, err := s.rules.Resolve(jurisdiction)
	if err != nil {
		return nil, err
	}
	today := asOf
	if today.IsZero() {
		today = p.Today(s.now())
	}
	if year == 0 {
		year = today.Year()
	}
	t := &Tag{Number: tag, Jurisdiction: p.ID, Year: year}
	rec, err := s.store.FindRecordByTag(ctx, p.ID, year, tag)
	if service.ErrorCode(err) == service.ENOTFOUND {
		a := newAnswer()
		a.Tag, a.Jurisdiction, a.AsOf = t, p.ID, today
		a.alert("tag-unknown", "info", "Tag not issued in this system.", "")
		a.NextStep = "Check the year and the city stamped on the tag, and scan the animal for a microchip."
		return a, nil
	} else if err != nil {
		return nil, err
	}
	return s.build(rec, t, asOf), nil
}

// ByAnimal answers for an animal by id (ENOTFOUND when there is none).
func (s *Service) ByAnimal(ctx context.Context, id int64) (*Answer, error) {
	rec, err := s.store.FindRecordByAnimal(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.withNotes(ctx, s.build(rec, nil, 0))
}

// withNotes adds the animal's field notes to a, when the store keeps
// notes (service.NoteService).
func (s *Service) withNotes(ctx context.Context, a *Answer) (*Answer, error) {
	ns, ok := s.store.(service.NoteService)
	if !ok || a.Animal == nil {
		return a, nil
	}
	notes, err := ns.FindAnimalNotes(ctx, a.Animal.ID)
	if err != nil {
		return nil, err
	}
	if len(notes) > 0 {
		a.Notes = notes
	}
	return a, nil
}

// Location returns the time zone of the jurisdiction (the home one when
// empty), in which the pages show times; UTC when it names none.
func (s *Service) Location(jurisdiction string) *time.Location {
	if jurisdiction == "" {
		jurisdiction = s.home
	}
	if p, err := s.profile(jurisdiction); err == nil && p.Location() != nil {
		return p.Location()
	}
	return time.UTC
}

// Today returns today's date in the jurisdiction's zone.
func (s *Service) Today(jurisdiction string) (service.Date, error) {
	p, err := s.profile(jurisdiction)
	if err != nil {
		return 0, err
	}
	return p.Today(s.now()), nil
}
