package rules_test

import (
	"fmt"
	_ "time/tzdata"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

func ExampleProfile_LicenceQuote() {
	set, err := rules.Embedded()
	if err != nil {
		panic(err)
	}
	mpls := set.Profile("minneapolis")
	rex := &service.Animal{Species: service.Dog, Altered: true, BirthDate: service.MustDate("2021-05-01")}
	shot := &service.RabiesVaccination{Date: service.MustDate("2025-06-01"), DurationMonths: 36}
	q := mpls.LicenceQuote(rex, shot, service.MustDate("2026-03-15"), rules.QuoteOpts{Issuer: service.IssuerClinic})
	for _, l := range q.Fees.Lines {
		fmt.Printf("%s: %s (%s)\n", l.Label, rules.Money(l.Cents), l.Source)
	}
	fmt.Println("expires", q.ExpiresOn, "clinic paid", rules.Money(q.ClinicPayCents))
	// Output:
	// Licence fee (spayed or neutered): $15.00 (64.30)
	// expires 2027-01-31 clinic paid $2.00
}

func ExampleProfile_HoldFor() {
	set, err := rules.Embedded()
	if err != nil {
		panic(err)
	}
	h := set.Profile("minneapolis").HoldFor(&service.Impoundment{IntakeOn: service.MustDate("2026-03-13")})
	fmt.Println("city", h.City, "state", h.State, "hold until", h.Until, "per", h.Source)
	// Output:
	// city 2026-03-18 state 2026-03-20 hold until 2026-03-20 per Minn. Stat. 346.47 subd. 2
}
