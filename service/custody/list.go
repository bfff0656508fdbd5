package custody

import (
	"context"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// Steps is what a stay allows on AsOf and what it still needs, as the
// rules say: the pages show these and decide nothing.
type Steps struct {
	// DaysHeld counts the days in custody up to AsOf (or the end), the
	// day of intake counting as the first, as the board fee counts them
	// (62.40(a), 5-74(a)).
	DaysHeld int `json:"days_held"`
	// NoticeDue is true while the owner's notice of impounding is still
	// to be given (5-73(a), 62.40(b)): the hold is provisional until then.
	NoticeDue bool `json:"notice_due"`
	// Redeemable is true while the owner may reclaim the animal.
	Redeemable bool `json:"redeemable"`
	// MayDispose is true once the hold is over: the animal may be
	// adopted out, transferred or euthanised (62.50, 5-75).
	MayDispose bool `json:"may_dispose"`
	// LicenceNeeded is true when the animal must leave licensed and has
	// no licence in force: the redemption's fee lines include it
	// (62.40(a), 5-74(a)).
	LicenceNeeded bool `json:"licence_needed"`
	// BiteHold is true for an animal held under the rabies rules: it is
	// not released before its quarantine ends (66.40, 5-40).
	BiteHold bool `json:"bite_hold"`
}

// steps computes what stay st allows on st.AsOf.
func (s *Service) steps(p *rules.Profile, rec *service.Record, st *Stay) Steps {
	end := st.AsOf
	held := st.Disposition == service.Held
	if !held && !st.DispositionOn.IsZero() {
		end = st.DispositionOn
	}
	var x Steps
	if end >= st.IntakeOn {
		x.DaysHeld = int(end-st.IntakeOn) + 1
	}
	if !held {
		return x
	}
	x.BiteHold = st.BiteCase
	x.NoticeDue = st.NoticeOn.IsZero()
	x.Redeemable = true
	x.MayDispose = st.AsOf >= st.Hold.Until
	if rec != nil {
		ev := p.Evaluate(withStay(rec, st.Impoundment), st.AsOf)
		x.LicenceNeeded = ev.Licence.Required && ev.Licence.State != rules.LicenceCurrent
	}
	return x
}

// InCustody lists every animal held now (at site, when not empty),
// longest held first, each with its hold, its fees to date and what it
// allows today.
func (s *Service) InCustody(ctx context.Context, site string) ([]*Stay, error) {
	open := true
	f := service.ImpoundFilter{Open: &open}
	if site != "" {
		f.Site = &site
	}
	ims, _, err := s.store.FindImpoundments(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]*Stay, 0, len(ims))
	for i := len(ims) - 1; i >= 0; i-- { // the store lists newest first
		st, err := s.Find(ctx, ims[i].ID, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// Day is what the pound did on one day: the stays begun and ended.
type Day struct {
	On service.Date `json:"on"`
	// Since is the day's first instant in the jurisdiction's zone (for
	// the scans and licences of the day).
	Since  time.Time `json:"since"`
	Intake []*Stay   `json:"intake"`
	Ended  []*Stay   `json:"ended"`
}

// OnDay lists the intakes and the ends of stays on day on in
// jurisdiction j's calendar (at site, when not empty); on zero is today.
func (s *Service) OnDay(ctx context.Context, j, site string, on service.Date) (*Day, error) {
	p, err := s.rules.Resolve(j)
	if err != nil {
		return nil, err
	}
	if on.IsZero() {
		on = p.Today(s.now())
	}
	d := &Day{On: on, Since: on.Time(p.Location()), Intake: []*Stay{}, Ended: []*Stay{}}
	f := service.ImpoundFilter{Since: &on}
	if site != "" {
		f.Site = &site
	}
	ims, _, err := s.store.FindImpoundments(ctx, f)
	if err != nil {
		return nil, err
	}
	for _, im := range ims {
		if im.IntakeOn != on {
			continue
		}
		st, err := s.Find(ctx, im.ID, 0)
		if err != nil {
			return nil, err
		}
		d.Intake = append(d.Intake, st)
	}
	f = service.ImpoundFilter{EndedSince: &on}
	if site != "" {
		f.Site = &site
	}
	if ims, _, err = s.store.FindImpoundments(ctx, f); err != nil {
		return nil, err
	}
	for _, im := range ims {
		if im.DispositionOn != on {
			continue
		}
		st, err := s.Find(ctx, im.ID, 0)
		if err != nil {
			return nil, err
		}
		d.Ended = append(d.Ended, st)
	}
	return d, nil
}
