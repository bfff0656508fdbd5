package custody_test

import (
	"context"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/apptest"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/money"
)

func d(s string) service.Date { return service.MustDate(s) }

func newServices(t *testing.T, st service.Store, now func() time.Time) (*custody.Service, *licensing.Service) {
	t.Helper()
	rs := apptest.Rules(t)
	c, err := custody.New(&custody.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	l, err := licensing.New(&licensing.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return c, l
}

// TestImpoundRefusals: what taking an animal in refuses, with the field
// at fault.
func TestImpoundRefusals(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	c, _ := newServices(t, st, apptest.Clock)
	ctx := context.Background()
	dog := apptest.Dog(t, st, "Minneapolis")
	for _, tt := range []struct {
		name        string
		im          service.Impoundment
		code, field string
	}{
		{"no animal", service.Impoundment{Jurisdiction: "minneapolis"}, service.EINVALID, "animal_id"},
		{"unknown jurisdiction", service.Impoundment{AnimalID: dog, Jurisdiction: "duluth"}, service.EINVALID, "jurisdiction"},
		{"346.47 intake in the future", service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis", IntakeOn: d("2028-01-05")}, service.EINVALID, "intake_on"},
		{"5-73(a) notice before the intake", service.Impoundment{AnimalID: dog, Jurisdiction: "chanhassen", IntakeOn: d("2026-06-08"), NoticeOn: d("2026-06-07")}, service.EINVALID, "notice_on"},
	} {
		_, err := c.Impound(ctx, &tt.im)
		apptest.Refused(t, "Impound("+tt.name+")", err, tt.code, tt.field)
	}
}

// TestMinneapolis_62_40a_InCustodyOnce: an animal in custody is not
// impounded again (a page reload, a second officer), nor charged as the
// second impoundment in twelve months; once redeemed it may be, and then
// that is the second.
func TestMinneapolis_62_40a_InCustodyOnce(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		c, _ := newServices(t, st, apptest.Clock)
		ctx := context.Background()
		dog := apptest.Dog(t, st, "Minneapolis")
		first, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "MPLS", IntakeOn: d("2026-06-01")})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis"})
		apptest.Refused(t, "Impound(in custody)", err, service.ECONFLICT, "")
		if _, err := c.Release(ctx, first.ID, &custody.Release{Disposition: service.Redeemed, On: d("2026-06-02")}); err != nil {
			t.Fatal(err)
		}
		second, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis"})
		if err != nil {
			t.Fatal(err)
		}
		if l := second.Fees.Lines[0]; l.Code != "impound" || l.Cents != 7500 {
			t.Errorf("second stay's impound line = %+v, want the 2nd in 12 months, $75 (62.40(a))", l)
		}
	})
}

// TestMinneapolis_62_40a_RedemptionFrozenWithPenalty: the redemption
// comes from the impound's own history, so the $10 penalty of a licence
// bought to redeem stays when the licence was bought during custody;
// the fees are frozen at release.
func TestMinneapolis_62_40a_RedemptionFrozenWithPenalty(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	now := apptest.Now
	clock := func() time.Time { return now }
	c, lic := newServices(t, st, clock)
	ctx := context.Background()
	dog := apptest.Dog(t, st, "Minneapolis") // altered, vaccinated, unlicensed
	stay, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis", IntakeAt: now.Add(-48 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	// The owner buys the licence the next day, before release.
	now = now.Add(time.Hour)
	if _, err := lic.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis"}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Release(ctx, stay.ID, &custody.Release{Disposition: service.Redeemed})
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]int64{}
	for _, l := range out.Redemption.Lines {
		if l.Cents != nil {
			codes[l.Code] = *l.Cents
		}
	}
	// $50 impound, 3 days' board at $15, the $10 penalty; no second
	// licence fee.
	if codes["impound"] != 5000 || codes["board"] != 4500 || codes["licence-penalty"] != 1000 || codes["altered"] != 0 {
		t.Errorf("redemption lines %v, want impound 5000, board 4500, licence-penalty 1000 and no licence fee", codes)
	}
	got, err := st.FindImpoundmentByID(ctx, stay.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Disposition != service.Redeemed || got.FeesCents != 10500 || got.DispositionOn != apptest.Today {
		t.Errorf("stored stay %+v, want redeemed today with $105.00 frozen", got)
	}
	_, err = c.Release(ctx, stay.ID, &custody.Release{Disposition: service.Redeemed})
	apptest.Refused(t, "Release(again)", err, service.ECONFLICT, "")
	// The lines stay visible as paid, days later.
	now = now.Add(72 * time.Hour)
	later, err := c.Find(ctx, stay.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r := later.Redemption; r == nil || r.TotalCents == nil || *r.TotalCents != 10500 || len(r.Lines) != len(out.Redemption.Lines) {
		t.Errorf("redemption after release = %+v, want the $105.00 frozen at release, line for line", r)
	}
}

// TestMinneapolis_62_50_Chanhassen_5_75_DisposalAfterHold: an animal not
// redeemed is adopted, transferred or euthanised only once the hold is
// over; a death is recorded at any time; the hold and the fees are never
// typed in.
func TestMinneapolis_62_50_Chanhassen_5_75_DisposalAfterHold(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	c, _ := newServices(t, st, apptest.Clock)
	ctx := context.Background()
	for _, tt := range []struct {
		name         string
		jurisdiction string
		intake       string
		disposition  service.Disposition
		code         string
	}{
		{"62.50 adopted on day 3", "minneapolis", "2026-06-08", service.Adopted, service.ECONFLICT},
		{"62.50 adopted after five days and five business days", "minneapolis", "2026-06-01", service.Adopted, ""},
		{"5-75 transferred on day 2", "chanhassen", "2026-06-09", service.Transferred, service.ECONFLICT},
		{"died at any time", "minneapolis", "2026-06-09", service.Died, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dog := apptest.Dog(t, st, "Minneapolis")
			stay, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: tt.jurisdiction, IntakeOn: d(tt.intake),
				IntakeAt: apptest.Now.Add(-time.Duration(apptest.Today-d(tt.intake)) * 24 * time.Hour), NoticeOn: d(tt.intake)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Release(ctx, stay.ID, &custody.Release{Disposition: tt.disposition})
			apptest.Refused(t, "Release", err, tt.code, "")
		})
	}
	dog := apptest.Dog(t, st, "Minneapolis")
	stay, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	hold, fees := d("2026-07-01"), int64(1)
	for _, tt := range []struct {
		name  string
		u     service.ImpoundUpdate
		field string
	}{
		{"hold typed in", service.ImpoundUpdate{HoldUntil: &hold}, "hold_until"},
		{"fees typed in", service.ImpoundUpdate{FeesCents: &fees}, "fees_cents"},
		{"notice in the future", service.ImpoundUpdate{NoticeOn: &hold}, "notice_on"},
	} {
		_, err := c.Update(ctx, stay.ID, tt.u)
		apptest.Refused(t, "Update("+tt.name+")", err, service.EINVALID, tt.field)
	}
}

// charges lists the charges on kind/id by fee code.
func charges(t *testing.T, st service.Store, kind string, id int64) map[string]*service.Charge {
	t.Helper()
	cs, _, err := st.FindCharges(context.Background(), service.ChargeFilter{SubjectKind: &kind, SubjectID: &id})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*service.Charge{}
	for _, c := range cs {
		out[c.Kind] = c
	}
	return out
}

// TestMinneapolis_62_40_RedemptionRaisesCharges: the layer raises a
// redemption's charges on the owner, whichever door records the release
// (Release and Update both): the impound fee and board (62.40(a), (b));
// a stay ended otherwise raises none.
func TestMinneapolis_62_40_RedemptionRaisesCharges(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	now := apptest.Now
	c, lic := newServices(t, st, func() time.Time { return now })
	ctx := context.Background()
	redeemed := service.Redeemed
	for _, door := range []string{"Release", "Update"} {
		t.Run(door, func(t *testing.T) {
			dog := apptest.Dog(t, st, "Minneapolis")
			if _, err := lic.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis", IssuedOn: apptest.Today - 5}); err != nil {
				t.Fatal(err)
			}
			stay, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis", IntakeAt: now.Add(-24 * time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			if door == "Release" {
				_, err = c.Release(ctx, stay.ID, &custody.Release{Disposition: service.Redeemed})
			} else {
				_, err = c.Update(ctx, stay.ID, service.ImpoundUpdate{Disposition: &redeemed})
			}
			if err != nil {
				t.Fatal(err)
			}
			got := charges(t, st, service.SubjectImpoundment, stay.ID)
			if len(got) != 2 || got["impound"] == nil || got["impound"].AmountCents != 5000 || got["board"] == nil ||
				got["board"].AmountCents != 2*1500 || got["board"].Section != "Minneapolis 62.40(b)" {
				t.Fatalf("charges %v, want the impound fee and two days' board with their sections", got)
			}
			im, _ := st.FindImpoundmentByID(ctx, stay.ID)
			if rec, _ := st.FindAnimalByID(ctx, dog); got["impound"].PayerID != rec.OwnerID || im.FeesCents != 8000 {
				t.Fatalf("impound charge %+v on payer %d, stay fees %d", got["impound"], rec.OwnerID, im.FeesCents)
			}
		})
	}
	dog := apptest.Dog(t, st, "Minneapolis")
	stay, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Release(ctx, stay.ID, &custody.Release{Disposition: service.Died}); err != nil {
		t.Fatal(err)
	}
	if got := charges(t, st, service.SubjectImpoundment, stay.ID); len(got) != 0 {
		t.Fatalf("a death in custody raised %v", got)
	}
}

// TestMinneapolis_62_40a_RedemptionLicenceChargedOnce: an unlicensed
// dog's redemption charges "a license bought at release" with its
// penalty; the licence then sold is that licence, and its fee is not
// charged a second time. The licence lists the redemption's charge and
// is complete once it is paid. A licence sold later still is charged.
func TestMinneapolis_62_40a_RedemptionLicenceChargedOnce(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	now := apptest.Now
	c, lic := newServices(t, st, func() time.Time { return now })
	ctx := context.Background()
	dog := apptest.Dog(t, st, "Minneapolis") // altered, vaccinated, unlicensed
	stay, err := c.Impound(ctx, &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis", IntakeAt: now.Add(-48 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Release(ctx, stay.ID, &custody.Release{Disposition: service.Redeemed}); err != nil {
		t.Fatal(err)
	}
	red := charges(t, st, service.SubjectImpoundment, stay.ID)
	if red["altered"] == nil || red["altered"].AmountCents != 1500 || red["licence-penalty"] == nil || red["licence-penalty"].AmountCents != 1000 {
		t.Fatalf("redemption charges %v, want the $15 licence (64.30) and the $10 penalty (62.40(a))", red)
	}
	// The owner buys the licence at the counter after the release.
	now = now.Add(time.Hour)
	l, err := lic.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	if got := charges(t, st, service.SubjectLicence, l.ID); len(got) != 0 {
		t.Fatalf("the licence bought at release was charged again: %v", got)
	}
	m, err := money.New(&money.Opts{Store: st, Rules: apptest.Rules(t), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Settled(ctx, service.SubjectLicence, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.Complete || s.OwedCents != 1500 || len(s.Charges) != 1 || s.Charges[0].ID != red["altered"].ID {
		t.Fatalf("licence settlement %+v, want the redemption's $15 licence charge owed", s)
	}
	var ids []int64
	var total int64
	for _, ch := range red {
		ids, total = append(ids, ch.ID), total+ch.AmountCents
	}
	if _, _, err := m.Pay(ctx, &service.PaymentRequest{ChargeIDs: ids, Payment: service.Payment{Method: service.MethodCash, AmountCents: total, Till: "1"}}); err != nil {
		t.Fatal(err)
	}
	if s, err = m.Settled(ctx, service.SubjectLicence, l.ID); err != nil || !s.Complete {
		t.Fatalf("licence settlement after paying the redemption %+v, %v; want complete", s, err)
	}
	// Next year's licence is a licence like any other.
	now = now.AddDate(1, 1, 0)
	apptest.Vaccinate(t, st, dog, "2027-06-01")
	next, err := lic.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	if got := charges(t, st, service.SubjectLicence, next.ID); len(got) != 1 || got["altered"] == nil || got["altered"].AmountCents != 1500 {
		t.Fatalf("next year's licence charges %v, want its $15 fee", got)
	}
}

// TestDeviceImpoundOnce_346_47: a pickup recorded on a handheld becomes
// one impoundment with the hold the law sets (Minn. Stat. 346.47 subd.
// 2), however often it is pushed; another pickup of the animal while it
// is held is refused.
func TestDeviceImpoundOnce_346_47(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		c, _ := newServices(t, st, apptest.Clock)
		ctx := context.Background()
		dog := apptest.Dog(t, st, "Minneapolis")
		at := apptest.Clock().Add(-time.Hour).UTC()
		ev := func(id string, at time.Time) *service.DeviceEvent {
			return &service.DeviceEvent{ID: id, Device: "handheld-3", Kind: service.DeviceImpound, At: at, Site: "north",
				Impound: &service.Impoundment{AnimalID: dog, Jurisdiction: "minneapolis", WhereFound: "Lake St"}}
		}
		applied, id, err := c.ApplyDeviceEvent(ctx, ev("e1", at))
		if err != nil || !applied || id == 0 {
			t.Fatalf("first push = %v %d %v", applied, id, err)
		}
		again, id2, err := c.ApplyDeviceEvent(ctx, ev("e1", at))
		if err != nil || again || id2 != id {
			t.Fatalf("second push = %v %d %v; want a duplicate of %d", again, id2, err, id)
		}
		_, _, err = c.ApplyDeviceEvent(ctx, ev("e2", at.Add(time.Minute)))
		apptest.Refused(t, "another pickup while held", err, service.ECONFLICT, "")
		open := true
		is, n, err := st.FindImpoundments(ctx, service.ImpoundFilter{AnimalID: &dog, Open: &open})
		if err != nil || n != 1 || is[0].HoldUntil.IsZero() || is[0].Site != "north" || is[0].WhereFound != "Lake St" {
			t.Fatalf("impoundments = %d %+v (%v); want one, held, at north, found on Lake St", n, is, err)
		}
	})
}
