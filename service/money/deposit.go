package money

import (
	"context"

	"github.com/chipdesk/chipdesk/service"
)

// DepositKind is the fee code of the sterilisation deposit in the rules.
const DepositKind = "sterilisation-deposit"

// DepositDays is how long after the redemption date an owner has to
// show proof of sterilisation, or a veterinarian's certificate that the
// animal should not be sterilised (Minneapolis 62.40(c)).
const DepositDays = 45

// DepositSection is the law the deposit rules come from.
const DepositSection = "Minneapolis 62.40(c)"

// Deposit is a paid sterilisation deposit with its deadline.
type Deposit struct {
	Charge *service.Charge `json:"charge"`
	// DueOn is the last day proof may be shown (redemption + 45 days).
	DueOn service.Date `json:"due_on"`
	// State is "held" (proof may still come), "overdue" (the 45 days
	// are over: to forfeit), "refunded" or "forfeited".
	State   string `json:"state"`
	Section string `json:"section"`
}

func depositOf(c *service.Charge, today service.Date) Deposit {
	d := Deposit{Charge: c, DueOn: c.On.AddDays(DepositDays), Section: DepositSection}
	switch {
	case c.Outcome != "":
		d.State = c.Outcome
	case today > d.DueOn:
		d.State = "overdue"
	default:
		d.State = "held"
	}
	return d
}

// Deposits lists the paid sterilisation deposits with no outcome yet,
// the officer's list, soonest due first. today is the business day.
func (s *Service) Deposits(ctx context.Context, today service.Date) ([]Deposit, error) {
	kind, paid := DepositKind, true
	cs, _, err := s.store.FindCharges(ctx, service.ChargeFilter{Kind: &kind, Paid: &paid})
	if err != nil {
		return nil, err
	}
	out := []Deposit{}
	for _, c := range cs {
		if c.Outcome == "" {
			out = append(out, depositOf(c, today))
		}
	}
	return out, nil
}

// RefundDeposit gives a deposit back on proof shown on the business day
// today: it must be within 45 days of the redemption (62.40(c)). The
// refund goes back by the method it was paid, at site and till.
func (s *Service) RefundDeposit(ctx context.Context, chargeID int64, today service.Date, by, proof, site, till string) (*service.Payment, error) {
	c, err := s.store.FindChargeByID(ctx, chargeID)
	if err != nil {
		return nil, err
	}
	if c.Kind != DepositKind {
		return nil, service.Errorf(service.EINVALID, "Charge %d is no sterilisation deposit.", chargeID)
	}
	d := depositOf(c, today)
	switch {
	case c.Outcome != "":
		return nil, service.Errorf(service.ECONFLICT, "The deposit was %s already.", c.Outcome)
	case d.State == "overdue":
		return nil, service.Errorf(service.EINVALID, "Proof came after %s, the 45th day after redemption; the deposit is forfeited (%s).",
			d.DueOn, DepositSection)
	case proof == "":
		return nil, service.Errorf(service.EINVALID, "proof required: the veterinarian's sterilisation record or certificate (%s).", DepositSection)
	case c.PaidCents-c.WaivedCents <= 0:
		return nil, service.Errorf(service.EINVALID, "Nothing was paid on deposit %d.", chargeID)
	}
	id := chargeID
	ps, _, err := s.store.FindPayments(ctx, service.PaymentFilter{ChargeID: &id})
	if err != nil {
		return nil, err
	}
	var out *service.Payment
	for _, p := range ps {
		if p.Kind != service.KindPayment || p.Method == service.MethodWaiver {
			continue
		}
		var cents int64
		for _, l := range p.Lines {
			if l.ChargeID == chargeID {
				cents = l.Cents
			}
		}
		if cents <= 0 {
			continue
		}
		r := &service.PaymentRequest{Payment: service.Payment{Kind: service.KindRefund, Method: p.Method, AmountCents: cents,
			Reverses: p.ID, Reference: proof, ApprovedBy: by, Site: site, Till: till, TakenBy: by,
			Lines: []service.PaymentLine{{ChargeID: chargeID, Cents: cents}}}}
		if out, _, err = s.store.CreatePayment(ctx, r); err != nil {
			return nil, err
		}
	}
	if _, err := s.store.SetChargeOutcome(ctx, chargeID, service.DepositRefunded, today, by); err != nil {
		return nil, err
	}
	return out, nil
}

// ForfeitDeposit records that a deposit went to the city: no proof came
// within the 45 days (62.40(c)). Before the 45th day is over it is
// refused.
func (s *Service) ForfeitDeposit(ctx context.Context, chargeID int64, today service.Date, by string) (*service.Charge, error) {
	c, err := s.store.FindChargeByID(ctx, chargeID)
	if err != nil {
		return nil, err
	}
	if c.Kind != DepositKind {
		return nil, service.Errorf(service.EINVALID, "Charge %d is no sterilisation deposit.", chargeID)
	}
	if d := depositOf(c, today); d.State == "held" {
		return nil, service.Errorf(service.EINVALID, "The owner has until %s to show proof (%s).", d.DueOn, DepositSection)
	}
	return s.store.SetChargeOutcome(ctx, chargeID, service.DepositForfeited, today, by)
}

// Statement is a clinic's monthly remittance: what the city owes it for
// the licences it sold (Minneapolis 64.30).
type Statement struct {
	Clinic     string                   `json:"clinic"`
	Month      string                   `json:"month"`
	Licences   int                      `json:"licences"`
	TotalCents int64                    `json:"total_cents"`
	Section    string                   `json:"section"`
	Lines      []service.RemittanceLine `json:"lines"`
}

// Remittance is clinic's statement for month ("YYYY-MM").
func (s *Service) Remittance(ctx context.Context, clinic, month string) (*Statement, error) {
	from, err := service.ParseDate(month + "-01")
	if clinic == "" || err != nil {
		return nil, service.Errorf(service.EINVALID, "clinic and month (YYYY-MM) required.")
	}
	lines, err := s.store.Remittance(ctx, clinic, from, from.AddMonths(1).AddDays(-1))
	if err != nil {
		return nil, err
	}
	st := &Statement{Clinic: clinic, Month: month, Section: "Minneapolis 64.30", Lines: lines}
	if st.Lines == nil {
		st.Lines = []service.RemittanceLine{}
	}
	for _, l := range lines {
		st.Licences++
		st.TotalCents += l.PayCents
	}
	return st, nil
}

// Exempt records a fee exemption with who approved it: a service dog in
// training or trained, or an animal awaiting adoption in a foster home
// (Minneapolis 64.30; the programme approved by the director).
func (s *Service) Exempt(ctx context.Context, e *service.Exemption) error {
	if e.Section == "" {
		e.Section = "Minneapolis 64.30"
	}
	return s.store.CreateExemption(ctx, e)
}
