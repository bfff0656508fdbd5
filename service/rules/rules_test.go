package rules_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	_ "time/tzdata" // profiles name America/Chicago

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
)

var d = service.MustDate

func profiles(t testing.TB) (mpls, chan_ *rules.Profile) {
	t.Helper()
	s, err := rules.Embedded()
	if err != nil {
		t.Fatalf("Embedded: %v", err)
	}
	mpls, chan_ = s.Profile("minneapolis"), s.Profile("chanhassen")
	if mpls == nil || chan_ == nil {
		t.Fatalf("Embedded() ids = %v, want chanhassen and minneapolis", s.IDs())
	}
	return mpls, chan_
}

func dog(birth string, altered bool) *service.Animal {
	a := &service.Animal{ID: 1, Species: service.Dog, Altered: altered}
	if birth != "" {
		a.BirthDate = d(birth)
	}
	return a
}

func vacc(date string, typ service.VaccineType, months int, extended bool) *service.RabiesVaccination {
	return &service.RabiesVaccination{ID: 1, AnimalID: 1, Date: d(date), Type: typ, DurationMonths: months, ExtendedCertified: extended}
}

func TestMinneapolis_64_30_ExpiresJan31(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	for _, tt := range []struct{ name, issued, want string }{
		{"spring", "2026-03-15", "2027-01-31"},
		{"early January: the next January 31 is weeks away", "2026-01-15", "2026-01-31"},
		{"on January 31: the next one", "2026-01-31", "2027-01-31"},
		{"February 1", "2026-02-01", "2027-01-31"},
		{"December 31", "2026-12-31", "2027-01-31"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := mpls.LicenceQuote(dog("2020-01-01", true), vacc("2025-06-01", "", 36, false), d(tt.issued), rules.QuoteOpts{})
			if q.ExpiresOn != d(tt.want) {
				t.Errorf("LicenceQuote(issued %s).ExpiresOn = %s, want %s", tt.issued, q.ExpiresOn, tt.want)
			}
		})
	}
}

func TestMinneapolis_65_30_FerretExpiresJan31(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	a := &service.Animal{Species: service.Ferret}
	q := mpls.LicenceQuote(a, nil, d("2026-05-05"), rules.QuoteOpts{})
	if q.ExpiresOn != d("2027-01-31") {
		t.Errorf("ferret ExpiresOn = %s, want 2027-01-31", q.ExpiresOn)
	}
}

func TestMinneapolis_64_30_Fees(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	on := "2026-03-15"
	rab := vacc("2025-06-01", "", 36, false)
	for _, tt := range []struct {
		name     string
		a        *service.Animal
		issuer   service.Issuer
		fee      int64
		code     string
		clinicPC int64
	}{
		{"unaltered dog", dog("2020-01-01", false), service.IssuerOffice, 3000, "unaltered", 0},
		{"altered dog", dog("2020-01-01", true), service.IssuerOffice, 1500, "altered", 0},
		{"unaltered puppy of 7 months", dog("2025-08-01", false), service.IssuerOffice, 1500, "young", 0},
		{"unaltered dog of 8 months", dog("2025-07-15", false), service.IssuerOffice, 3000, "unaltered", 0},
		{"unknown age counts as adult", dog("", false), service.IssuerOffice, 3000, "unaltered", 0},
		{"service dog exempt", &service.Animal{Species: service.Dog, Programme: service.ServiceDog, BirthDate: d("2020-01-01")}, service.IssuerOffice, 0, "exempt-service-dog", 0},
		{"foster cat exempt", &service.Animal{Species: service.Cat, Programme: service.FosterProgramme, BirthDate: d("2020-01-01")}, service.IssuerOffice, 0, "exempt-foster", 0},
		{"service-dog exemption is not for cats", &service.Animal{Species: service.Cat, Programme: service.ServiceDog, BirthDate: d("2020-01-01")}, service.IssuerOffice, 3000, "unaltered", 0},
		{"clinic is paid $2", dog("2020-01-01", true), service.IssuerClinic, 1500, "altered", 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := mpls.LicenceQuote(tt.a, rab, d(on), rules.QuoteOpts{Issuer: tt.issuer})
			if q.Fees.TotalCents != tt.fee || q.FeeCode != tt.code || !q.Fees.Complete || q.ClinicPayCents != tt.clinicPC {
				t.Errorf("LicenceQuote = total %d code %s complete %v clinic %d, want %d %s true %d",
					q.Fees.TotalCents, q.FeeCode, q.Fees.Complete, q.ClinicPayCents, tt.fee, tt.code, tt.clinicPC)
			}
			if q.Fees.Lines[0].Source != "64.30" {
				t.Errorf("fee source = %q, want 64.30", q.Fees.Lines[0].Source)
			}
		})
	}
	// 64.30: the applicant certifies the rabies vaccination.
	q := mpls.LicenceQuote(dog("2020-01-01", true), nil, d(on), rules.QuoteOpts{})
	if !hasAlert(q.Problems, rules.AlertRabiesMissing) {
		t.Errorf("LicenceQuote(no rabies).Problems = %v, want %s", q.Problems, rules.AlertRabiesMissing)
	}
}

func hasAlert(list []rules.Alert, code string) bool {
	for _, a := range list {
		if a.Code == code {
			return true
		}
	}
	return false
}

func TestMinneapolis_65_30_FerretFeeConflict(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	q := mpls.LicenceQuote(&service.Animal{Species: service.Ferret}, vacc("2026-01-01", "", 12, false), d("2026-03-01"), rules.QuoteOpts{})
	l := q.Fees.Lines[0]
	if l.State != rules.FeeConflict || len(l.Readings) != 2 || l.Readings[0].Cents != 2000 || l.Readings[1].Cents != 2500 || l.Source != "65.30(b)" {
		t.Fatalf("ferret fee line = %+v, want a conflict between 2000 and 2500 from 65.30(b)", l)
	}
	if q.Fees.Complete || q.Fees.TotalCents != 0 {
		t.Errorf("ferret fees complete=%v total=%d, want incomplete, 0", q.Fees.Complete, q.Fees.TotalCents)
	}
	if !hasAlert(q.Problems, rules.AlertFeeConflict) || !strings.Contains(q.Problems[0].Message, "$25.00") {
		t.Errorf("Problems = %+v, want a fee-conflict naming both amounts", q.Problems)
	}
}

func TestMinneapolis_64_40_DuplicateTag(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	for _, tt := range []struct {
		name    string
		p       *rules.Profile
		reason  service.ReplaceReason
		cents   int64
		state   rules.FeeState
		refused bool
	}{
		{"64.40 lost", mpls, service.TagLost, 500, rules.FeeSet, false},
		{"64.40 stolen", mpls, service.TagStolen, 500, rules.FeeSet, false},
		{"64.40 worn tag refused", mpls, "worn", 500, rules.FeeSet, true},
		{"5-55(c) lost, fee by resolution", chan_, service.TagLost, 0, rules.FeeNotSet, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, probs := tt.p.DuplicateQuote(tt.reason)
			if b.TotalCents != tt.cents || b.Lines[0].State != tt.state || hasAlert(probs, "duplicate-reason") != tt.refused {
				t.Errorf("DuplicateQuote(%s) = %+v %+v", tt.reason, b, probs)
			}
		})
	}
}

func TestMinneapolis_64_10_LicenceRequired(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	on := d("2026-03-15")
	for _, tt := range []struct {
		name string
		p    *rules.Profile
		a    *service.Animal
		want rules.LicenceState
	}{
		{"64.10 puppy of 3 months", mpls, dog("2025-12-10", false), rules.LicenceNotRequired},
		{"64.10 dog of exactly 4 months", mpls, dog("2025-11-15", false), rules.LicenceNotRequired},
		{"64.10 dog over 4 months", mpls, dog("2025-11-01", false), rules.LicenceNone},
		{"65.10 ferret of any age", mpls, &service.Animal{Species: service.Ferret, BirthDate: d("2026-02-01")}, rules.LicenceNone},
		{"5-51 puppy in Chanhassen", chan_, dog("2026-01-10", false), rules.LicenceNone},
		{"Chanhassen licenses no ferrets", chan_, &service.Animal{Species: service.Ferret}, rules.LicenceNotLicensed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := tt.p.Evaluate(&service.Record{Animal: *tt.a}, on)
			if e.Licence.State != tt.want {
				t.Errorf("Evaluate().Licence.State = %s, want %s", e.Licence.State, tt.want)
			}
		})
	}
}

func impounds(dates ...string) []service.Impoundment {
	var out []service.Impoundment
	for i, s := range dates {
		im := service.Impoundment{ID: int64(i + 1), AnimalID: 1, Jurisdiction: "minneapolis", IntakeOn: d(s), Disposition: service.Redeemed}
		out = append(out, im)
	}
	return out
}

func TestMinneapolis_62_40_ImpoundFees(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	licence := service.Licence{ID: 9, AnimalID: 1, Jurisdiction: "minneapolis", Kind: service.KindLicence, Status: service.LicenceActive,
		IssuedOn: d("2026-02-01"), ExpiresOn: d("2027-01-31")}
	for _, tt := range []struct {
		name     string
		earlier  []string
		licensed bool
		altered  bool
		birth    string
		want     map[string]int64 // line code → cents; -1: present and not set
		total    int64
	}{
		{"1st impound, 3 days board, licensed", nil, true, true, "2020-01-01",
			map[string]int64{"impound": 5000, "board": 4500}, 9500},
		{"2nd in 12 months", []string{"2025-09-01"}, true, true, "2020-01-01",
			map[string]int64{"impound": 7500, "board": 4500}, 12000},
		{"3rd in 12 months", []string{"2025-06-01", "2025-09-01"}, true, true, "2020-01-01",
			map[string]int64{"impound": 10000, "board": 4500}, 14500},
		{"an impound 13 months ago does not count", []string{"2025-02-01"}, true, true, "2020-01-01",
			map[string]int64{"impound": 5000, "board": 4500}, 9500},
		{"4th in 12 months is not set by 62.40(a)", []string{"2025-06-01", "2025-09-01", "2026-01-05"}, true, true, "2020-01-01",
			map[string]int64{"impound": -1, "board": 4500}, 4500},
		{"licence bought at release with the $10 penalty", nil, false, true, "2020-01-01",
			map[string]int64{"impound": 5000, "board": 4500, "altered": 1500, "licence-penalty": 1000}, 12000},
		{"62.40(c) sterilisation deposit is not set", nil, true, false, "2020-01-01",
			map[string]int64{"impound": 5000, "board": 4500, "sterilisation-deposit": -1}, 9500},
		{"no deposit for a young puppy", nil, true, false, "2025-12-01",
			map[string]int64{"impound": 5000, "board": 4500}, 9500},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := &service.Record{Animal: *dog(tt.birth, tt.altered), Rabies: vacc("2025-06-01", "", 36, false)}
			if tt.licensed {
				rec.Licences = []service.Licence{licence}
			}
			rec.Impounds = impounds(tt.earlier...)
			im := service.Impoundment{ID: 100, AnimalID: 1, Jurisdiction: "minneapolis", IntakeOn: d("2026-03-13")}
			rec.Impounds = append(rec.Impounds, im)
			b := mpls.Redemption(rec, &im, d("2026-03-15"))
			got := map[string]int64{}
			for _, l := range b.Lines {
				got[l.Code] = l.Cents
				if l.State != rules.FeeSet {
					got[l.Code] = -1
				}
			}
			if len(got) != len(tt.want) || b.TotalCents != tt.total {
				t.Fatalf("Redemption = %+v (total %d), want %v (total %d)", got, b.TotalCents, tt.want, tt.total)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("line %s = %d, want %d", k, got[k], v)
				}
			}
			complete := true
			for _, v := range tt.want {
				if v < 0 {
					complete = false
				}
			}
			if b.Complete != complete {
				t.Errorf("Complete = %v, want %v", b.Complete, complete)
			}
		})
	}
}

func TestChanhassen_5_74_RedemptionFeesNotSet(t *testing.T) {
	t.Parallel()
	_, chan_ := profiles(t)
	im := service.Impoundment{ID: 1, AnimalID: 1, Jurisdiction: "chanhassen", IntakeOn: d("2026-03-13")}
	rec := &service.Record{Animal: *dog("2020-01-01", true), Impounds: []service.Impoundment{im}}
	b := chan_.Redemption(rec, &im, d("2026-03-14"))
	if b.Complete || b.TotalCents != 0 || len(b.Lines) < 3 {
		t.Fatalf("Redemption = %+v, want only not-set lines", b)
	}
	for _, l := range b.Lines {
		if l.State != rules.FeeNotSet || l.Source == "" {
			t.Errorf("line %+v: want not-set with a source", l)
		}
	}
}

func TestMinneapolis_62_40_HoldFiveDays(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	for _, tt := range []struct {
		name, intake, city, state, until, source string
	}{
		// 2026-03-16 is a Monday: five business days end Monday 23rd.
		{"Monday intake: 346.47 business days win", "2026-03-16", "2026-03-21", "2026-03-23", "2026-03-23", "Minn. Stat. 346.47 subd. 2"},
		{"Friday intake", "2026-03-13", "2026-03-18", "2026-03-20", "2026-03-20", "Minn. Stat. 346.47 subd. 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := mpls.HoldFor(&service.Impoundment{IntakeOn: d(tt.intake)})
			if h.City != d(tt.city) || h.State != d(tt.state) || h.Until != d(tt.until) || h.Source != tt.source {
				t.Errorf("HoldFor(%s) = %+v, want city %s state %s until %s from %s", tt.intake, h, tt.city, tt.state, tt.until, tt.source)
			}
		})
	}
}

func TestChanhassen_5_73_HoldFromNotice(t *testing.T) {
	t.Parallel()
	_, chan_ := profiles(t)
	// Wednesday intake, notice Thursday: five days after notice is
	// Tuesday 24th; five business days after intake is Wednesday 25th.
	h := chan_.HoldFor(&service.Impoundment{IntakeOn: d("2026-03-18"), NoticeOn: d("2026-03-19")})
	if h.City != d("2026-03-24") || h.Until != d("2026-03-25") || h.Provisional {
		t.Errorf("HoldFor(notice given) = %+v, want city 2026-03-24, until 2026-03-25", h)
	}
	// No notice yet: 5-73(a) allows 24 hours, so the hold is provisional.
	h = chan_.HoldFor(&service.Impoundment{IntakeOn: d("2026-03-18")})
	if h.City != d("2026-03-24") || !h.Provisional {
		t.Errorf("HoldFor(no notice) = %+v, want provisional city 2026-03-24", h)
	}
	// Late notice moves the city's date past the state's.
	h = chan_.HoldFor(&service.Impoundment{IntakeOn: d("2026-03-18"), NoticeOn: d("2026-03-23")})
	if h.Until != d("2026-03-28") || h.Source != "5-73(a)" {
		t.Errorf("HoldFor(late notice) = %+v, want until 2026-03-28 from 5-73(a)", h)
	}
}

func TestMinnesota_346_47_RegularBusinessDays(t *testing.T) {
	t.Parallel()
	p, err := rules.ParseProfile([]byte(minimalProfile(`{
		"source": "Minn. Stat. 346.47 subd. 2",
		"hours": {"mon": ["08:00", "12:00"], "tue": ["06:00", "10:00"], "wed": ["15:00", "21:00"], "thu": ["09:00", "17:00"], "sat": ["10:00", "14:00"]},
		"closed": ["2026-03-19"]}`)))
	if err != nil {
		t.Fatalf("ParseProfile: %v", err)
	}
	for _, tt := range []struct {
		name string
		day  string
		want bool
	}{
		{"four hours from 8:00", "2026-03-16", true},
		{"only two hours after 8:00", "2026-03-17", false},
		{"only four hours before 19:00", "2026-03-18", true},
		{"a closed day", "2026-03-19", false},
		{"not open", "2026-03-20", false},
		{"Saturday 10 to 14", "2026-03-21", true},
		{"Thursday open", "2026-03-26", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.Calendar.IsBusinessDay(d(tt.day)); got != tt.want {
				t.Errorf("IsBusinessDay(%s) = %v, want %v", tt.day, got, tt.want)
			}
		})
	}
	// From Monday 16th: 18 (Wed), 21 (Sat), 23 (Mon), 25 (Wed), 26 (Thu).
	if got := p.Calendar.AddBusinessDays(d("2026-03-16"), 5); got != d("2026-03-26") {
		t.Errorf("AddBusinessDays(2026-03-16, 5) = %s, want 2026-03-26", got)
	}
}

// minimalProfile returns a valid profile JSON with the given calendar.
func minimalProfile(calendar string) string {
	return `{"id": "test", "name": "Test", "code": "test", "timeZone": "America/Chicago", "calendar": ` + calendar + `,
		"licences": {}, "duplicateTag": {"fee": null, "reasons": {"value": [], "source": "x"}},
		"impound": {"hold": {"days": 5, "counting": "calendar", "from": "intake", "source": "x"}, "impoundFees": {"fees": [], "windowMonths": {"value": 12, "source": "x"}}, "boardPerDay": null},
		"rabies": {}, "bite": {"quarantineDays": {"value": 10, "source": "x"}, "homeIfVaccinated": {"value": false, "source": "x"}, "unvaccinatedPlace": {"value": "vet", "source": "x"}},
		"exposure": {"unvaccinated": {"source": "x"}, "vaccinated": {"source": "x"}},
		"dangerous": {"requirements": [], "restrictions": [], "leashMaxFeet": {"value": 0, "source": "x"}}}`
}

func TestChanhassen_5_54_ExpiresOnRabiesAnniversary(t *testing.T) {
	t.Parallel()
	_, chan_ := profiles(t)
	for _, tt := range []struct {
		name, vaccinated, issued, want string
	}{
		{"anniversary later this year", "2025-06-10", "2026-03-01", "2026-06-10"},
		{"issued on the anniversary", "2025-06-10", "2026-06-10", "2027-06-10"},
		{"vaccinated this year", "2026-02-01", "2026-03-01", "2027-02-01"},
		{"leap-day vaccination", "2024-02-29", "2026-03-01", "2027-02-28"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := chan_.LicenceQuote(dog("2020-01-01", true), vacc(tt.vaccinated, service.VaccineModifiedLive, 12, false), d(tt.issued), rules.QuoteOpts{})
			if q.ExpiresOn != d(tt.want) {
				t.Errorf("LicenceQuote(vaccinated %s, issued %s).ExpiresOn = %s, want %s", tt.vaccinated, tt.issued, q.ExpiresOn, tt.want)
			}
		})
	}
	q := chan_.LicenceQuote(dog("2020-01-01", true), nil, d("2026-03-01"), rules.QuoteOpts{})
	if !q.ExpiresOn.IsZero() || !hasAlert(q.Problems, rules.AlertExpiryUndetermined) {
		t.Errorf("LicenceQuote(no vaccination) = %+v, want no expiry and %s", q, rules.AlertExpiryUndetermined)
	}
}

func TestChanhassen_5_53_FeesNotSet(t *testing.T) {
	t.Parallel()
	_, chan_ := profiles(t)
	q := chan_.LicenceQuote(dog("2020-01-01", false), vacc("2025-06-10", service.VaccineModifiedLive, 12, false), d("2026-03-01"), rules.QuoteOpts{})
	if l := q.Fees.Lines[0]; l.State != rules.FeeNotSet || l.Source != "5-53" || q.Fees.Complete {
		t.Errorf("Chanhassen licence fee = %+v, want not set from 5-53", q.Fees)
	}
	if !hasAlert(q.Problems, rules.AlertFeeNotSet) {
		t.Errorf("Problems = %+v, want %s", q.Problems, rules.AlertFeeNotSet)
	}
	// A site fills in the fee from chapter 4 by replacing the profile.
	p := *chan_
	rule := *p.Licences[service.Dog]
	rule.Fees.Unaltered = &rules.Fee{Cents: rules.Cents(2000), Source: "Chanhassen City Code 4-2 (site setting)"}
	p.Licences = map[service.Species]*rules.LicenceRule{service.Dog: &rule}
	q = p.LicenceQuote(dog("2020-01-01", false), vacc("2025-06-10", service.VaccineModifiedLive, 12, false), d("2026-03-01"), rules.QuoteOpts{})
	if q.Fees.TotalCents != 2000 || !q.Fees.Complete {
		t.Errorf("with a site fee: %+v, want 2000 complete", q.Fees)
	}
}

func TestChanhassen_5_37_RabiesValidity(t *testing.T) {
	t.Parallel()
	_, chan_ := profiles(t)
	cat := &service.Animal{Species: service.Cat, BirthDate: d("2020-01-01")}
	for _, tt := range []struct {
		name    string
		a       *service.Animal
		v       *service.RabiesVaccination
		state   rules.RabiesState
		until   string
		assumed bool
	}{
		{"cat: one year", cat, vacc("2025-06-01", service.VaccineKilled, 36, false), rules.RabiesCurrent, "2026-06-01", false},
		{"cat: one year even if the certificate says 3", cat, vacc("2024-06-01", service.VaccineKilled, 36, false), rules.RabiesExpired, "2025-06-01", false},
		{"dog, modified live: one year", dog("2020-01-01", true), vacc("2025-06-01", service.VaccineModifiedLive, 0, false), rules.RabiesCurrent, "2026-06-01", false},
		{"dog, modified live, 36 months certified", dog("2020-01-01", true), vacc("2024-06-01", service.VaccineModifiedLive, 36, true), rules.RabiesCurrent, "2027-06-01", false},
		{"dog, modified live, 36 months not certified", dog("2020-01-01", true), vacc("2024-06-01", service.VaccineModifiedLive, 36, false), rules.RabiesExpired, "2025-06-01", false},
		{"dog, modified live, 48 months certified: capped at 36", dog("2020-01-01", true), vacc("2024-06-01", service.VaccineModifiedLive, 48, true), rules.RabiesCurrent, "2027-06-01", false},
		{"dog, type unstated: killed assumed, period not set", dog("2020-01-01", true), vacc("2025-06-01", "", 12, false), rules.RabiesUndetermined, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := chan_.RabiesStatus(tt.a, tt.v, d("2026-03-15"))
			want := service.Date(0)
			if tt.until != "" {
				want = d(tt.until)
			}
			if st.State != tt.state || st.ValidUntil != want || (len(st.Assumed) > 0) != tt.assumed || st.Source != "5-37(a)" {
				t.Errorf("RabiesStatus = %+v, want %s until %s (assumed %v) from 5-37(a)", st, tt.state, tt.until, tt.assumed)
			}
		})
	}
}

func TestMinneapolis_66_10_RabiesBoosters(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	ferret := &service.Animal{Species: service.Ferret, BirthDate: d("2020-01-01")}
	for _, tt := range []struct {
		name   string
		a      *service.Animal
		v      *service.RabiesVaccination
		months int
		source string
	}{
		{"66.10 three-year vaccine", dog("2020-01-01", true), vacc("2025-06-01", "", 36, false), 36, "66.10"},
		{"66.10 duration not stated: 12", dog("2020-01-01", true), vacc("2025-06-01", "", 0, false), 12, "66.10"},
		{"66.10 at most 36", dog("2020-01-01", true), vacc("2025-06-01", "", 48, false), 36, "66.10"},
		{"66.10 first booster within 12 months", dog("2025-02-01", true), vacc("2025-06-01", "", 36, false), 12, "66.10"},
		{"66.25 ferret every 12 months", ferret, vacc("2025-06-01", "", 0, false), 12, "66.25"},
		{"66.20 cat three-year vaccine", &service.Animal{Species: service.Cat, BirthDate: d("2019-01-01")}, vacc("2025-06-01", "", 36, false), 36, "66.20"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := mpls.RabiesStatus(tt.a, tt.v, d("2026-03-15"))
			if st.Months != tt.months || st.Source != tt.source || st.ValidUntil != tt.v.Date.AddMonths(tt.months) {
				t.Errorf("RabiesStatus = %+v, want %d months from %s", st, tt.months, tt.source)
			}
		})
	}
	// 66.10: not required up to four months of age.
	if st := mpls.RabiesStatus(dog("2026-01-01", false), nil, d("2026-03-15")); st.Required || st.State != rules.RabiesNotRequired {
		t.Errorf("RabiesStatus(puppy) = %+v, want not required", st)
	}
}

func TestMinneapolis_66_40_BiteQuarantine(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	for _, tt := range []struct {
		name  string
		p     *rules.Profile
		v     *service.RabiesVaccination
		place service.QuarantinePlace
		src   string
	}{
		{"66.40(b) vaccinated: confined by the owner", mpls, vacc("2025-06-01", "", 36, false), service.AtHome, "66.40(b)"},
		{"66.40(a) not vaccinated: impounded", mpls, nil, service.AtShelter, "66.40"},
		{"5-39(a) home quarantine with current proof", chan_, vacc("2025-06-01", service.VaccineModifiedLive, 12, false), service.AtHome, "5-39(a)"},
		{"5-39(a) without proof: under a veterinarian", chan_, nil, service.AtVet, "5-39(a)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.p.BiteQuarantine(dog("2020-01-01", true), tt.v, d("2026-03-10"))
			if q.End != d("2026-03-20") || q.Place != tt.place || q.Source != tt.src {
				t.Errorf("BiteQuarantine = %+v, want 10 days to 2026-03-20 at %s from %s", q, tt.place, tt.src)
			}
		})
	}
}

func TestMinneapolis_66_50_Chanhassen_5_40_Exposure(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	on := d("2026-03-10")
	current := vacc("2025-06-01", service.VaccineModifiedLive, 36, false)
	type opt struct{ option, end, vaccinate, source string }
	for _, tt := range []struct {
		name   string
		p      *rules.Profile
		rabies *service.RabiesVaccination
		want   []opt
	}{
		{"66.50(b) vaccinated", mpls, current, []opt{
			{rules.OptionDestroy, "2026-03-10", "", "66.50(b)(3)"},
			{rules.OptionRevaccinateConfine, "2026-04-19", "2026-03-10", "66.50(b)(1)"}, // 40 days after revaccination
			{rules.OptionStrictIsolation, "2026-09-10", "2026-08-10", "66.50(b)(2)"},    // 6 months, vaccinated a month before release
		}},
		{"66.50(a) unvaccinated", mpls, nil, []opt{
			{rules.OptionDestroy, "2026-03-10", "", "66.50(a)"},
			{rules.OptionStrictIsolation, "2026-09-10", "2026-08-10", "66.50(a)"},
		}},
		{"5-40 unvaccinated", chan_, nil, []opt{
			{rules.OptionDestroy, "2026-03-10", "", "5-40"},
			{rules.OptionStrictIsolation, "2026-09-10", "", "5-40"}, // not less than six months
		}},
		{"5-40 vaccinated", chan_, vacc("2025-06-01", service.VaccineModifiedLive, 12, false), []opt{
			{rules.OptionDestroy, "2026-03-10", "", "5-40"},
			{rules.OptionBooster, "2026-03-10", "2026-03-10", "5-40"}, // proof of immunization and boosters
			{rules.OptionStrictIsolation, "2026-09-10", "", "5-40"},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.p.ExposureOptions(dog("2020-01-01", true), tt.rabies, on)
			if len(got) != len(tt.want) {
				t.Fatalf("ExposureOptions = %+v, want %d options", got, len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				if g.Option != w.option || g.End.String() != w.end || g.VaccinateOn.String() != w.vaccinate || g.Source != w.source || g.Kind != service.QuarantineExposure {
					t.Errorf("option %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func deadlines(e *rules.Evaluation) map[string]rules.Deadline {
	m := map[string]rules.Deadline{}
	for _, dl := range e.Deadlines {
		m[dl.Name] = dl
	}
	return m
}

func TestMinneapolis_64_110_DangerousDeadlines(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	des := &service.DangerousDesignation{ID: 1, AnimalID: 1, Level: service.Dangerous, Jurisdiction: "minneapolis",
		DeclaredOn: d("2026-03-01"), DecisionOn: d("2026-03-10"), MicrochipOn: d("2026-03-20"),
		InsuredOn: d("2026-03-05"), InsuranceCents: 30000000}
	e := mpls.Evaluate(&service.Record{Animal: *dog("2020-01-01", false), Dangerous: des}, d("2026-04-01"))
	m := deadlines(e)
	for _, tt := range []struct {
		name  string
		state rules.DeadlineState
		due   string
	}{
		{"microchip", rules.DeadlineMet, "2026-03-25"},        // 64.110(g): 15 days from the later hearing decision
		{"sterilisation", rules.DeadlineMissed, "2026-03-25"}, // 64.110(i)
		{"photo", rules.DeadlineOpen, ""},                     // 64.110(h): when animal control says
		{"registration", rules.DeadlineOpen, ""},
		{"insurance", rules.DeadlineMet, ""},
	} {
		dl, ok := m[tt.name]
		want := service.Date(0)
		if tt.due != "" {
			want = d(tt.due)
		}
		if !ok || dl.State != tt.state || dl.Due != want || dl.Source == "" {
			t.Errorf("deadline %s = %+v, want %s due %s", tt.name, dl, tt.state, tt.due)
		}
	}
	if !hasAlert(e.Alerts, rules.AlertDangerous) || !hasAlert(e.Alerts, rules.AlertDeadlineMissed) || len(e.Restrictions) == 0 {
		t.Errorf("alerts %+v restrictions %d, want dangerous + deadline-missed and restrictions", e.Alerts, len(e.Restrictions))
	}
	if e.Alerts[0].Severity != rules.Danger {
		t.Errorf("first alert %+v, want the danger one first", e.Alerts[0])
	}
	// 347.51 subd. 2: less than $300,000 of cover does not count.
	des.InsuranceCents = 10000000
	if m := deadlines(mpls.Evaluate(&service.Record{Animal: *dog("2020-01-01", false), Dangerous: des}, d("2026-04-01"))); m["insurance"].State != rules.DeadlineOpen {
		t.Errorf("insurance of $100,000 = %+v, want open", m["insurance"])
	}
	// 64.110(c): chain of at most three feet.
	for _, r := range e.Restrictions {
		if r.Source == "64.110(c)" && !strings.Contains(r.Value, "3 feet") {
			t.Errorf("64.110(c) restriction %q does not say 3 feet", r.Value)
		}
	}
}

func TestChanhassen_5_77_5_78_DangerousDeadlines(t *testing.T) {
	t.Parallel()
	_, chan_ := profiles(t)
	des := &service.DangerousDesignation{ID: 1, AnimalID: 1, Level: service.Dangerous, Jurisdiction: "chanhassen",
		DeclaredOn: d("2026-03-01"), SignOn: d("2026-04-05")}
	m := deadlines(chan_.Evaluate(&service.Record{Animal: *dog("2020-01-01", false), Dangerous: des}, d("2026-04-15")))
	if dl := m["sign"]; dl.State != rules.DeadlineMetLate || dl.Due != d("2026-03-31") || dl.Source != "5-77(4)" {
		t.Errorf("5-77(4) sign = %+v, want met late, due 2026-03-31", dl)
	}
	if dl := m["registration"]; dl.State != rules.DeadlineDue || dl.Due != d("2026-04-30") || dl.Source != "5-78" {
		t.Errorf("5-78 registration = %+v, want due 2026-04-30", dl)
	}
	if chan_.Dangerous.LeashMaxFeet.Value != 4 || chan_.Dangerous.LeashMaxFeet.Source != "5-77(1)" {
		t.Errorf("5-77(1) leash = %+v, want 4 feet", chan_.Dangerous.LeashMaxFeet)
	}
}

func TestMinneapolis_64_100_ThreeAnimalsPerDwelling(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	on := d("2026-03-15")
	adult := *dog("2020-01-01", true)
	cat := service.Animal{Species: service.Cat, BirthDate: d("2021-01-01")}
	puppy := *dog("2026-01-01", false)
	ferret := service.Animal{Species: service.Ferret}
	for _, tt := range []struct {
		name    string
		animals []service.Animal
		permit  bool
		alert   bool
	}{
		{"three", []service.Animal{adult, adult, cat}, false, false},
		{"four", []service.Animal{adult, adult, cat, cat}, false, true},
		{"four with a permit", []service.Animal{adult, adult, cat, cat}, true, false},
		{"a puppy under four months does not count", []service.Animal{adult, adult, cat, puppy}, false, false},
		{"a ferret does not count", []service.Animal{adult, adult, cat, ferret}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := mpls.DwellingCheck(tt.animals, tt.permit, on)
			if (a != nil) != tt.alert || a != nil && a.Source != "64.100(a)" {
				t.Errorf("DwellingCheck = %+v, want alert %v", a, tt.alert)
			}
		})
	}
	if a := chan_.DwellingCheck([]service.Animal{adult, adult, adult, adult}, false, on); a != nil {
		t.Errorf("Chanhassen DwellingCheck = %+v; its code has no such limit", a)
	}
}

func TestMinneapolis_64_55_OffLeashPermits(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	on := d("2026-05-01")
	for _, tt := range []struct {
		name     string
		resident bool
		nth      int
		cents    int64
	}{
		{"resident, first dog", true, 1, 2500},
		{"resident, second dog", true, 2, 1500},
		{"non-resident, first dog", false, 1, 5000},
		{"non-resident, third dog", false, 3, 3000},
	} {
		q, err := mpls.OffLeashQuote(tt.resident, tt.nth, false, on)
		if err != nil || q.Fees.TotalCents != tt.cents || q.ExpiresOn != d("2027-01-31") || q.Fees.Lines[0].Source != "64.55(b)" {
			t.Errorf("OffLeashQuote(%s) = %+v, %v; want %d until 2027-01-31", tt.name, q, err, tt.cents)
		}
	}
	_, err := mpls.OffLeashQuote(true, 1, true, on)
	if service.ErrorCode(err) != service.EINVALID {
		t.Errorf("OffLeashQuote(dangerous) error %v, want EINVALID (64.55(a))", err)
	}
}

func TestEvaluate_ScanAlerts(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	on := d("2026-03-15")
	old := service.Licence{ID: 1, AnimalID: 1, Jurisdiction: "minneapolis", Kind: service.KindLicence, Year: 2025, TagNumber: 77,
		Status: service.LicenceReplaced, IssuedOn: d("2025-02-01"), ExpiresOn: d("2026-01-31")}
	rec := &service.Record{
		Animal:         *dog("2020-01-01", true),
		Licences:       []service.Licence{old},
		Rabies:         vacc("2024-01-01", "", 12, false),
		Quarantines:    []service.Quarantine{{ID: 1, AnimalID: 1, Kind: service.QuarantineBite, Place: service.AtHome, Start: d("2026-03-10"), End: d("2026-03-20")}},
		Bites:          []service.BiteIncident{{ID: 1, AnimalID: 1, Date: d("2026-03-10"), Victim: service.VictimPerson}},
		MatchedLicence: &old,
	}
	e := mpls.Evaluate(rec, on)
	for _, code := range []string{rules.AlertQuarantine, rules.AlertRecentBite, rules.AlertTagReplaced, rules.AlertRabiesExpired} {
		if !hasAlert(e.Alerts, code) {
			t.Errorf("Evaluate alerts %+v lack %s", e.Alerts, code)
		}
	}
	if e.Licence.State != rules.LicenceNone || e.Rabies.State != rules.RabiesExpired {
		t.Errorf("licence %s rabies %s, want none (the only licence was replaced) and expired", e.Licence.State, e.Rabies.State)
	}
	// The same record with a current licence and an open impoundment.
	rec.Licences = append(rec.Licences, service.Licence{ID: 2, AnimalID: 1, Jurisdiction: "minneapolis", Status: service.LicenceActive,
		IssuedOn: d("2026-02-01"), ExpiresOn: d("2027-01-31")})
	rec.MatchedLicence = nil
	rec.Impounds = []service.Impoundment{{ID: 5, AnimalID: 1, Jurisdiction: "minneapolis", IntakeOn: d("2026-03-13")}}
	e = mpls.Evaluate(rec, on)
	if e.Licence.State != rules.LicenceCurrent || e.Hold == nil || e.Hold.Until != d("2026-03-20") || e.Redemption == nil || e.Redemption.TotalCents != 5000+3*1500 {
		t.Errorf("Evaluate = licence %s hold %+v redemption %+v", e.Licence.State, e.Hold, e.Redemption)
	}
	if !hasAlert(e.Alerts, rules.AlertImpounded) {
		t.Errorf("no impounded alert: %+v", e.Alerts)
	}
}

// TestProfiles_EveryValueCitesASection walks the embedded profile files:
// every object holding a value, an amount or a period names its source.
func TestProfiles_EveryValueCitesASection(t *testing.T) {
	t.Parallel()
	set, err := rules.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range set.IDs() {
		data, err := rules.ProfileData(name)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		n := 0
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch x := v.(type) {
			case map[string]any:
				for _, k := range []string{"value", "cents", "readings", "days", "rule", "defaultMonths", "modifiedLiveMonths", "graceDays", "isolationMonths", "booster", "hours"} {
					if _, ok := x[k]; ok {
						n++
						if s, _ := x["source"].(string); s == "" {
							t.Errorf("%s: %s has no source", name, path)
						}
						break
					}
				}
				for k, c := range x {
					if k != "readings" { // parts of a cited fee
						walk(path+"."+k, c)
					}
				}
			case []any:
				for i, c := range x {
					walk(path+"["+string(rune('0'+i%10))+"]", c)
				}
			}
		}
		walk(name, v)
		if n < 30 {
			t.Errorf("%s: only %d cited values found", name, n)
		}
	}
}

func TestParseProfile_Errors(t *testing.T) {
	t.Parallel()
	good := minimalProfile(`{"hours": {}, "closed": [], "source": "x"}`)
	if _, err := rules.ParseProfile([]byte(good)); err != nil {
		t.Fatalf("ParseProfile(minimal) = %v", err)
	}
	for _, tt := range []struct{ name, from, to string }{
		{"unknown field", `"name": "Test"`, `"name": "Test", "colour": "red"`},
		{"unknown zone", `America/Chicago`, `Mars/Olympus`},
		{"bad hold counting", `"counting": "calendar"`, `"counting": "lunar"`},
		{"bad weekday", `"hours": {}`, `"hours": {"xyz": ["08:00", "12:00"]}`},
		{"no id", `"id": "test"`, `"id": ""`},
		{"truncated", `}}}`, `}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := rules.ParseProfile([]byte(strings.Replace(good, tt.from, tt.to, 1)))
			if !errors.Is(err, rules.ErrProfile) {
				t.Errorf("ParseProfile(%s) = %v, want ErrProfile", tt.name, err)
			}
		})
	}
}

func TestExpiry_Feb1Next_64_100(t *testing.T) {
	t.Parallel()
	mpls, _ := profiles(t)
	got, ok := rules.Expiry(mpls.Dwelling.PermitExpiry, d("2026-02-01"), nil)
	if !ok || got != d("2027-02-01") {
		t.Errorf("64.100(c) permit issued 2026-02-01 expires %s, want 2027-02-01", got)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	mpls, _ := profiles(b)
	lic := service.Licence{ID: 2, AnimalID: 1, Jurisdiction: "minneapolis", Status: service.LicenceActive, IssuedOn: d("2026-02-01"), ExpiresOn: d("2027-01-31")}
	rec := &service.Record{
		Animal:    *dog("2020-01-01", false),
		Owner:     &service.Owner{ID: 1, Name: "Ada"},
		Chips:     []service.Chip{{ID: 1, AnimalID: 1, Code: "985141000123456"}},
		Licences:  []service.Licence{lic},
		Rabies:    vacc("2025-06-01", "", 36, false),
		Dangerous: &service.DangerousDesignation{ID: 1, AnimalID: 1, Level: service.Dangerous, Jurisdiction: "minneapolis", DeclaredOn: d("2026-03-01")},
		Impounds:  []service.Impoundment{{ID: 5, AnimalID: 1, Jurisdiction: "minneapolis", IntakeOn: d("2026-03-13")}, impounds("2025-09-01")[0]},
		Bites:     []service.BiteIncident{{ID: 1, AnimalID: 1, Date: d("2026-03-01"), Victim: service.VictimPerson}},
	}
	on := d("2026-03-15")
	b.ReportAllocs()
	for b.Loop() {
		mpls.Evaluate(rec, on)
	}
}

func TestMinneapolis_64_10_LicenceDueAfterFiveDays(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	for _, tt := range []struct {
		name      string
		p         *rules.Profile
		a         *service.Animal
		keptSince string
		due       string
		source    string
	}{
		{"64.10 adult dog kept from March 1: due after five days", mpls, dog("2020-01-01", true), "2026-03-01", "2026-03-06", "64.10"},
		{"64.10 puppy: due when over four months", mpls, dog("2026-01-10", false), "2026-02-01", "2026-05-11", "64.10"},
		{"65.10 ferret: at once", mpls, &service.Animal{Species: service.Ferret}, "2026-03-01", "2026-03-01", "65.10"},
		{"5-51 Chanhassen: at once", chan_, dog("2026-01-10", false), "2026-02-01", "2026-02-01", "5-51"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			due, src, ok := tt.p.LicenceDue(tt.a, d(tt.keptSince))
			if !ok || due != d(tt.due) || src != tt.source {
				t.Errorf("LicenceDue = %s %q %v, want %s %q", due, src, ok, tt.due, tt.source)
			}
		})
	}
	if _, _, ok := chan_.LicenceDue(&service.Animal{Species: service.Other}, d("2026-03-01")); ok {
		t.Errorf("LicenceDue(other species) ok, want not licensed")
	}
}

func TestMinneapolis_64_100_PermitFee(t *testing.T) {
	t.Parallel()
	mpls, chan_ := profiles(t)
	q, err := mpls.DwellingPermitQuote(d("2026-03-15"))
	if err != nil || q.Fees.TotalCents != 2000 || q.ExpiresOn != d("2027-02-01") || q.Fees.Lines[0].Source != "64.100(c)" {
		t.Errorf("DwellingPermitQuote = %+v, %v; want $20 until 2027-02-01 (64.100(c))", q, err)
	}
	if _, err := chan_.DwellingPermitQuote(d("2026-03-15")); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("Chanhassen DwellingPermitQuote error = %v, want EINVALID", err)
	}
}

func TestChanhassen_5_73_NoticeWithin24Hours(t *testing.T) {
	t.Parallel()
	_, chan_ := profiles(t)
	rec := &service.Record{Animal: *dog("2020-01-01", true),
		Impounds: []service.Impoundment{{ID: 1, AnimalID: 1, Jurisdiction: "chanhassen", IntakeOn: d("2026-03-18")}}}
	for _, tt := range []struct {
		on    string
		state rules.DeadlineState
	}{{"2026-03-19", rules.DeadlineDue}, {"2026-03-20", rules.DeadlineMissed}} {
		m := deadlines(chan_.Evaluate(rec, d(tt.on)))
		if dl := m["impound-notice"]; dl.State != tt.state || dl.Due != d("2026-03-19") || dl.Source != "5-73(a)" {
			t.Errorf("on %s impound-notice = %+v, want %s due 2026-03-19", tt.on, dl, tt.state)
		}
	}
	rec.Impounds[0].NoticeOn = d("2026-03-19")
	if _, ok := deadlines(chan_.Evaluate(rec, d("2026-03-20")))["impound-notice"]; ok {
		t.Errorf("notice given, yet an impound-notice deadline remains")
	}
}
