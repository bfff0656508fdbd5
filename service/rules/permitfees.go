package rules

import (
	"fmt"

	"github.com/chipdesk/chipdesk/service"
)

// Permit fee events: what a permit's fees are paid on.
const (
	// PermitIssued is a permit granted, new or renewed.
	PermitIssued = "issued"
	// PermitRegistered is a stable's annual registration (5-105(a)).
	PermitRegistered = "registered"
)

// PermitFees is the fee lines permit pm owes on event (PermitIssued or
// PermitRegistered, with the registration's year):
//
//   - a kennel licence, its application, investigation and licence fees,
//     "paid when the application is filed" (Chanhassen 5-18(c));
//   - a stable permit, its nonrefundable application fee (5-102), and at
//     each annual registration the nonrefundable inspection fee
//     (5-105(a));
//   - an off-leash permit (Minneapolis 64.55(b)), a permit for more than
//     three dogs or cats (64.100(c)) and an animal-business licence
//     (chapter 68), the fee the permit was granted with (the off-leash
//     fee depends on residence and the number of dogs, decided at grant).
//
// A fee the ordinance leaves to a resolution is a line not set, for the
// clerk to enter.
func (p *Profile) PermitFees(pm *service.Permit, event string, year int) *Breakdown {
	b := &Breakdown{Lines: []FeeLine{}}
	pr := p.Permits
	switch {
	case event == PermitRegistered && pm.Kind == service.PermitStable && pr != nil && pr.Stable != nil:
		b.add(fmt.Sprintf("stable-inspection-%d", year), fmt.Sprintf("Stable inspection fee, %d registration", year), pr.Stable.InspectionFee, 0)
	case event != PermitIssued:
	case pm.Kind == service.PermitKennel && pr != nil && pr.Kennel != nil:
		k := pr.Kennel
		b.add("kennel-application", "Kennel licence application fee", k.ApplicationFee, 0)
		b.add("kennel-investigation", "Kennel licence investigation fee", k.InvestigationFee, 0)
		b.add("kennel-licence", "Kennel licence fee", k.LicenceFee, 0)
	case pm.Kind == service.PermitStable && pr != nil && pr.Stable != nil:
		b.add("stable-application", "Stable permit application fee", pr.Stable.ApplicationFee, 0)
	case pm.Kind == service.PermitOffLeash, pm.Kind == service.PermitMultiAnimal, pm.Kind == service.PermitBusiness:
		if pm.FeeSource == "" && pm.FeeCents == nil {
			break // the profile has no fee for it
		}
		code, label := permitFeeLine(pm.Kind)
		b.add(code, label, &Fee{Cents: pm.FeeCents, Source: pm.FeeSource, Note: pm.FeeNote}, 0)
	}
	return b.finish()
}

// permitFeeLine is the code and label of the one fee of a permit whose
// fee is decided at grant.
func permitFeeLine(k service.PermitKind) (string, string) {
	switch k {
	case service.PermitOffLeash:
		return "off-leash", "Off-leash permit fee"
	case service.PermitMultiAnimal:
		return "multi-animal", "Permit fee, more than three dogs or cats"
	}
	return "animal-business", "Animal-business licence fee"
}

// AdoptionFees is the fee line of a dog or cat not previously sterilised
// that the shelter sells or releases for adoption: the deposit of
// Minneapolis 64.140(a)(2), set by the commissioner of health (a line not
// set unless the site's profile carries it). The administrative fee of
// 64.140(b) is kept from the deposit, not charged beside it.
func (p *Profile) AdoptionFees() *Breakdown {
	b := &Breakdown{Lines: []FeeLine{}}
	if p.Permits != nil && p.Permits.Adoption != nil {
		b.add("adoption-deposit", "Sterilisation deposit (shelter adoption)", p.Permits.Adoption.Deposit, 0)
	}
	return b.finish()
}
