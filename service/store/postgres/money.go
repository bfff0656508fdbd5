package postgres

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

func scanCharge(r rowScanner, extra ...any) (*service.Charge, error) {
	return scanRow(r, columns.ChargeDest, extra)
}

func scanPayment(r rowScanner, extra ...any) (*service.Payment, error) {
	return scanRow(r, columns.PaymentDest, extra)
}

func scanExemption(r rowScanner, extra ...any) (*service.Exemption, error) {
	return scanRow(r, columns.ExemptionDest, extra)
}

func scanReminder(r rowScanner, extra ...any) (*service.Reminder, error) {
	return scanRow(r, columns.ReminderDest, extra)
}

// CreateCharges implements service.MoneyService.
func (db *DB) CreateCharges(ctx context.Context, cs []*service.Charge) error {
	for _, c := range cs {
		if err := c.Validate(); err != nil {
			return err
		}
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		for _, c := range cs {
			_, err := tx.Exec(ctx, `INSERT INTO charges (payer_id, kind, label, section, amount_cents, subject_kind,
				subject_id, jurisdiction, site, on_day, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)
				ON CONFLICT (subject_kind, subject_id, kind) DO NOTHING`,
				nullID(c.PayerID), c.Kind, c.Label, c.Section, c.AmountCents, c.SubjectKind, c.SubjectID, c.Jurisdiction,
				c.Site, pdate(c.On), now)
			if err != nil {
				return mapErr(err, "Charge")
			}
			got, err := scanCharge(tx.QueryRow(ctx, `SELECT `+columns.Charge+` FROM charge_totals
				WHERE subject_kind = $1 AND subject_id = $2 AND kind = $3`, c.SubjectKind, c.SubjectID, c.Kind))
			if err != nil {
				return mapErr(err, "Charge")
			}
			*c = *got
		}
		return nil
	})
}

// FindChargeByID implements service.MoneyService.
func (db *DB) FindChargeByID(ctx context.Context, id int64) (*service.Charge, error) {
	return findByID(ctx, db, "charge_totals", columns.Charge, "Charge", id, scanCharge)
}

// FindCharges implements service.MoneyService.
func (db *DB) FindCharges(ctx context.Context, f service.ChargeFilter) ([]*service.Charge, int, error) {
	var w where
	if f.SubjectKind != nil {
		w.add("subject_kind = ?", *f.SubjectKind)
	}
	if f.SubjectID != nil {
		w.add("subject_id = ?", *f.SubjectID)
	}
	if f.PayerID != nil {
		w.add("payer_id = ?", *f.PayerID)
	}
	if f.Kind != nil {
		w.add("kind = ?", *f.Kind)
	}
	if f.Open != nil {
		w.add(map[bool]string{true: "amount_cents > paid_cents", false: "amount_cents <= paid_cents"}[*f.Open])
	}
	if f.Paid != nil {
		w.add(map[bool]string{true: "paid_cents > 0", false: "paid_cents <= 0"}[*f.Paid])
	}
	if f.Site != nil {
		w.add("site = ?", *f.Site)
	}
	out, n, err := collectCounted(ctx, db.pool, scanCharge,
		`SELECT `+columns.Charge+`, COUNT(*) OVER () FROM charge_totals`+w.String()+` ORDER BY id`+page(f.Offset, f.Limit), w.args...)
	return out, n, mapErr(err, "Charge")
}

// SetChargeOutcome implements service.MoneyService.
func (db *DB) SetChargeOutcome(ctx context.Context, id int64, outcome string, on service.Date, by string) (*service.Charge, error) {
	if outcome != service.DepositRefunded && outcome != service.DepositForfeited {
		return nil, service.Errorf(service.EINVALID, "Outcome must be refunded or forfeited.")
	}
	var c *service.Charge
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		res, err := tx.Exec(ctx, `UPDATE charges SET outcome = $1, outcome_on = $2, outcome_by = $3 WHERE id = $4 AND outcome = ''`,
			outcome, pdate(on), by, id)
		if err != nil {
			return mapErr(err, "Charge")
		}
		if c, err = scanCharge(tx.QueryRow(ctx, `SELECT `+columns.Charge+` FROM charge_totals WHERE id = $1`, id)); err != nil {
			return notFound(err, "Charge")
		}
		if res.RowsAffected() == 0 {
			return service.Errorf(service.ECONFLICT, "Charge %d was %s already.", id, c.Outcome)
		}
		return nil
	})
	return c, err
}

// CreatePayment implements service.MoneyService.
func (db *DB) CreatePayment(ctx context.Context, r *service.PaymentRequest) (*service.Payment, bool, error) {
	if err := r.Validate(); err != nil {
		return nil, false, err
	}
	var (
		p       *service.Payment
		created bool
	)
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		if r.Key != "" {
			old, err := scanPayment(tx.QueryRow(ctx, `SELECT `+columns.Payment+` FROM payments WHERE pay_key = $1`, r.Key))
			if err == nil {
				p = old
				service.Replayed(ctx)
				return db.paymentLines(ctx, tx, p)
			} else if !errors.Is(err, pgx.ErrNoRows) {
				return mapErr(err, "Payment")
			}
		}
		on := service.DateIn(now, db.loc)
		var closed int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM day_closes WHERE site = $1 AND till = $2 AND on_day = $3`,
			r.Site, r.Till, pdate(on)).Scan(&closed); err != nil {
			return mapErr(err, "Day close")
		}
		if closed > 0 {
			return service.Errorf(service.ECONFLICT, "The day %s is closed at this till; record the correction on a later day.", on)
		}
		n := r.Payment
		n.On, n.CreatedAt, n.Lines = on, now, nil
		var err error
		if r.Kind == service.KindPayment {
			n.Lines, err = service.Allocate(r.AmountCents, r.ChargeIDs, func(id int64) (int64, error) {
				// The charge's row is locked until commit, so that two
				// payments at once cannot both settle what it owes.
				if _, err := tx.Exec(ctx, `SELECT 1 FROM charges WHERE id = $1 FOR UPDATE`, id); err != nil {
					return 0, mapErr(err, "Charge")
				}
				c, err := scanCharge(tx.QueryRow(ctx, `SELECT `+columns.Charge+` FROM charge_totals WHERE id = $1`, id))
				if err != nil {
					return 0, notFound(err, "Charge")
				}
				return c.OwedCents(), nil
			})
		} else {
			n.Lines, n.Method, err = db.reversal(ctx, tx, r, on)
		}
		if err != nil {
			return err
		}
		slices.SortFunc(n.Lines, func(a, b service.PaymentLine) int { return cmp.Compare(a.ChargeID, b.ChargeID) })
		var key any
		if n.Key != "" {
			key = n.Key
		}
		if err := tx.QueryRow(ctx, `INSERT INTO payments (kind, method, amount_cents, reference, approved_by, reverses,
			pay_key, site, till, taken_by, on_day, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING id`,
			n.Kind, n.Method, n.AmountCents, n.Reference, n.ApprovedBy, nullID(n.Reverses), key, n.Site, n.Till, n.TakenBy,
			pdate(n.On), now).Scan(&n.ID); err != nil {
			return mapErr(err, "Payment")
		}
		service.Created(ctx, "payments", n.ID)
		for _, l := range n.Lines {
			if _, err := tx.Exec(ctx, `INSERT INTO payment_lines (payment_id, charge_id, cents) VALUES ($1,$2,$3)`,
				n.ID, l.ChargeID, l.Cents); err != nil {
				return mapErr(err, "Payment line")
			}
		}
		p, created = &n, true
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return p, created, nil
}

// reversal works out the lines of a refund or void of r.Reverses and
// the method money goes back by (the payment's own).
func (db *DB) reversal(ctx context.Context, tx pgx.Tx, r *service.PaymentRequest, on service.Date) ([]service.PaymentLine, service.PaymentMethod, error) {
	orig, err := scanPayment(tx.QueryRow(ctx, `SELECT `+columns.Payment+` FROM payments WHERE id = $1 FOR UPDATE`, r.Reverses))
	if err != nil {
		return nil, "", notFound(err, "Payment to reverse")
	}
	if err := db.paymentLines(ctx, tx, orig); err != nil {
		return nil, "", err
	}
	// What each charge of orig has had back already.
	back := map[int64]int64{}
	var backTotal int64
	rows, err := tx.Query(ctx, `SELECT pl.charge_id, -pl.cents FROM payment_lines pl JOIN payments p ON p.id = pl.payment_id
		WHERE p.reverses = $1`, orig.ID)
	if err != nil {
		return nil, "", mapErr(err, "Payment")
	}
	for rows.Next() {
		var id, c int64
		if err := rows.Scan(&id, &c); err != nil {
			rows.Close()
			return nil, "", mapErr(err, "Payment")
		}
		back[id] += c
		backTotal += c
	}
	rows.Close()
	return service.ReverseLines(orig, r, on, back, backTotal)
}

// paymentLines reads p's lines.
func (db *DB) paymentLines(ctx context.Context, q querier, p *service.Payment) error {
	rows, err := q.Query(ctx, `SELECT charge_id, cents FROM payment_lines WHERE payment_id = $1 ORDER BY charge_id`, p.ID)
	if err != nil {
		return mapErr(err, "Payment line")
	}
	defer rows.Close()
	p.Lines = []service.PaymentLine{}
	for rows.Next() {
		var l service.PaymentLine
		if err := rows.Scan(&l.ChargeID, &l.Cents); err != nil {
			return mapErr(err, "Payment line")
		}
		p.Lines = append(p.Lines, l)
	}
	return mapErr(rows.Err(), "Payment line")
}

// FindPaymentByID implements service.MoneyService.
func (db *DB) FindPaymentByID(ctx context.Context, id int64) (*service.Payment, error) {
	p, err := findByID(ctx, db, "payments", columns.Payment, "Payment", id, scanPayment)
	if err != nil {
		return nil, err
	}
	return p, db.paymentLines(ctx, db.pool, p)
}

// FindPayments implements service.MoneyService.
func (db *DB) FindPayments(ctx context.Context, f service.PaymentFilter) ([]*service.Payment, int, error) {
	var w where
	if !f.From.IsZero() {
		w.add("on_day >= ?", pdate(f.From))
	}
	if !f.To.IsZero() {
		w.add("on_day <= ?", pdate(f.To))
	}
	if f.Site != nil {
		w.add("site = ?", *f.Site)
	}
	if f.Till != nil {
		w.add("till = ?", *f.Till)
	}
	if f.ChargeID != nil {
		w.add("id IN (SELECT payment_id FROM payment_lines WHERE charge_id = ?)", *f.ChargeID)
	}
	out, n, err := collectCounted(ctx, db.pool, scanPayment,
		`SELECT `+columns.Payment+`, COUNT(*) OVER () FROM payments`+w.String()+` ORDER BY id`+page(f.Offset, f.Limit), w.args...)
	if err != nil {
		return nil, 0, mapErr(err, "Payment")
	}
	for _, p := range out {
		if err := db.paymentLines(ctx, db.pool, p); err != nil {
			return nil, 0, err
		}
	}
	return out, n, nil
}

// CashUp implements service.MoneyService.
func (db *DB) CashUp(ctx context.Context, f service.CashUpFilter) (*service.CashUp, error) {
	var w where
	w.add("p.on_day >= ?", pdate(f.From))
	w.add("p.on_day <= ?", pdate(f.To))
	if f.Site != nil {
		w.add("p.site = ?", *f.Site)
	}
	if f.Till != nil {
		w.add("p.till = ?", *f.Till)
	}
	cu := service.NewCashUp(f)
	err := each(ctx, db.pool, func(r rowScanner, _ ...any) (cashRow, error) {
		var c cashRow
		return c, r.Scan(&c.method, &c.kind, &c.n, &c.cents)
	}, func(c cashRow) error { cu.AddMethod(c.method, c.kind, c.n, c.cents); return nil }, "Cash-up",
		`SELECT p.method, p.kind, COUNT(*), SUM(p.amount_cents)::bigint FROM payments p`+w.String()+` GROUP BY p.method, p.kind`, w.args...)
	if err != nil {
		return nil, err
	}
	err = each(ctx, db.pool, func(r rowScanner, _ ...any) (cashRow, error) {
		var c cashRow
		return c, r.Scan(&c.kind, &c.cents)
	}, func(c cashRow) error { cu.ByFee[c.kind] += c.cents; return nil }, "Cash-up",
		`SELECT c.kind, SUM(pl.cents)::bigint FROM payments p JOIN payment_lines pl ON pl.payment_id = p.id JOIN charges c ON c.id = pl.charge_id`+
			w.String()+` AND p.method <> 'waiver' GROUP BY c.kind`, w.args...)
	if err != nil {
		return nil, err
	}
	return cu, nil
}

// cashRow is one grouped row of a cash-up query.
type cashRow struct {
	method, kind string
	n            int
	cents        int64
}

// CloseDay implements service.MoneyService.
func (db *DB) CloseDay(ctx context.Context, d *service.DayClose) error {
	if d.On.IsZero() || d.ClosedBy == "" {
		return service.Errorf(service.EINVALID, "A day close needs the day and who closed it.")
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		d.ClosedAt = now
		_, err := tx.Exec(ctx, `INSERT INTO day_closes (site, till, on_day, closed_by, closed_at) VALUES ($1,$2,$3,$4,$5)`,
			d.Site, d.Till, pdate(d.On), d.ClosedBy, now)
		if err != nil && service.ErrorCode(mapErr(err, "")) == service.ECONFLICT {
			return service.Errorf(service.ECONFLICT, "The day %s is closed at this till already.", d.On)
		}
		return mapErr(err, "Day close")
	})
}

// FindDayClose implements service.MoneyService.
func (db *DB) FindDayClose(ctx context.Context, site, till string, on service.Date) (*service.DayClose, error) {
	d := &service.DayClose{}
	err := db.pool.QueryRow(ctx, `SELECT site, till, on_day, closed_by, closed_at FROM day_closes WHERE site = $1 AND till = $2 AND on_day = $3`,
		site, till, pdate(on)).Scan(&d.Site, &d.Till, dateDst{&d.On}, &d.ClosedBy, stampDst{&d.ClosedAt})
	if err != nil {
		return nil, notFound(err, "Day close")
	}
	return d, nil
}

// CreateExemption implements service.MoneyService.
func (db *DB) CreateExemption(ctx context.Context, e *service.Exemption) error {
	if err := e.Validate(); err != nil {
		return err
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		if e.On.IsZero() {
			e.On = service.DateIn(now, db.loc)
		}
		e.CreatedAt = now
		if err := tx.QueryRow(ctx, `INSERT INTO exemptions (animal_id, kind, section, approved_by, note, on_day, created_at)
			VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id`, e.AnimalID, e.Kind, e.Section, e.ApprovedBy, e.Note, pdate(e.On), now).Scan(&e.ID); err != nil {
			return mapErr(err, "Exemption")
		}
		service.Created(ctx, "exemptions", e.ID)
		return nil
	})
}

// FindExemptions implements service.MoneyService.
func (db *DB) FindExemptions(ctx context.Context, animalID int64) ([]*service.Exemption, error) {
	out, err := collect(ctx, db.pool, scanExemption, `SELECT `+columns.Exemption+` FROM exemptions WHERE animal_id = $1 ORDER BY id`, animalID)
	return out, mapErr(err, "Exemption")
}

// Remittance implements service.MoneyService.
func (db *DB) Remittance(ctx context.Context, clinic string, from, to service.Date) ([]service.RemittanceLine, error) {
	out, err := collect(ctx, db.pool, func(r rowScanner, _ ...any) (service.RemittanceLine, error) {
		var l service.RemittanceLine
		return l, r.Scan(&l.LicenceID, &l.Jurisdiction, &l.Year, &l.TagNumber, dateDst{&l.IssuedOn}, &l.Species, &l.PayCents)
	}, `SELECT l.id, l.jurisdiction, l.year, l.tag_number, l.issued_on, a.species, l.clinic_pay_cents
		FROM licences l JOIN animals a ON a.id = l.animal_id
		WHERE l.issued_by = 'clinic' AND l.clinic = $1 AND l.issued_on >= $2 AND l.issued_on <= $3 AND l.clinic_pay_cents > 0
		ORDER BY l.issued_on, l.id`, clinic, pdate(from), pdate(to))
	return out, mapErr(err, "Remittance")
}

// LicenceSales implements service.MoneyService. It reads licence_sales,
// which a trigger keeps as licences are written.
func (db *DB) LicenceSales(ctx context.Context, from, to service.Date) ([]service.SalesRow, error) {
	out, err := collect(ctx, db.pool, func(r rowScanner, _ ...any) (service.SalesRow, error) {
		var s service.SalesRow
		return s, r.Scan(&s.Month, &s.Jurisdiction, &s.Species, &s.FeeCode, &s.Count, &s.Cents)
	}, `SELECT to_char(day, 'YYYY-MM'), jurisdiction, species, fee_code, SUM(count)::bigint, SUM(cents)::bigint FROM licence_sales
		WHERE day >= $1 AND day <= $2 GROUP BY 1, 2, 3, 4 HAVING SUM(count) > 0 ORDER BY 1, 2, 3, 4`, pdate(from), pdate(to))
	return out, mapErr(err, "Licence sales")
}

// IntakeOutcomes implements service.MoneyService.
func (db *DB) IntakeOutcomes(ctx context.Context, from, to service.Date) ([]service.IntakeRow, error) {
	type row struct {
		month, disp string
		n           int
	}
	scan := func(r rowScanner, _ ...any) (row, error) {
		var x row
		return x, r.Scan(&x.month, &x.disp, &x.n)
	}
	in, err := collect(ctx, db.pool, scan, `SELECT to_char(intake_on, 'YYYY-MM'), '', COUNT(*) FROM impoundments
		WHERE intake_on >= $1 AND intake_on <= $2 GROUP BY 1`, pdate(from), pdate(to))
	if err != nil {
		return nil, mapErr(err, "Intakes")
	}
	end, err := collect(ctx, db.pool, scan, `SELECT to_char(disposition_on, 'YYYY-MM'), disposition, COUNT(*) FROM impoundments
		WHERE disposition <> '' AND disposition_on >= $1 AND disposition_on <= $2 GROUP BY 1, 2`, pdate(from), pdate(to))
	if err != nil {
		return nil, mapErr(err, "Intakes")
	}
	rows := service.IntakeRows{}
	for _, x := range in {
		rows.Add(x.month, "intake", x.n)
	}
	for _, x := range end {
		rows.Add(x.month, x.disp, x.n)
	}
	return rows.Sorted(), nil
}

// QueueReminders implements service.MoneyService.
func (db *DB) QueueReminders(ctx context.Context, cycle string, from, before service.Date) (int, error) {
	if cycle == "" || before.IsZero() {
		return 0, service.Errorf(service.EINVALID, "A reminder run needs a cycle and an expiry date.")
	}
	var n int64
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		res, err := tx.Exec(ctx, `INSERT INTO reminders (cycle, owner_id, channel, name, email, address, tags, licence_id,
			expires_on, state, attempts, created_at)
		SELECT $1, o.id, CASE WHEN o.email <> '' THEN 'email' ELSE 'letter' END, o.name, o.email,
			trim(o.address || chr(10) || trim(o.city || ' ' || o.state || ' ' || o.postcode)),
			string_agg(l.jurisdiction || ' ' || l.year || ' #' || l.tag_number, chr(10) ORDER BY l.id), MIN(l.id), MIN(l.expires_on),
			'pending', 0, $2
		FROM licences l JOIN animals a ON a.id = l.animal_id JOIN owners o ON o.id = a.owner_id
		WHERE l.status = 'active' AND l.expires_on < $3 AND l.expires_on >= $4 AND a.died_on IS NULL
			AND NOT EXISTS (SELECT 1 FROM licences n WHERE n.animal_id = l.animal_id AND n.status = 'active' AND n.expires_on >= $5)
		GROUP BY o.id
		ON CONFLICT (cycle, owner_id) DO NOTHING`, cycle, now, pdate(before), pdate(fromArg(from)), pdate(before))
		if err != nil {
			return mapErr(err, "Reminder")
		}
		n = res.RowsAffected()
		return nil
	})
	return int(n), err
}

// QueueReminder implements service.MoneyService.
func (db *DB) QueueReminder(ctx context.Context, r *service.Reminder) (bool, error) {
	if r.Cycle == "" || r.OwnerID <= 0 || r.ExpiresOn.IsZero() || (r.Channel != service.ChannelEmail && r.Channel != service.ChannelLetter) {
		return false, service.Errorf(service.EINVALID, "A reminder needs a cycle, an owner, a channel and an expiry date.")
	}
	subject := r.Subject
	if subject == "" {
		subject = service.SubjectLicence
	}
	var n int64
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		res, err := tx.Exec(ctx, `INSERT INTO reminders (cycle, owner_id, channel, name, email, address, tags, licence_id,
			expires_on, subject, state, attempts, created_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,'pending',0,$11)
			ON CONFLICT (cycle, owner_id) DO NOTHING`, r.Cycle, r.OwnerID, r.Channel, r.Name, r.Email, r.Address, r.Tags,
			r.LicenceID, pdate(r.ExpiresOn), subject, now)
		if err != nil {
			return mapErr(err, "Reminder")
		}
		n = res.RowsAffected()
		return nil
	})
	return n == 1, err
}

// ClaimReminders implements service.MoneyService.
func (db *DB) ClaimReminders(ctx context.Context, cycle, channel string, n int, sent []int64) ([]*service.Reminder, error) {
	var out []*service.Reminder
	err := db.write(ctx, func(tx pgx.Tx, now time.Time) error {
		if err := finishReminders(ctx, tx, now, sent, service.ReminderSent, ""); err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		var err error
		out, err = collect(ctx, tx, scanReminder, `UPDATE reminders SET state = 'sending', attempts = attempts + 1
			WHERE id IN (SELECT id FROM reminders WHERE cycle = $1 AND channel = $2 AND state = 'pending' ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
			RETURNING `+columns.Reminder, cycle, channel, n)
		return mapErr(err, "Reminder")
	})
	slices.SortFunc(out, func(a, b *service.Reminder) int { return int(a.ID - b.ID) })
	return out, err
}

// FinishReminders implements service.MoneyService.
func (db *DB) FinishReminders(ctx context.Context, ids []int64, state, errText string) error {
	if state != service.ReminderSent && state != service.ReminderFailed && state != service.ReminderPending {
		return service.Errorf(service.EINVALID, "A claimed reminder ends sent or failed, or goes back to pending.")
	}
	if len(ids) == 0 {
		return nil
	}
	return db.write(ctx, func(tx pgx.Tx, now time.Time) error { return finishReminders(ctx, tx, now, ids, state, errText) })
}

// finishReminders moves claimed reminders ids to state.
func finishReminders(ctx context.Context, tx pgx.Tx, now time.Time, ids []int64, state, errText string) error {
	var at any
	if state != service.ReminderPending {
		at = now
	}
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.Exec(ctx, `UPDATE reminders SET state = $1, error = $2, sent_at = $3 WHERE id = ANY($4) AND state = 'sending'`, state, errText, at, ids)
	return mapErr(err, "Reminder")
}

// FindReminders implements service.MoneyService.
func (db *DB) FindReminders(ctx context.Context, cycle, state string) ([]*service.Reminder, error) {
	var w where
	w.add("cycle = ?", cycle)
	if state != "" {
		w.add("state = ?", state)
	}
	out, err := collect(ctx, db.pool, scanReminder, `SELECT `+columns.Reminder+` FROM reminders`+w.String()+` ORDER BY id`, w.args...)
	return out, mapErr(err, "Reminder")
}

// fromArg is a lower date bound: the zero Date bounds nothing.
func fromArg(d service.Date) service.Date {
	if d.IsZero() {
		return service.NewDate(1, 1, 1)
	}
	return d
}
