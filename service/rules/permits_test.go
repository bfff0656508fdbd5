package rules_test

import (
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

// TestPermits_ItemsCiteASection: every application item, condition and
// ground of the permits key names its section, and the fees the text
// leaves to a resolution or to a chapter not held are not set, with a
// note saying so (Chanhassen 5-18(c), 5-102, 5-105(a); Minneapolis
// 64.140(a)(2), 68.10).
func TestPermits_ItemsCiteASection(t *testing.T) {
	t.Parallel()
	set, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ch, mp := set.Profile("chanhassen").Permits, set.Profile("minneapolis").Permits
	if ch == nil || mp == nil || ch.Kennel == nil || ch.Stable == nil || mp.OffLeash == nil || mp.MultiAnimal == nil || mp.Adoption == nil || mp.Business == nil || mp.Reports == nil {
		t.Fatalf("permits keys missing: chanhassen %+v, minneapolis %+v", ch, mp)
	}
	var items []rules.Item
	items = append(items, ch.Kennel.Application...)
	items = append(items, ch.Kennel.Refusals...)
	items = append(items, ch.Kennel.Grounds...)
	items = append(items, ch.Kennel.Rules...)
	items = append(items, ch.Stable.Conditions...)
	items = append(items, ch.Stable.Grounds...)
	items = append(items, mp.OffLeash.Grounds...)
	items = append(items, mp.Business.Application...)
	items = append(items, mp.Business.Conditions...)
	items = append(items, mp.Reports.Bite.Contents...)
	items = append(items, mp.Reports.RabiesSuspect.Contents...)
	for _, it := range items {
		if it.Code == "" || it.Text == "" || it.Source == "" {
			t.Errorf("item %+v: want a code, a text and a section", it)
		}
	}
	for _, tt := range []struct {
		name    string
		fee     *rules.Fee
		section string
		note    string
	}{
		{"kennel application fee (5-18(c))", ch.Kennel.ApplicationFee, "5-18(c)", "chapter 4"},
		{"kennel investigation fee (5-18(c))", ch.Kennel.InvestigationFee, "5-18(c)", "chapter 4"},
		{"kennel licence fee (5-18(c))", ch.Kennel.LicenceFee, "5-18(c)", "chapter 4"},
		{"stable application fee (5-102)", ch.Stable.ApplicationFee, "5-102", "resolution"},
		{"stable inspection fee (5-105(a))", ch.Stable.InspectionFee, "5-105(a)", "resolution"},
		{"adoption deposit (64.140(a)(2))", mp.Adoption.Deposit, "64.140(a)(2)", "commissioner of health"},
		{"adoption administrative fee (64.140(b))", mp.Adoption.AdminFee, "64.140(b)", "commissioner of health"},
		{"animal-business fee (68.10)", mp.Business.Fee, "68.10", "not in the text"},
	} {
		if tt.fee.State() != rules.FeeNotSet || tt.fee.Source != tt.section || !strings.Contains(tt.fee.Note, tt.note) {
			t.Errorf("%s = %+v; want not set, %s, a note naming %q", tt.name, tt.fee, tt.section, tt.note)
		}
	}
}

// TestPermitExpiry_Readings: the terms of 5-18(c), 64.55(b) and
// 64.100(c), each the first such day strictly after the issue date.
func TestPermitExpiry_Readings(t *testing.T) {
	t.Parallel()
	d := service.MustDate
	for _, tt := range []struct {
		name, rule, on, want string
		ok                   bool
	}{
		{"December 31 following (5-18(c))", "dec31-next", "2026-03-10", "2026-12-31", true},
		{"issued December 31 (5-18(c))", "dec31-next", "2026-12-31", "2027-12-31", true},
		{"January 31 next (64.55(b))", "jan31-next", "2026-03-10", "2027-01-31", true},
		{"February 1 next (64.100(c))", "feb1-next", "2026-02-01", "2027-02-01", true},
		{"stable: none (5-105)", "none", "2026-03-10", "", false},
		{"animal business: not in the text (68.10)", "not-set", "2026-03-10", "", false},
	} {
		got, ok := rules.PermitExpiry(rules.PermitTerm{Rule: tt.rule}, d(tt.on))
		if ok != tt.ok || tt.ok && got != d(tt.want) {
			t.Errorf("%s: PermitExpiry = %s, %v; want %s, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
	set, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s := set.Profile("chanhassen").Permits.Stable
	for _, tt := range []struct {
		horses int
		acres  float64
		src    string
	}{{1, 1, "5-104(a)(2)"}, {2, 1.5, "5-104(a)(1)"}, {3, 2, "5-104(a)(1)"}, {6, 3, "5-104(a)(1)"}} {
		if got, src := s.StableAcres(tt.horses); got != tt.acres || src != tt.src {
			t.Errorf("StableAcres(%d) = %g (%s), want %g (%s)", tt.horses, got, src, tt.acres, tt.src)
		}
	}
}
