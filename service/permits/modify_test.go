package permits_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/permits"
)

// TestMinneapolis_64_100b_RestrictionsModified: a granted permit for
// more than three dogs or cats "may be modified from time to time"
// (64.100(b)); a modification of its restrictions is in effect from and
// after ten days following the mailing of the written notice, the
// restrictions before it stay until then, and each change keeps the
// text it replaced. What is refused names its field and section.
func TestMinneapolis_64_100b_RestrictionsModified(t *testing.T) {
	f := newFixture(t, "2026-03-10")
	ctx := context.Background()
	p, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitMultiAnimal, Jurisdiction: "minneapolis", Holder: "Ada",
		Address: "3401 Chicago Ave", Application: service.PermitApplication{Animals: 5, Restrictions: "Dogs indoors from 10 p.m."}})
	if err != nil || p.State != service.PermitGranted {
		t.Fatalf("Apply = %+v, %v", p, err)
	}
	for _, tt := range []struct {
		name        string
		m           permits.Modification
		code, field string
	}{
		{"no restrictions", permits.Modification{NoticeOn: d("2026-03-10")}, service.EINVALID, "restrictions"},
		{"no notice", permits.Modification{Restrictions: "No more than four dogs outdoors"}, service.EINVALID, "notice_on"},
		{"notice in the future", permits.Modification{Restrictions: "x", NoticeOn: d("2026-03-11")}, service.EINVALID, "notice_on"},
		{"notice before the permit", permits.Modification{Restrictions: "x", NoticeOn: d("2026-03-01")}, service.EINVALID, "notice_on"},
		{"the same restrictions", permits.Modification{Restrictions: "Dogs indoors from 10 p.m.", NoticeOn: d("2026-03-10")}, service.EINVALID, "restrictions"},
	} {
		_, err := f.svc.Modify(ctx, p.ID, tt.m)
		if service.ErrorCode(err) != tt.code || service.ErrorField(err) != tt.field {
			t.Errorf("%s: Modify = %v, want %s on %s", tt.name, err, tt.code, tt.field)
		}
	}
	got, err := f.svc.Modify(ctx, p.ID, permits.Modification{Restrictions: "Dogs indoors from 9 p.m.; yard cleaned daily", NoticeOn: d("2026-03-10"), Notes: "neighbour's complaint"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Modifications) != 1 {
		t.Fatalf("modifications %+v, want one", got.Modifications)
	}
	m := got.Modifications[0]
	if m.EffectiveOn != d("2026-03-20") || m.Previous != "Dogs indoors from 10 p.m." || m.Notes != "neighbour's complaint" {
		t.Errorf("modification %+v, want effective 2026-03-20 (ten days after the notice, 64.100(b)), replacing the text at grant", m)
	}
	if got.Application.Restrictions != "Dogs indoors from 10 p.m." {
		t.Errorf("restrictions in force before the ten days = %q, want the old ones", got.Application.Restrictions)
	}
	f.now = f.now.Add(9 * 24 * time.Hour) // 2026-03-19
	if g, _ := f.svc.Get(ctx, p.ID); g.Application.Restrictions != "Dogs indoors from 10 p.m." {
		t.Errorf("restrictions on the ninth day = %q, want the old ones", g.Application.Restrictions)
	}
	f.now = f.now.Add(24 * time.Hour) // 2026-03-20
	if g, _ := f.svc.Get(ctx, p.ID); !strings.HasPrefix(g.Application.Restrictions, "Dogs indoors from 9 p.m.") {
		t.Errorf("restrictions on the tenth day = %q, want the modified ones (64.100(b))", g.Application.Restrictions)
	}
	// Modified again: the change replaces the text then in force.
	got, err = f.svc.Modify(ctx, p.ID, permits.Modification{Restrictions: "No more than three dogs outdoors at a time", NoticeOn: d("2026-03-20")})
	if err != nil || len(got.Modifications) != 2 || got.Modifications[1].Previous != "Dogs indoors from 9 p.m.; yard cleaned daily" {
		t.Fatalf("second modification = %+v, %v", got, err)
	}
	// A revoked permit is modified no more.
	if _, err := f.svc.Act(ctx, p.ID, permits.Action{Action: "revoke", NoticeOn: d("2026-03-20")}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Modify(ctx, p.ID, permits.Modification{Restrictions: "x", NoticeOn: d("2026-03-20")})
	wantErr(t, err, service.ECONFLICT, "64.100(b)")
	// Only a 64.100 permit has restrictions modified so.
	o, a := f.dog("", "")
	off, err := f.svc.Apply(ctx, &permits.Request{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID, OwnerID: o.ID,
		Application: service.PermitApplication{RulesSigned: true, RabiesVerified: true, LicenceVerified: true, DogNumber: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Modify(ctx, off.ID, permits.Modification{Restrictions: "x", NoticeOn: d("2026-03-20")})
	if service.ErrorField(err) != "kind" {
		t.Errorf("Modify(off-leash) = %v, want refused on kind", err)
	}
}
