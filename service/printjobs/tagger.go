package printjobs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// ErrNoDesign: no tag design fits the licence's jurisdiction and year.
var ErrNoDesign = errors.New("printjobs: no tag design for the licence")

// Tagger finds the tag of a licence. The zero value is not usable; fill
// every field.
type Tagger struct {
	Store   service.Store
	Rules   *rules.Set
	Designs *tags.Designs
	Keys    *check.Keyring
}

// DesignFor returns the licence design of jurisdiction profile id for
// year. A design belongs to a profile when the profile's name contains
// the design's city name ("City of Minneapolis" and "Minneapolis").
func (t *Tagger) DesignFor(profileID string, year int) (*tags.Design, error) {
	p := t.Rules.Profile(profileID)
	if p == nil {
		return nil, fmt.Errorf("%w: unknown jurisdiction %q", ErrNoDesign, profileID)
	}
	name := strings.ToLower(p.Name)
	for _, d := range t.Designs.All() {
		if d.Kind != "licence" || d.Name == "" || !strings.Contains(name, strings.ToLower(d.Name)) {
			continue
		}
		if d.Year != year && d.Year != 0 {
			continue
		}
		if err := t.Designs.Err(d); err != nil {
			return nil, fmt.Errorf("%w: %v: %w", ErrNoDesign, d, err)
		}
		return d, nil
	}
	return nil, fmt.Errorf("%w: %s %d", ErrNoDesign, profileID, year)
}

// Tag returns the tag of licence l, for its animal's species.
func (t *Tagger) Tag(ctx context.Context, l *service.Licence) (*tags.Tag, error) {
	a, err := t.Store.FindAnimalByID(ctx, l.AnimalID)
	if err != nil {
		return nil, err
	}
	d, err := t.DesignFor(l.Jurisdiction, l.Year)
	if err != nil {
		return nil, err
	}
	tag, err := d.Issue(t.Keys, l.Year, l.TagNumber, string(a.Species))
	if err != nil {
		return nil, fmt.Errorf("printjobs: licence %d: %w", l.ID, err)
	}
	return tag, nil
}
