package custody_test

import (
	"context"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/apptest"
	"github.com/chipdesk/chipdesk/service/custody"
	"github.com/chipdesk/chipdesk/service/licensing"
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
