package money

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// Opts configures a Service. Store and Rules are required.
type Opts struct {
	Store service.Store
	Rules *rules.Set
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Service is the money part of the application layer.
type Service struct {
	store service.Store
	rules *rules.Set
	now   func() time.Time
}

// New returns a Service.
func New(o *Opts) (*Service, error) {
	if o == nil || o.Store == nil || o.Rules == nil {
		return nil, errors.New("money: Store and Rules required")
	}
	s := &Service{store: o.Store, rules: o.Rules, now: o.Now}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Store is what the charge hooks need of a store.
type Store interface {
	service.MoneyService
	FindAnimalByID(ctx context.Context, id int64) (*service.Animal, error)
	FindRecordByAnimal(ctx context.Context, animalID int64) (*service.Record, error)
	FindImpoundments(ctx context.Context, f service.ImpoundFilter) ([]*service.Impoundment, int, error)
}

// ChargeLicence raises the charges of a licence just issued, one per
// fee line the rules set (the licence fee of 64.30 or 5-51, the
// duplicate tag fee of 64.40), on the animal's owner. A fee the clerk
// entered because the ordinance leaves it to a resolution is one charge
// of l.FeeCents, "set by resolution". An exempt licence (64.30) costs
// nothing and raises no charge. Raising a licence's charges twice
// raises them once. The licence bought to redeem an unlicensed animal
// (62.40(a), 5-74(a)) was charged with the redemption: its fee is not
// charged again (RedemptionLicence).
func ChargeLicence(ctx context.Context, st Store, l *service.Licence, fees *rules.Breakdown) ([]*service.Charge, error) {
	payer, err := payerOf(ctx, st, l.AnimalID)
	if err != nil {
		return nil, err
	}
	covered, err := RedemptionLicence(ctx, st, l)
	if err != nil {
		return nil, err
	}
	if len(covered) > 0 {
		fees = withoutLines(fees, covered)
		if fees.TotalCents == 0 {
			return nil, nil
		}
	}
	base := service.Charge{PayerID: payer, SubjectKind: service.SubjectLicence, SubjectID: l.ID,
		Jurisdiction: l.Jurisdiction, Site: l.Site, On: l.IssuedOn}
	cs := fromLines(base, cityOf(l.Jurisdiction), fees, nil)
	var set int64
	for _, c := range cs {
		set += c.AmountCents
	}
	if set != l.FeeCents && l.FeeCents > 0 {
		// The clerk entered the fee (the rules left it to a resolution).
		c := base
		c.Kind, c.Label, c.AmountCents, c.Section = feeCode(l.FeeCode, "licence"), "Licence fee", l.FeeCents, "set by resolution"
		if fees != nil && len(fees.Lines) > 0 && fees.Lines[0].Source != "" {
			c.Section = section(cityOf(l.Jurisdiction), fees.Lines[0].Source) + " (set by resolution)"
		}
		cs = []*service.Charge{&c}
	}
	if len(cs) == 0 {
		return nil, nil
	}
	if err := st.CreateCharges(ctx, cs); err != nil {
		return nil, err
	}
	return cs, nil
}

// RedemptionLicence returns the charges of the redemption that charged
// licence l's fee already: an animal redeemed without a licence is
// charged a licence with the impound fees (62.40(a): "a license bought
// at release"; 5-74(a)), and the licence then sold is that licence. It
// is the first licence of the animal in the redemption's jurisdiction
// issued on or after the intake; a later one, a duplicate or a
// replacement tag is charged as any other.
func RedemptionLicence(ctx context.Context, st Store, l *service.Licence) ([]*service.Charge, error) {
	if l.Kind != service.KindLicence || l.Replaces != 0 {
		return nil, nil
	}
	ended := false
	ims, _, err := st.FindImpoundments(ctx, service.ImpoundFilter{AnimalID: &l.AnimalID, Open: &ended})
	if err != nil {
		return nil, err
	}
	var im *service.Impoundment
	for _, x := range ims {
		if x.Disposition == service.Redeemed && x.Jurisdiction == l.Jurisdiction && x.IntakeOn <= l.IssuedOn &&
			(im == nil || x.IntakeOn > im.IntakeOn) {
			im = x
		}
	}
	if im == nil {
		return nil, nil
	}
	rec, err := st.FindRecordByAnimal(ctx, l.AnimalID)
	if err != nil {
		return nil, err
	}
	for _, o := range rec.Licences {
		if o.ID != l.ID && o.ID < l.ID && o.Kind == service.KindLicence && o.Replaces == 0 &&
			o.Jurisdiction == l.Jurisdiction && o.IssuedOn >= im.IntakeOn {
			return nil, nil // that one was the licence bought to redeem
		}
	}
	kind := service.SubjectImpoundment
	cs, _, err := st.FindCharges(ctx, service.ChargeFilter{SubjectKind: &kind, SubjectID: &im.ID})
	if err != nil {
		return nil, err
	}
	var out []*service.Charge
	for _, c := range cs {
		if c.Kind == l.FeeCode && c.Kind != "" {
			out = append(out, c)
		}
	}
	return out, nil
}

// withoutLines is fees less the lines charged already as covered.
func withoutLines(fees *rules.Breakdown, covered []*service.Charge) *rules.Breakdown {
	out := &rules.Breakdown{}
	if fees == nil {
		return out
	}
	for _, l := range fees.Lines {
		if slices.ContainsFunc(covered, func(c *service.Charge) bool { return c.Kind == l.Code }) {
			continue
		}
		out.Lines = append(out.Lines, l)
		if l.State == rules.FeeSet {
			out.TotalCents += l.Cents
		}
	}
	return out
}

func feeCode(code, dflt string) string {
	if code == "" {
		return dflt
	}
	return code
}

// fromLines makes a charge of each line the rules set, and of each
// line left to a resolution for which entered gives an amount. Lines of
// 0 cents (an exemption) raise nothing.
func fromLines(base service.Charge, city string, fees *rules.Breakdown, entered map[string]int64) []*service.Charge {
	if fees == nil {
		return nil
	}
	var out []*service.Charge
	for _, l := range fees.Lines {
		c := base
		c.Kind, c.Label, c.Section = l.Code, l.Label, section(city, l.Source)
		switch {
		case l.State == rules.FeeSet:
			c.AmountCents = l.Cents
		case entered[l.Code] > 0:
			c.AmountCents = entered[l.Code]
			c.Section += " (set by resolution)"
		default:
			continue
		}
		if c.AmountCents > 0 {
			out = append(out, &c)
		}
	}
	return out
}

// section names the law of a fee line: the rules give the bare section
// ("62.40(b)"), a charge names the city too ("Minneapolis 62.40(b)").
func section(city, src string) string {
	switch {
	case src == "":
		return city + ", set by resolution"
	case strings.HasPrefix(src, city) || strings.Contains(src, "Stat."):
		return src
	}
	return city + " " + src
}

// cityOf names a jurisdiction's city from its profile id.
func cityOf(id string) string {
	if id == "" {
		return ""
	}
	return strings.ToUpper(id[:1]) + id[1:]
}

func payerOf(ctx context.Context, st Store, animalID int64) (int64, error) {
	a, err := st.FindAnimalByID(ctx, animalID)
	if err != nil {
		return 0, err
	}
	return a.OwnerID, nil
}

// ChargeRedemption raises the charges of releasing the animal of
// impoundment im to its owner on im's disposition day (today when
// none): the impound fee and board (62.40(a), (b); 5-74), a licence and
// its penalty when none is in force, and the sterilisation deposit
// (62.40(c)). Fees the ordinance leaves to a resolution are charged
// when entered names an amount for their code, and are else left out
// (the answer's second value lists their codes). Raising them twice
// raises them once.
func (s *Service) ChargeRedemption(ctx context.Context, im *service.Impoundment, entered map[string]int64) ([]*service.Charge, []string, error) {
	p := s.rules.Profile(im.Jurisdiction)
	if p == nil {
		return nil, nil, service.Errorf(service.EINVALID, "Unknown jurisdiction %q.", im.Jurisdiction)
	}
	rec, err := s.store.FindRecordByAnimal(ctx, im.AnimalID)
	if err != nil {
		return nil, nil, err
	}
	on := im.DispositionOn
	if on.IsZero() {
		on = p.Today(s.now())
	}
	fees := p.Redemption(rec, im, on)
	base := service.Charge{SubjectKind: service.SubjectImpoundment, SubjectID: im.ID, Jurisdiction: p.ID, Site: im.Site, On: on}
	if rec.Owner != nil {
		base.PayerID = rec.Owner.ID
	}
	var open []string
	for _, l := range fees.Lines {
		if l.State != rules.FeeSet && entered[l.Code] <= 0 {
			open = append(open, l.Code)
		}
	}
	cs := fromLines(base, cityOf(p.ID), fees, entered)
	if len(cs) > 0 {
		if err := s.store.CreateCharges(ctx, cs); err != nil {
			return nil, nil, err
		}
	}
	return cs, open, nil
}

// ChargeRedemptionFees is ChargeRedemption of impoundment id.
func (s *Service) ChargeRedemptionFees(ctx context.Context, id int64, entered map[string]int64) ([]*service.Charge, []string, error) {
	im, err := s.store.FindImpoundmentByID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return s.ChargeRedemption(ctx, im, entered)
}

// Settlement says whether a subject's charges are settled.
type Settlement struct {
	SubjectKind string `json:"subject_kind"`
	SubjectID   int64  `json:"subject_id"`
	// Complete is true when every charge is paid or waived (and, for a
	// licence or a redemption with a fee, its charges are raised).
	Complete    bool              `json:"complete"`
	AmountCents int64             `json:"amount_cents"`
	PaidCents   int64             `json:"paid_cents"`
	OwedCents   int64             `json:"owed_cents"`
	Charges     []*service.Charge `json:"charges"`
}

// Settled answers whether the licence or impoundment kind/id is
// complete: a redemption or a licence is complete only when its charges
// are settled or waived.
func (s *Service) Settled(ctx context.Context, kind string, id int64) (*Settlement, error) {
	cs, err := s.Charges(ctx, kind, id)
	if err != nil {
		return nil, err
	}
	st := &Settlement{SubjectKind: kind, SubjectID: id, Charges: cs, Complete: true}
	if st.Charges == nil {
		st.Charges = []*service.Charge{}
	}
	for _, c := range cs {
		st.AmountCents += c.AmountCents
		st.PaidCents += c.PaidCents
		st.OwedCents += c.OwedCents()
	}
	if st.OwedCents > 0 {
		st.Complete = false
	}
	switch {
	case kind == service.SubjectLicence && len(cs) == 0:
		l, err := s.store.FindLicenceByID(ctx, id)
		if err != nil {
			return nil, err
		}
		st.Complete = l.FeeCents == 0
	case kind == service.SubjectImpoundment && len(cs) == 0:
		// A redemption with fees and no charges (a crash between the
		// release and its charges) is not complete: raising them again
		// (POST /api/v1/impoundments/{id}/charges) raises them once.
		im, err := s.store.FindImpoundmentByID(ctx, id)
		if err != nil {
			return nil, err
		}
		st.Complete = im.Disposition != service.Redeemed || im.FeesCents == 0
	}
	return st, nil
}

// Charges lists a subject's charges. A licence bought to redeem lists
// the redemption's charge of its fee too (RedemptionLicence).
func (s *Service) Charges(ctx context.Context, kind string, id int64) ([]*service.Charge, error) {
	cs, _, err := s.store.FindCharges(ctx, service.ChargeFilter{SubjectKind: &kind, SubjectID: &id})
	if err != nil {
		return nil, err
	}
	if kind == service.SubjectLicence {
		l, err := s.store.FindLicenceByID(ctx, id)
		if err != nil {
			return nil, err
		}
		covered, err := RedemptionLicence(ctx, s.store, l)
		if err != nil {
			return nil, err
		}
		cs = append(cs, covered...)
	}
	if cs == nil {
		cs = []*service.Charge{}
	}
	return cs, nil
}

// Pay records a payment (or refund, or void) taken at site and till by
// user. The answer's created is false when r.Key was used before.
func (s *Service) Pay(ctx context.Context, r *service.PaymentRequest) (*service.Payment, bool, error) {
	if r.Kind == "" {
		r.Kind = service.KindPayment
	}
	return s.store.CreatePayment(ctx, r)
}

// Receipt is what a payer takes away: the payment and the charges it
// settled, each with what is still owed on it.
type Receipt struct {
	Payment *service.Payment  `json:"payment"`
	Charges []*service.Charge `json:"charges"`
}

// Receipt reads the receipt of payment id back from the store: a
// receipt is never kept apart from its payment, so a crash between the
// two loses neither.
func (s *Service) Receipt(ctx context.Context, id int64) (*Receipt, error) {
	p, err := s.store.FindPaymentByID(ctx, id)
	if err != nil {
		return nil, err
	}
	r := &Receipt{Payment: p, Charges: []*service.Charge{}}
	for _, l := range p.Lines {
		c, err := s.store.FindChargeByID(ctx, l.ChargeID)
		if err != nil {
			return nil, err
		}
		r.Charges = append(r.Charges, c)
	}
	return r, nil
}

// CashUp is the takings of day at site and till (nil: all).
func (s *Service) CashUp(ctx context.Context, day service.Date, site, till *string) (*service.CashUp, error) {
	if day.IsZero() {
		return nil, service.Errorf(service.EINVALID, "date required (YYYY-MM-DD).")
	}
	return s.store.CashUp(ctx, service.CashUpFilter{From: day, To: day, Site: site, Till: till})
}

// CloseDay closes a till's day after counting it. A day not yet over
// may be closed (the till is counted at closing time); a later entry
// then goes on the next day.
func (s *Service) CloseDay(ctx context.Context, d *service.DayClose) error {
	return s.store.CloseDay(ctx, d)
}

// Today is the business day in jurisdiction's zone (the first profile
// when empty).
func (s *Service) Today(jurisdiction string) service.Date {
	if p := s.rules.Profile(jurisdiction); p != nil {
		return p.Today(s.now())
	}
	if ids := s.rules.IDs(); len(ids) > 0 {
		return s.rules.Profile(ids[0]).Today(s.now())
	}
	return service.DateOf(s.now())
}
