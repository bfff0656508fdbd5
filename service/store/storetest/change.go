package storetest

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// testChangeAudit: a change made under service.WithChange is stored with
// its audit event, which names the record it created; a change refused
// leaves no event, and the event goes with the next write that commits.
func testChangeAudit(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	ev := &service.AuditEvent{Actor: "counter-1", Role: service.RoleIntake, Site: "north", Action: "licence.create", Entity: "licence", Detail: "minneapolis"}
	cctx, ch := service.WithChange(ctx, ev)

	// Refused (a tag number taken): no event, the change still pending.
	first := newLicence(a.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(ctx, first))
	taken := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	taken.TagNumber = first.TagNumber
	wantCode(t, "CreateLicence(tag taken)", s.CreateLicence(cctx, taken), service.ECONFLICT)
	if ch.Stored() || service.PendingChange(cctx) != ch {
		t.Fatalf("a refused change's event is stored (%v) or no longer pending", ch.Stored())
	}

	l := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(cctx, l))
	if !ch.Stored() || service.PendingChange(cctx) != nil {
		t.Fatalf("Stored = %v after the change, want true and nothing pending", ch.Stored())
	}
	// A second write under the same context writes no second event.
	must(t, "RevokeLicence", s.RevokeLicence(cctx, first.ID))

	ent := "licence"
	list, n, err := s.FindAuditEvents(ctx, service.AuditFilter{Entity: &ent})
	must(t, "FindAuditEvents", err)
	if n != 1 {
		t.Fatalf("FindAuditEvents(licence) = %d events %+v, want the one change's", n, list)
	}
	got := list[0]
	if got.EntityID != l.ID || got.Action != "licence.create" || got.Actor != "counter-1" || got.Role != service.RoleIntake ||
		got.Site != "north" || got.Detail != "minneapolis" || !got.At.Equal(Start) {
		t.Fatalf("event = %+v, want licence.create of licence %d by counter-1 at north, at %v", got, l.ID, Start)
	}

	// An event stored on its own does not take a pending change's.
	ev2 := &service.AuditEvent{Actor: "counter-1", Action: "animal.update", Entity: "animal", EntityID: a.ID}
	cctx2, ch2 := service.WithChange(ctx, ev2)
	must(t, "CreateAuditEvent", s.CreateAuditEvent(cctx2, &service.AuditEvent{Actor: "counter-1", Action: "record.view", Entity: "animal", EntityID: a.ID}))
	if ch2.Stored() {
		t.Fatalf("CreateAuditEvent stored the pending change's event")
	}
}

// testAuditBatch: a store's batch of audit events (the audit queue's
// write) stores every event, in order, and a bad event stores none.
func testAuditBatch(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	ba, ok := s.(interface {
		CreateAuditEvents(ctx context.Context, evs []*service.AuditEvent) error
	})
	if !ok {
		t.Skip("the store has no CreateAuditEvents")
	}
	var evs []*service.AuditEvent
	for i := range 250 {
		evs = append(evs, &service.AuditEvent{Actor: "officer-1", Role: service.RoleOfficer, Action: "lookup.chip",
			Entity: "animal", EntityID: int64(i + 1), Site: "north"})
	}
	must(t, "CreateAuditEvents", ba.CreateAuditEvents(ctx, evs))
	list, n, err := s.FindAuditEvents(ctx, service.AuditFilter{Limit: 300})
	must(t, "FindAuditEvents", err)
	if n != 250 || len(list) != 250 {
		t.Fatalf("FindAuditEvents = %d events, want 250", n)
	}
	for i, e := range list { // newest first: the last stored first
		if e.EntityID != int64(250-i) || e.Role != service.RoleOfficer || e.Site != "north" || !e.At.Equal(Start) {
			t.Fatalf("event %d = %+v, want animal %d at %v", i, e, 250-i, Start)
		}
	}
	bad := []*service.AuditEvent{{Actor: "a", Action: "x"}, {Action: "no actor"}}
	wantCode(t, "CreateAuditEvents(bad)", ba.CreateAuditEvents(ctx, bad), service.EINVALID)
	if _, n, _ := s.FindAuditEvents(ctx, service.AuditFilter{}); n != 250 {
		t.Errorf("a refused batch stored %d events", n-250)
	}
}

// testChangeAuditKinds: every kind of change a door makes commits with
// its audit event (service.WithChange), naming the record it changed or
// created; a change that finds itself made before (a payment, job or
// batch repeated under its key, a device event pushed again) writes no
// second event, and a bite pushed by a device has its event from the
// store in the bite's own transaction.
func testChangeAuditKinds(t *testing.T, s service.Store, c *Clock) {
	bg := context.Background()
	o, a := fixture(t, s)
	lic := newLicence(a.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(bg, lic))
	im := &service.Impoundment{AnimalID: a.ID, Jurisdiction: "minneapolis", IntakeOn: service.MustDate("2026-03-10")}
	must(t, "CreateImpoundment", s.CreateImpoundment(bg, im))
	charge := []*service.Charge{{Kind: "sterilisation-deposit", Section: "Minneapolis 62.40(c)", AmountCents: 5000,
		SubjectKind: service.SubjectImpoundment, SubjectID: im.ID, On: service.MustDate("2026-03-15")}}
	must(t, "CreateCharges", s.CreateCharges(bg, charge))
	q := &service.Quarantine{AnimalID: a.ID, Kind: service.QuarantineBite, Place: service.AtHome,
		Start: service.MustDate("2026-03-10"), End: service.MustDate("2026-03-20")}
	must(t, "CreateQuarantine", s.CreateQuarantine(bg, q))
	d := &service.DangerousDesignation{AnimalID: a.ID, Level: service.Dangerous, Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-03-01")}
	must(t, "CreateDesignation", s.CreateDesignation(bg, d))
	tok := &service.Token{Name: "old counter", Role: service.RoleIntake}
	_, err := s.CreateToken(bg, tok)
	must(t, "CreateToken", err)
	chip := &service.Chip{AnimalID: a.ID, Code: "985112000000123", Kind: "fdx-b"}
	must(t, "AddChip", s.AddChip(bg, chip))
	permit := &service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Holder: "Kari Berg", State: service.PermitPending,
		AppliedOn: service.MustDate("2026-03-10")}
	must(t, "CreatePermit", s.CreatePermit(bg, permit))
	name := "Rexy"
	phone := "612-555-0199"
	disp, on := service.Redeemed, service.MustDate("2026-03-15")

	// Each case makes one change under ctx and gives the id of the
	// record its event must name (0: the one the event was given).
	cases := []struct {
		action, entity string
		id             int64
		run            func(ctx context.Context) (int64, error)
	}{
		{"owner.create", "owner", 0, func(ctx context.Context) (int64, error) {
			o := &service.Owner{Name: "Per Holm", Address: "1 Elm", City: "Minneapolis", State: "MN", Postcode: "55401"}
			err := s.CreateOwner(ctx, o)
			return o.ID, err
		}},
		{"owner.update", "owner", o.ID, func(ctx context.Context) (int64, error) {
			_, err := s.UpdateOwner(ctx, o.ID, service.OwnerUpdate{Phone: &phone})
			return o.ID, err
		}},
		{"animal.update", "animal", a.ID, func(ctx context.Context) (int64, error) {
			_, err := s.UpdateAnimal(ctx, a.ID, service.AnimalUpdate{Name: &name})
			return a.ID, err
		}},
		{"chip.remove", "chip", chip.ID, func(ctx context.Context) (int64, error) { return chip.ID, s.RemoveChip(ctx, chip.ID) }},
		{"vaccination.create", "vaccination", 0, func(ctx context.Context) (int64, error) {
			v := &service.RabiesVaccination{AnimalID: a.ID, Date: service.MustDate("2026-03-01"), Type: service.VaccineKilled, DurationMonths: 12}
			err := s.CreateVaccination(ctx, v)
			return v.ID, err
		}},
		{"licence.revoke", "licence", lic.ID, func(ctx context.Context) (int64, error) { return lic.ID, s.RevokeLicence(ctx, lic.ID) }},
		{"bite.create", "bite", 0, func(ctx context.Context) (int64, error) {
			b := &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2026-03-10"), Victim: service.VictimPerson, Location: "park"}
			err := s.CreateBite(ctx, b)
			return b.ID, err
		}},
		{"quarantine.create", "quarantine", 0, func(ctx context.Context) (int64, error) {
			q := &service.Quarantine{AnimalID: a.ID, Kind: service.QuarantineBite, Place: service.AtHome,
				Start: service.MustDate("2026-03-11"), End: service.MustDate("2026-03-21")}
			err := s.CreateQuarantine(ctx, q)
			return q.ID, err
		}},
		{"quarantine.release", "quarantine", q.ID, func(ctx context.Context) (int64, error) {
			return q.ID, s.ReleaseQuarantine(ctx, q.ID, service.MustDate("2026-03-20"))
		}},
		{"impoundment.create", "impoundment", 0, func(ctx context.Context) (int64, error) {
			b := another(t, s, a)
			i := &service.Impoundment{AnimalID: b.ID, Jurisdiction: "minneapolis", IntakeOn: service.MustDate("2026-03-14")}
			err := s.CreateImpoundment(ctx, i)
			return i.ID, err
		}},
		{"impoundment.update", "impoundment", im.ID, func(ctx context.Context) (int64, error) {
			_, err := s.UpdateImpoundment(ctx, im.ID, service.ImpoundUpdate{Disposition: &disp, DispositionOn: &on})
			return im.ID, err
		}},
		{"designation.create", "designation", 0, func(ctx context.Context) (int64, error) {
			d := &service.DangerousDesignation{AnimalID: a.ID, Level: service.PotentiallyDangerous, Jurisdiction: "minneapolis", DeclaredOn: service.MustDate("2026-03-02")}
			err := s.CreateDesignation(ctx, d)
			return d.ID, err
		}},
		{"designation.update", "designation", d.ID, func(ctx context.Context) (int64, error) {
			_, err := s.UpdateDesignation(ctx, d.ID, service.DesignationUpdate{MicrochipOn: &on})
			return d.ID, err
		}},
		{"permit.create", "permit", 0, func(ctx context.Context) (int64, error) {
			p := &service.Permit{Kind: service.PermitKennel, Jurisdiction: "chanhassen", Holder: "Liv Holm", State: service.PermitPending,
				AppliedOn: service.MustDate("2026-03-11")}
			err := s.CreatePermit(ctx, p)
			return p.ID, err
		}},
		{"permit.grant", "permit", permit.ID, func(ctx context.Context) (int64, error) {
			p := *permit
			p.State, p.IssuedOn = service.PermitGranted, service.MustDate("2026-03-12")
			return permit.ID, s.UpdatePermit(ctx, &p)
		}},
		{"agreement.create", "adoption_agreement", 0, func(ctx context.Context) (int64, error) {
			ag := &service.AdoptionAgreement{AnimalID: a.ID, Jurisdiction: "minneapolis", Adopter: "Per Holm", AdoptedOn: service.MustDate("2026-03-01"),
				DueOn: service.MustDate("2026-03-31"), DueSource: "64.140(a)(1)"}
			err := s.CreateAdoptionAgreement(ctx, ag)
			return ag.ID, err
		}},
		{"report.create", "animal_report", 0, func(ctx context.Context) (int64, error) {
			r := &service.AnimalReport{Kind: service.ReportBite, Jurisdiction: "minneapolis", ReportedOn: service.MustDate("2026-03-14"),
				Reporter: service.Person{Name: "Dr. Aho"}, Open: true}
			err := s.CreateAnimalReport(ctx, r)
			return r.ID, err
		}},
		{"payment.payment", "payment", 0, func(ctx context.Context) (int64, error) {
			_, _, cs := licenceCharges(t, s)
			req := pay([]int64{cs[0].ID}, service.MethodCash, cs[0].AmountCents)
			req.Key = "till-1/abc"
			p, _, err := s.CreatePayment(ctx, req)
			if err != nil {
				return 0, err
			}
			// The same key again is the same payment: no second event.
			again := *req
			if _, created, err := s.CreatePayment(ctx, &again); err != nil || created {
				t.Errorf("CreatePayment(same key) = created %v, %v; want the first", created, err)
			}
			return p.ID, nil
		}},
		{"deposit.forfeit", "charge", charge[0].ID, func(ctx context.Context) (int64, error) {
			_, err := s.SetChargeOutcome(ctx, charge[0].ID, service.DepositForfeited, service.MustDate("2026-04-30"), "officer")
			return charge[0].ID, err
		}},
		{"cash-up.close", "till", 0, func(ctx context.Context) (int64, error) {
			return 0, s.CloseDay(ctx, &service.DayClose{Site: "office", Till: "9", On: service.MustDate("2026-03-14"), ClosedBy: "clerk"})
		}},
		{"exemption.create", "exemption", 0, func(ctx context.Context) (int64, error) {
			e := &service.Exemption{AnimalID: a.ID, Kind: "service-dog", Section: "Minneapolis 64.30", ApprovedBy: "clerk"}
			err := s.CreateExemption(ctx, e)
			return e.ID, err
		}},
		{"token.create", "token", 0, func(ctx context.Context) (int64, error) {
			t := &service.Token{Name: "counter 2", Role: service.RoleIntake, Site: "north"}
			_, err := s.CreateToken(ctx, t)
			return t.ID, err
		}},
		{"token.revoke", "token", tok.ID, func(ctx context.Context) (int64, error) { return tok.ID, s.RevokeToken(ctx, tok.ID) }},
		{"job.create", "job", 0, func(ctx context.Context) (int64, error) {
			j := &service.Job{Kind: service.JobPrint, LicenceID: lic.ID, Reason: "new"}
			if _, err := s.CreateJob(ctx, j); err != nil {
				return 0, err
			}
			if created, err := s.CreateJob(ctx, &service.Job{Kind: service.JobPrint, LicenceID: lic.ID, Reason: "new"}); err != nil || created {
				t.Errorf("CreateJob(again) = created %v, %v; want the first", created, err)
			}
			return j.ID, nil
		}},
		{"batch.create", "tag-batch", 0, func(ctx context.Context) (int64, error) {
			b := &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Species: "dog", Key: "office/2026/9"}
			if _, err := s.CreateTagBatch(ctx, b, 5); err != nil {
				return 0, err
			}
			again := &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Key: "office/2026/9"}
			if created, err := s.CreateTagBatch(ctx, again, 5); err != nil || created {
				t.Errorf("CreateTagBatch(same key) = created %v, %v; want the first", created, err)
			}
			return b.ID, nil
		}},
	}
	if us, ok := s.(service.UserService); ok {
		cases = append(cases, struct {
			action, entity string
			id             int64
			run            func(ctx context.Context) (int64, error)
		}{"user.create", "user", 0, func(ctx context.Context) (int64, error) {
			u := &service.User{Name: "Dana Ortiz", Role: service.RoleIntake, Site: "shelter", Hash: "$2a$10$x"}
			err := us.CreateUser(ctx, u)
			return u.ID, err
		}})
	}
	for _, tc := range cases {
		ev := &service.AuditEvent{Actor: "clerk-7", Role: service.RoleIntake, Site: "north", TokenID: 7,
			Action: tc.action, Entity: tc.entity, EntityID: tc.id, Detail: "case " + tc.action}
		ctx, ch := service.WithChange(bg, ev)
		id, err := tc.run(ctx)
		must(t, tc.action, err)
		if !ch.Stored() {
			t.Errorf("%s: the store did not write the event with the change", tc.action)
			continue
		}
		var found []*service.AuditEvent
		all, _, err := s.FindAuditEvents(bg, service.AuditFilter{Limit: 500})
		must(t, "FindAuditEvents", err)
		for _, e := range all {
			if e.Action == tc.action && e.Detail == "case "+tc.action {
				found = append(found, e)
			}
		}
		if len(found) != 1 || found[0].EntityID != id || found[0].Entity != tc.entity || found[0].Actor != "clerk-7" ||
			found[0].Site != "north" || found[0].TokenID != 7 {
			t.Errorf("%s: events %+v, want one naming %s %d by clerk-7 (token 7) at north", tc.action, derefs(found), tc.entity, id)
		}
	}

	// A licence sold with its certificate: both events in the one
	// transaction, each naming its record.
	ev := &service.AuditEvent{Actor: "clinic-a", Role: service.RoleClinic, Action: "licence.create", Entity: "licence", Detail: "with certificate"}
	ctx, ch := service.WithChange(bg, ev)
	ch.And("vaccination.create", "vaccination", 0, "with licence")
	l := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-15")
	l.Vaccination = &service.RabiesVaccination{AnimalID: l.AnimalID, Date: service.MustDate("2026-03-01"), Type: service.VaccineKilled, DurationMonths: 12}
	must(t, "CreateLicence(with certificate)", s.CreateLicence(ctx, l))
	for _, want := range []struct {
		entity string
		id     int64
	}{{"licence", l.ID}, {"vaccination", l.Vaccination.ID}} {
		ent, id := want.entity, want.id
		list, n, err := s.FindAuditEvents(bg, service.AuditFilter{Entity: &ent, EntityID: &id})
		must(t, "FindAuditEvents", err)
		if n != 1 || list[0].Actor != "clinic-a" {
			t.Errorf("%s %d: events %+v, want one by clinic-a", ent, id, list)
		}
	}

	// A bite pushed from a device: its event is the store's, in the same
	// transaction; pushed again, nothing new.
	e := &service.DeviceEvent{ID: "dev-1/7", Device: "handheld-1", Kind: service.DeviceBite, At: Start, User: "officer-2",
		Role: service.RoleOfficer, Site: "north", TokenID: 12,
		Bite: &service.BiteIncident{AnimalID: a.ID, Date: service.MustDate("2026-03-14"), Victim: service.VictimPerson, Location: "yard"}}
	for range 2 {
		_, _, err := s.ApplyDeviceEvent(bg, e)
		must(t, "ApplyDeviceEvent", err)
	}
	ent, bid := "bite", e.Bite.ID
	list, n, err := s.FindAuditEvents(bg, service.AuditFilter{Entity: &ent, EntityID: &bid})
	must(t, "FindAuditEvents(bite)", err)
	if n != 1 || list[0].Actor != "officer-2" || list[0].TokenID != 12 {
		t.Errorf("device bite %d: events %+v, want one by officer-2 (token 12)", bid, list)
	}
}

// derefs is evs as values, for a message.
func derefs(evs []*service.AuditEvent) []service.AuditEvent {
	out := make([]service.AuditEvent, len(evs))
	for i, e := range evs {
		out[i] = *e
	}
	return out
}
