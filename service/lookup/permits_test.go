package lookup_test

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestAnswerShowsPermits: a dog's off-leash permit is on its lookup
// answer like a licence (Minneapolis 64.55), and an open sterilisation
// agreement with its due date, alerting once broken (64.140(a)(1)).
func TestAnswerShowsPermits(t *testing.T) {
	t.Parallel()
	s, st := newService(t)
	ctx := context.Background()
	a := &service.Animal{Name: "Biscuit", Species: service.Dog}
	if err := st.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	const chip = "985121004515220"
	if err := st.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: chip, Kind: "iso11784"}); err != nil {
		t.Fatal(err)
	}
	fee := int64(2500)
	if err := st.CreatePermit(ctx, &service.Permit{Kind: service.PermitOffLeash, Jurisdiction: "minneapolis", Class: "resident", AnimalID: a.ID,
		State: service.PermitGranted, IssuedOn: service.MustDate("2026-03-01"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: &fee, FeeSource: "64.55(b)"}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, due, status string
		alert             bool
	}{
		{"agreement due (64.140(a)(1))", "2026-06-30", "due", false},
		{"agreement broken (64.140(a)(1))", "2026-06-01", "broken", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := &service.Animal{Name: "Pip", Species: service.Cat}
			if err := st.CreateAnimal(ctx, b); err != nil {
				t.Fatal(err)
			}
			if err := st.CreateAdoptionAgreement(ctx, &service.AdoptionAgreement{AnimalID: b.ID, Jurisdiction: "minneapolis", Adopter: "Per Holm",
				AdoptedOn: service.MustDate("2026-05-01"), DueOn: service.MustDate(tt.due), DueSource: "64.140(a)(1)"}); err != nil {
				t.Fatal(err)
			}
			ans, err := s.ByAnimal(ctx, b.ID)
			if err != nil {
				t.Fatal(err)
			}
			if ans.Agreement == nil || ans.Agreement.Status != tt.status || ans.Agreement.Source != "64.140(a)(1)" {
				t.Errorf("agreement = %+v, want %s (64.140(a)(1))", ans.Agreement, tt.status)
			}
			found := false
			for _, d := range ans.AlertDetails {
				found = found || d.Code == "sterilisation-overdue" && d.Section == "64.140(a)(1)"
			}
			if found != tt.alert {
				t.Errorf("alerts %+v: sterilisation-overdue %v, want %v", ans.AlertDetails, found, tt.alert)
			}
		})
	}
	ans, err := s.ByChip(ctx, chip)
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.Permits) != 1 || ans.Permits[0].Kind != "off_leash" || ans.Permits[0].Status != "granted" || ans.Permits[0].Expires != service.MustDate("2027-01-31") || ans.Permits[0].TagNumber != 1 {
		t.Errorf("permits on the answer = %+v, want the off-leash permit until 2027-01-31 with tag 1 (64.55(b))", ans.Permits)
	}
	if ans.Public().Permits == nil || ans.Agreement != nil {
		t.Errorf("public answer permits %+v, agreement %+v", ans.Public().Permits, ans.Agreement)
	}
}
