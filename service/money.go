package service

import (
	"context"
	"slices"
	"strings"
	"time"
)

// Subjects a charge is raised on.
const (
	SubjectLicence     = "licence"
	SubjectImpoundment = "impoundment"
	SubjectPermit      = "permit"
	// SubjectAdoption is a shelter adoption's sterilisation agreement
	// (Minneapolis 64.140).
	SubjectAdoption = "adoption"
)

// Deposit outcomes (Minneapolis 62.40(c)): a sterilisation deposit is
// refunded on proof of sterilisation within 45 days or forfeited.
const (
	DepositRefunded  = "refunded"
	DepositForfeited = "forfeited"
)

// Charge is one fee owed by one payer, raised on one subject (a
// licence, an impoundment, a permit) with the section of the law that
// sets it. Amounts are integer cents. A charge is never edited: what
// was paid, waived or refunded on it is the sum of its payment lines.
type Charge struct {
	ID int64 `json:"id"`
	// PayerID is the owner who owes it; 0 when none is on file.
	PayerID int64 `json:"payer_id,omitempty"`
	// Kind is the fee line's code ("unaltered", "duplicate", "impound",
	// "board", "licence-penalty", "sterilisation-deposit", "permit").
	Kind        string `json:"kind"`
	Label       string `json:"label"`
	Section     string `json:"section"`
	AmountCents int64  `json:"amount_cents"`
	// PaidCents is what payment lines settled, net of refunds, waivers
	// included; WaivedCents is the waived part of it. Both are computed.
	PaidCents    int64  `json:"paid_cents"`
	WaivedCents  int64  `json:"waived_cents"`
	SubjectKind  string `json:"subject_kind"`
	SubjectID    int64  `json:"subject_id"`
	Jurisdiction string `json:"jurisdiction"`
	Site         string `json:"site,omitempty"`
	// On is the business day the charge was raised (for an impoundment,
	// the redemption day).
	On Date `json:"on"`
	// Outcome of a refundable deposit: "", DepositRefunded or
	// DepositForfeited, set once, with the day and who decided.
	Outcome   string `json:"outcome,omitempty"`
	OutcomeOn Date   `json:"outcome_on,omitzero"`
	OutcomeBy string `json:"outcome_by,omitempty"`

	CreatedAt time.Time `json:"created_at"`
}

// OwedCents is what is still to pay on c.
func (c *Charge) OwedCents() int64 { return c.AmountCents - c.PaidCents }

// Validate checks a charge to be created.
func (c *Charge) Validate() error {
	switch {
	case c.Kind == "":
		return Errorf(EINVALID, "Charge kind required.")
	case c.Section == "":
		return Errorf(EINVALID, "Charge section required (the law that sets the fee).")
	case c.AmountCents < 0:
		return Errorf(EINVALID, "amount_cents cannot be negative.")
	case c.SubjectKind != SubjectLicence && c.SubjectKind != SubjectImpoundment && c.SubjectKind != SubjectPermit && c.SubjectKind != SubjectAdoption:
		return Errorf(EINVALID, "Charge subject_kind must be licence, impoundment, permit or adoption.")
	case c.SubjectID <= 0:
		return Errorf(EINVALID, "Charge subject_id required.")
	case c.On.IsZero():
		return Errorf(EINVALID, "Charge date required.")
	}
	return nil
}

// PaymentMethod is how money was taken.
type PaymentMethod string

// Payment methods. A waiver takes no money: a named supervisor
// forgives the charge.
const (
	MethodCash   PaymentMethod = "cash"
	MethodCard   PaymentMethod = "card"
	MethodCheque PaymentMethod = "cheque"
	MethodWaiver PaymentMethod = "waiver"
)

// Valid reports whether m is a known method.
func (m PaymentMethod) Valid() bool {
	switch m {
	case MethodCash, MethodCard, MethodCheque, MethodWaiver:
		return true
	}
	return false
}

// PaymentKind tells money in from money given back.
type PaymentKind string

// Payment kinds. A refund gives back (part of) an earlier payment on a
// later occasion; a void cancels a payment taken by mistake, the same
// day, in full. Neither edits the payment it reverses.
const (
	KindPayment PaymentKind = "payment"
	KindRefund  PaymentKind = "refund"
	KindVoid    PaymentKind = "void"
)

// PaymentLine is the part of a payment that settles one charge; it is
// negative on a refund or void.
type PaymentLine struct {
	ChargeID int64 `json:"charge_id"`
	Cents    int64 `json:"cents"`
}

// Payment is money taken (or given back, or waived) at a till. It is
// the receipt: its id is the receipt number, and it is written in the
// same transaction as its lines.
type Payment struct {
	ID     int64         `json:"id"`
	Kind   PaymentKind   `json:"kind"`
	Method PaymentMethod `json:"method"`
	// AmountCents is positive: taken for a payment, given back for a
	// refund or void.
	AmountCents int64  `json:"amount_cents"`
	Reference   string `json:"reference,omitempty"`
	// ApprovedBy names the supervisor who waived (MethodWaiver) or
	// approved a refund.
	ApprovedBy string `json:"approved_by,omitempty"`
	// Reverses is the payment a refund or void gives back.
	Reverses int64 `json:"reverses,omitempty"`
	// Key makes creation idempotent: a payment whose key exists is
	// returned instead of taking the money twice.
	Key     string `json:"key,omitempty"`
	Site    string `json:"site,omitempty"`
	Till    string `json:"till,omitempty"`
	TakenBy string `json:"taken_by,omitempty"`
	// On is the business day, set by the store from its clock.
	On    Date          `json:"on"`
	Lines []PaymentLine `json:"lines"`

	CreatedAt time.Time `json:"created_at"`
}

// PaymentRequest asks a store to record a payment of AmountCents
// against ChargeIDs, settled in that order (a part payment settles the
// first charges first); for a refund, Lines may name the charges given
// back, else the reversed payment's lines are given back in order.
type PaymentRequest struct {
	Payment
	ChargeIDs []int64 `json:"charge_ids"`
}

// Validate checks a request before the store looks at the charges.
func (r *PaymentRequest) Validate() error {
	switch {
	case r.Kind != KindPayment && r.Kind != KindRefund && r.Kind != KindVoid:
		return Errorf(EINVALID, "Payment kind must be payment, refund or void.")
	case !r.Method.Valid():
		return Errorf(EINVALID, "method must be cash, card, cheque or waiver.")
	case r.AmountCents <= 0:
		return Errorf(EINVALID, "amount_cents must be more than 0.")
	case r.Kind == KindPayment && len(r.ChargeIDs) == 0:
		return Errorf(EINVALID, "charge_ids required.")
	case r.Kind == KindPayment && r.Reverses != 0:
		return Errorf(EINVALID, "A payment reverses nothing.")
	case r.Kind != KindPayment && r.Reverses == 0:
		return Errorf(EINVALID, "A refund or void names the payment it reverses.")
	case r.Method == MethodWaiver && r.ApprovedBy == "":
		return Errorf(EINVALID, "A waiver names the supervisor who approved it (approved_by).")
	}
	for _, l := range r.Lines {
		if l.Cents <= 0 {
			return Errorf(EINVALID, "Refund lines give back more than 0 cents.")
		}
	}
	return nil
}

// ChargeFilter selects charges. Nil fields do not filter.
type ChargeFilter struct {
	SubjectKind *string
	SubjectID   *int64
	PayerID     *int64
	Kind        *string
	// Open selects charges with something still owed (true) or none.
	Open *bool
	// Paid selects charges with something paid.
	Paid          *bool
	Site          *string
	Offset, Limit int
}

// PaymentFilter selects payments.
type PaymentFilter struct {
	From, To      Date // On, inclusive; zero does not bound
	Site, Till    *string
	ChargeID      *int64
	Offset, Limit int
}

// CashUpFilter selects the payments of a cash-up.
type CashUpFilter struct {
	From, To Date // inclusive
	Site     *string
	Till     *string
}

// CashUp is the takings of some days at some tills. Money taken is
// positive, given back negative; waivers take nothing and are counted
// apart.
type CashUp struct {
	From, To   Date             `json:"-"`
	TotalCents int64            `json:"total_cents"`
	ByMethod   map[string]int64 `json:"by_method"`
	ByFee      map[string]int64 `json:"by_fee"`
	// Payments, Refunds and Voids count the entries; RefundCents and
	// VoidCents are what they gave back.
	Payments    int   `json:"payments"`
	Refunds     int   `json:"refunds"`
	Voids       int   `json:"voids"`
	RefundCents int64 `json:"refund_cents"`
	VoidCents   int64 `json:"void_cents"`
	WaivedCents int64 `json:"waived_cents"`
}

// DayClose records that a till's day was counted and closed: nothing
// more is recorded on it.
type DayClose struct {
	Site     string    `json:"site"`
	Till     string    `json:"till"`
	On       Date      `json:"on"`
	ClosedBy string    `json:"closed_by"`
	ClosedAt time.Time `json:"closed_at"`
}

// Exemption is a fee exemption granted to an animal (Minneapolis 64.30:
// service dogs; foster animals), with who approved it.
type Exemption struct {
	ID         int64  `json:"id"`
	AnimalID   int64  `json:"animal_id"`
	Kind       string `json:"kind"` // "service-dog", "foster"
	Section    string `json:"section"`
	ApprovedBy string `json:"approved_by"`
	Note       string `json:"note,omitempty"`
	On         Date   `json:"on"`

	CreatedAt time.Time `json:"created_at"`
}

// Validate checks an exemption.
func (e *Exemption) Validate() error {
	switch {
	case e.AnimalID <= 0:
		return Errorf(EINVALID, "animal_id required.")
	case e.Kind != "service-dog" && e.Kind != "foster":
		return Errorf(EINVALID, "Exemption kind must be service-dog or foster.")
	case e.ApprovedBy == "":
		return Errorf(EINVALID, "approved_by required: an exemption names who approved it.")
	case e.Section == "":
		return Errorf(EINVALID, "Exemption section required.")
	}
	return nil
}

// RemittanceLine is one licence a contracted clinic sold, with what the
// city owes it for it (Minneapolis 64.30).
type RemittanceLine struct {
	LicenceID    int64  `json:"licence_id"`
	Jurisdiction string `json:"jurisdiction"`
	Year         int    `json:"year"`
	TagNumber    int    `json:"tag_number"`
	IssuedOn     Date   `json:"issued_on"`
	Species      string `json:"species"`
	PayCents     int64  `json:"pay_cents"`
}

// SalesRow counts the licences sold in one month for one jurisdiction,
// species and fee line.
type SalesRow struct {
	Month        string `json:"month"` // YYYY-MM
	Jurisdiction string `json:"jurisdiction"`
	Species      string `json:"species"`
	FeeCode      string `json:"fee_code"`
	Count        int    `json:"count"`
	Cents        int64  `json:"cents"`
}

// IntakeRow counts one month's intakes and how the stays that ended
// that month ended.
type IntakeRow struct {
	Month      string `json:"month"`
	Intakes    int    `json:"intakes"`
	Reclaimed  int    `json:"reclaimed"`
	Adopted    int    `json:"adopted"`
	DisposedOf int    `json:"disposed_of"` // euthanised, died or transferred
}

// Reminder states.
const (
	ReminderPending = "pending"
	// ReminderSending is claimed for sending: a run that stops before
	// marking it sent leaves it so, and no later run sends it again
	// (a person checks it).
	ReminderSending = "sending"
	ReminderSent    = "sent"
	ReminderFailed  = "failed"
)

// Reminder channels.
const (
	ChannelEmail  = "email"
	ChannelLetter = "letter"
)

// Reminder is one renewal reminder to one owner in one reminder run's
// window (Cycle): the outbox row that makes sending it once.
type Reminder struct {
	ID      int64  `json:"id"`
	Cycle   string `json:"cycle"`
	OwnerID int64  `json:"owner_id"`
	Channel string `json:"channel"`
	Name    string `json:"name"`
	Email   string `json:"email,omitempty"`
	// Address is the postal address for a letter, lines joined by "\n".
	Address string `json:"address,omitempty"`
	// Tags lists the licences reminded of: "minneapolis 2026 #1234",
	// one per line; LicenceID is the first of them. For a permit's
	// reminder (Subject permit) they are the permits and LicenceID is
	// the first permit's id.
	Tags      string `json:"tags"`
	LicenceID int64  `json:"licence_id"`
	// Subject is SubjectLicence or SubjectPermit.
	Subject   string    `json:"subject"`
	ExpiresOn Date      `json:"expires_on"`
	State     string    `json:"state"`
	Attempts  int       `json:"attempts"`
	Error     string    `json:"error,omitempty"`
	SentAt    time.Time `json:"sent_at,omitzero"`
	CreatedAt time.Time `json:"created_at"`
}

// MoneyService persists charges, payments, day closes, exemptions and
// the reminder outbox, and answers the money reports.
type MoneyService interface {
	// CreateCharges stores cs in one transaction. A charge on the same
	// subject with the same kind exists already: it is returned in its
	// place (raising a subject's charges twice raises them once).
	CreateCharges(ctx context.Context, cs []*Charge) error
	FindChargeByID(ctx context.Context, id int64) (*Charge, error)
	FindCharges(ctx context.Context, f ChargeFilter) ([]*Charge, int, error)
	// SetChargeOutcome records a deposit's outcome once; ECONFLICT when
	// it has one.
	SetChargeOutcome(ctx context.Context, id int64, outcome string, on Date, by string) (*Charge, error)

	// CreatePayment records r in one transaction with its lines and
	// returns it. It refuses (EINVALID) a payment of more than the
	// charges owe, a refund of more than was paid, a void on another
	// day; (ECONFLICT) an entry on a closed day. A request whose Key
	// exists returns the stored payment and created false.
	CreatePayment(ctx context.Context, r *PaymentRequest) (p *Payment, created bool, err error)
	FindPaymentByID(ctx context.Context, id int64) (*Payment, error)
	FindPayments(ctx context.Context, f PaymentFilter) ([]*Payment, int, error)
	CashUp(ctx context.Context, f CashUpFilter) (*CashUp, error)
	// CloseDay closes a till's day; ECONFLICT when closed already.
	CloseDay(ctx context.Context, d *DayClose) error
	FindDayClose(ctx context.Context, site, till string, on Date) (*DayClose, error)

	CreateExemption(ctx context.Context, e *Exemption) error
	FindExemptions(ctx context.Context, animalID int64) ([]*Exemption, error)

	// Remittance lists the licences clinic sold from..to (inclusive)
	// for which the city owes it a payment.
	Remittance(ctx context.Context, clinic string, from, to Date) ([]RemittanceLine, error)
	// LicenceSales counts licences issued from..to by month,
	// jurisdiction, species and fee code.
	LicenceSales(ctx context.Context, from, to Date) ([]SalesRow, error)
	// IntakeOutcomes counts intakes and ended stays by month.
	IntakeOutcomes(ctx context.Context, from, to Date) ([]IntakeRow, error)

	// QueueReminders adds to the outbox one reminder per owner of an
	// active licence expiring from..before (from zero: any), unless the
	// animal has a licence running past before already or the owner has
	// a reminder in cycle. It returns how many it added.
	QueueReminders(ctx context.Context, cycle string, from, before Date) (int, error)
	// ClaimReminders marks the reminders sent as sent, then marks up to
	// n pending reminders of cycle and channel as sending and returns
	// them, in one transaction (a run records one message and claims
	// the next in one commit).
	ClaimReminders(ctx context.Context, cycle, channel string, n int, sent []int64) ([]*Reminder, error)
	// FinishReminders marks reminders sent or failed, or pending again
	// (claimed but certainly not sent).
	FinishReminders(ctx context.Context, ids []int64, state, errText string) error
	FindReminders(ctx context.Context, cycle, state string) ([]*Reminder, error)
	// QueueReminder adds r to the outbox as pending unless its owner has
	// a reminder in r.Cycle; it answers whether it added it.
	QueueReminder(ctx context.Context, r *Reminder) (bool, error)
}

// Allocate settles amount against the charges ids in order, each up to
// what owed says it owes; more than they owe in all is EINVALID.
func Allocate(amount int64, ids []int64, owed func(id int64) (int64, error)) ([]PaymentLine, error) {
	var lines []PaymentLine
	left, total := amount, int64(0)
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			return nil, Errorf(EINVALID, "charge_ids names charge %d twice.", id)
		}
		o, err := owed(id)
		if err != nil {
			return nil, err
		}
		total += o
		if take := min(left, o); take > 0 {
			lines = append(lines, PaymentLine{ChargeID: id, Cents: take})
			left -= take
		}
	}
	if left > 0 {
		return nil, Errorf(EINVALID, "amount_cents %d is more than the %d cents owed on these charges.", amount, total)
	}
	return lines, nil
}

// ReverseLines checks a refund or void of orig and gives its lines.
// back is what each charge had back already, backTotal their sum.
func ReverseLines(orig *Payment, r *PaymentRequest, on Date, back map[int64]int64, backTotal int64) ([]PaymentLine, PaymentMethod, error) {
	switch {
	case orig.Kind != KindPayment:
		return nil, "", Errorf(EINVALID, "Payment %d is itself a %s and cannot be reversed.", orig.ID, orig.Kind)
	case r.Kind == KindVoid && orig.On != on:
		return nil, "", Errorf(EINVALID, "A payment is voided only on its own day (%s); give a refund instead.", orig.On)
	case r.Kind == KindVoid && (backTotal != 0 || r.AmountCents != orig.AmountCents):
		return nil, "", Errorf(EINVALID, "A void gives back the whole payment (%d cents).", orig.AmountCents)
	case r.Kind == KindRefund && orig.Method == MethodWaiver:
		return nil, "", Errorf(EINVALID, "A waiver took no money to refund; void it instead.")
	case r.AmountCents > orig.AmountCents-backTotal:
		return nil, "", Errorf(EINVALID, "amount_cents %d is more than the %d cents left to give back on payment %d.",
			r.AmountCents, orig.AmountCents-backTotal, orig.ID)
	}
	paid := map[int64]int64{}
	for _, l := range orig.Lines {
		paid[l.ChargeID] = l.Cents - back[l.ChargeID]
	}
	var out []PaymentLine
	if len(r.Lines) > 0 {
		var sum int64
		for _, l := range r.Lines {
			if l.Cents > paid[l.ChargeID] {
				return nil, "", Errorf(EINVALID, "Charge %d had %d cents of payment %d to give back, not %d.",
					l.ChargeID, max(paid[l.ChargeID], 0), orig.ID, l.Cents)
			}
			sum += l.Cents
			out = append(out, PaymentLine{ChargeID: l.ChargeID, Cents: -l.Cents})
		}
		if sum != r.AmountCents {
			return nil, "", Errorf(EINVALID, "The lines give back %d cents, amount_cents says %d.", sum, r.AmountCents)
		}
		return out, orig.Method, nil
	}
	left := r.AmountCents
	for _, l := range orig.Lines {
		if take := min(left, paid[l.ChargeID]); take > 0 {
			out = append(out, PaymentLine{ChargeID: l.ChargeID, Cents: -take})
			left -= take
		}
	}
	return out, orig.Method, nil
}

// NewCashUp returns an empty cash-up for f.
func NewCashUp(f CashUpFilter) *CashUp {
	return &CashUp{From: f.From, To: f.To, ByMethod: map[string]int64{}, ByFee: map[string]int64{}}
}

// AddMethod adds n entries of method and kind totalling cents: a
// payment takes money in, a refund or void gives it back; a waiver
// takes none and is counted apart.
func (cu *CashUp) AddMethod(method, kind string, n int, cents int64) {
	switch PaymentKind(kind) {
	case KindPayment:
		cu.Payments += n
	case KindRefund:
		cu.Refunds += n
		cu.RefundCents += cents
		cents = -cents
	case KindVoid:
		cu.Voids += n
		cu.VoidCents += cents
		cents = -cents
	}
	if PaymentMethod(method) == MethodWaiver {
		cu.WaivedCents += cents
		return
	}
	cu.ByMethod[method] += cents
	cu.TotalCents += cents
}

// IntakeRows gathers IntakeRow counts by month.
type IntakeRows map[string]*IntakeRow

// Add counts n for month: an intake, or a stay ended with disposition
// d (reclaimed, adopted; euthanised, died or transferred are disposed of).
func (rs IntakeRows) Add(month, d string, n int) {
	r := rs[month]
	if r == nil {
		r = &IntakeRow{Month: month}
		rs[month] = r
	}
	switch Disposition(d) {
	case Redeemed:
		r.Reclaimed += n
	case Adopted:
		r.Adopted += n
	case Euthanised, Died, Transferred:
		r.DisposedOf += n
	default:
		r.Intakes += n
	}
}

// Sorted returns the rows by month.
func (rs IntakeRows) Sorted() []IntakeRow {
	out := make([]IntakeRow, 0, len(rs))
	for _, r := range rs {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b IntakeRow) int { return strings.Compare(a.Month, b.Month) })
	return out
}
