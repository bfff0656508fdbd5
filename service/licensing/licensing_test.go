package licensing_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/apptest"
	"github.com/chipdesk/chipdesk/service/licensing"
)

func newService(t *testing.T, st service.Store) *licensing.Service {
	t.Helper()
	s, err := licensing.New(&licensing.Opts{Store: st, Rules: apptest.Rules(t), Now: apptest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func d(s string) service.Date { return service.MustDate(s) }

func ptr[T any](v T) *T { return &v }

// TestIssueRefusals: every refusal of a sale, with the field at fault;
// none stores anything.
func TestIssueRefusals(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	dog := apptest.Dog(t, st, "Minneapolis")
	unvaccinated := apptest.Animal(t, st, "Minneapolis", service.Animal{Altered: true, BirthDate: d("2020-01-01")})
	rabbit := apptest.Animal(t, st, "Minneapolis", service.Animal{Species: service.Other})
	for _, tt := range []struct {
		name        string
		req         licensing.LicenceRequest
		code, field string
	}{
		{"no animal", licensing.LicenceRequest{Jurisdiction: "minneapolis"}, service.EINVALID, "animal_id"},
		{"unknown jurisdiction, listed", licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "duluth"}, service.EINVALID, "jurisdiction"},
		{"64.30 issued in the future", licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis", IssuedOn: d("2026-06-11")}, service.EINVALID, "issued_on"},
		{"64.30 fee set by the ordinance", licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis", FeeCents: ptr(int64(100))}, service.EINVALID, "fee_cents"},
		{"64.30 no current rabies vaccination", licensing.LicenceRequest{AnimalID: unvaccinated, Jurisdiction: "minneapolis"}, service.EINVALID, ""},
		{"64.10 a species the city does not license", licensing.LicenceRequest{AnimalID: rabbit, Jurisdiction: "minneapolis"}, service.EINVALID, ""},
		{"5-53 fee left to chapter 4, not given", licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "chanhassen"}, service.EINVALID, "fee_cents"},
		{"vaccination dated in the future", licensing.LicenceRequest{AnimalID: unvaccinated, Jurisdiction: "minneapolis",
			Vaccination: &service.RabiesVaccination{Date: d("2026-07-01"), Type: service.VaccineKilled}}, service.EINVALID, "date"},
		{"issued by an unknown issuer", licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis", IssuedBy: "kiosk"}, service.EINVALID, "issued_by"},
		{"64.40 duplicate of another animal's licence", licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis", Replaces: 999}, service.ENOTFOUND, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Issue(ctx, &tt.req)
			apptest.Refused(t, "Issue", err, tt.code, tt.field)
		})
	}
	if _, n, _ := st.FindLicences(ctx, service.LicenceFilter{}); n != 0 {
		t.Errorf("%d licences stored after refusals, want 0", n)
	}
	if vs, _ := st.FindVaccinations(ctx, unvaccinated); len(vs) != 0 {
		t.Errorf("a refused sale stored %d vaccinations", len(vs))
	}
	// The message lists the known jurisdictions.
	_, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "duluth"})
	if msg := service.ErrorMessage(err); !strings.Contains(msg, "minneapolis") || !strings.Contains(msg, "chanhassen") {
		t.Errorf("unknown jurisdiction says %q, want the known ones listed", msg)
	}
}

// TestMinneapolis_64_30_OneActiveLicencePerTerm: a term an active
// licence covers cannot be sold again (409 with the licence in force),
// back-dated or in parallel: twenty parallel sales give one licence and
// nineteen conflicts, on both stores.
func TestMinneapolis_64_30_OneActiveLicencePerTerm(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		s := newService(t, st)
		ctx := context.Background()
		dog := apptest.Dog(t, st, "Minneapolis")
		const n = 20
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "Minneapolis"})
			}()
		}
		wg.Wait()
		ok, conflicts := 0, 0
		for _, err := range errs {
			switch service.ErrorCode(err) {
			case "":
				ok++
			case service.ECONFLICT:
				conflicts++
				if !strings.Contains(service.ErrorMessage(err), "already covers") {
					t.Errorf("conflict says %q, want the licence in force named", service.ErrorMessage(err))
				}
			default:
				t.Fatalf("Issue: %v", err)
			}
		}
		if ok != 1 || conflicts != n-1 {
			t.Fatalf("%d parallel sales: %d licences, %d conflicts; want 1 and %d", n, ok, conflicts, n-1)
		}
		for _, tt := range []struct {
			name string
			on   service.Date
		}{{"today", 0}, {"back-dated inside the term", d("2026-06-10")}} {
			_, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "MPLS", IssuedOn: tt.on})
			apptest.Refused(t, "Issue("+tt.name+")", err, service.ECONFLICT, "")
		}
		// Chanhassen is another jurisdiction: its own licence.
		if _, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "CHAN", FeeCents: ptr(int64(2500))}); err != nil {
			t.Errorf("Issue(chanhassen): %v", err)
		}
	})
}

// TestMinneapolis_64_30_RenewNextTerm: a renewal before the term ends
// starts where it ends, with the next term's fee; after it ended, today;
// a replaced or revoked licence is not renewed.
func TestMinneapolis_64_30_RenewNextTerm(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	// A puppy of six months: the young fee now (64.30, under eight
	// months), the unaltered fee for the term from 2027-02-01.
	pup := apptest.Animal(t, st, "Minneapolis", service.Animal{BirthDate: d("2025-12-01")})
	apptest.Vaccinate(t, st, pup, "2026-04-01")
	l, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: pup, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	if l.FeeCents != 1500 || l.FeeCode != "young" || l.Expires != d("2027-01-31") {
		t.Fatalf("puppy's licence = %+v, want the young fee $15 to 2027-01-31", l)
	}
	r, err := s.Renew(ctx, l.ID, &licensing.RenewRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Issued != d("2027-02-01") || r.Expires != d("2028-01-31") || r.Year != 2027 || r.FeeCents != 3000 || r.FeeCode != "unaltered" || r.Renews != l.ID {
		t.Errorf("renewal = %+v, want 2027-02-01 to 2028-01-31 at the next term's unaltered fee $30", r)
	}
	_, err = s.Renew(ctx, l.ID, &licensing.RenewRequest{})
	apptest.Refused(t, "Renew(again: the next term is sold)", err, service.ECONFLICT, "")

	// Expired: the renewal runs from today.
	old := apptest.Dog(t, st, "Minneapolis")
	expired := &service.Licence{AnimalID: old, Jurisdiction: "minneapolis", IssuedOn: d("2025-03-01"), ExpiresOn: d("2026-01-31"), FeeCents: 1500}
	if err := st.CreateLicence(ctx, expired); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Renew(ctx, expired.ID, &licensing.RenewRequest{}); err != nil || r.Issued != apptest.Today || r.Expires != d("2027-01-31") {
		t.Errorf("Renew(expired) = %+v, %v; want from today to 2027-01-31", r, err)
	}

	// Replaced (64.40) and revoked (65.40, 5-79): 409.
	dog := apptest.Dog(t, st, "Minneapolis")
	first, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Duplicate(ctx, first.ID, &licensing.DuplicateRequest{Reason: service.TagLost}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Renew(ctx, first.ID, &licensing.RenewRequest{})
	apptest.Refused(t, "Renew(replaced)", err, service.ECONFLICT, "")
	cat := apptest.Dog(t, st, "Minneapolis")
	lc, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: cat, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RevokeLicence(ctx, lc.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Renew(ctx, lc.ID, &licensing.RenewRequest{})
	apptest.Refused(t, "Renew(revoked)", err, service.ECONFLICT, "")
}

// TestMinneapolis_64_40_DuplicateTag: a duplicate tag for a lost or
// stolen one records the duplicate fee as such; the licence keeps its
// own fee and term; another reason, or a licence not active, is refused.
func TestMinneapolis_64_40_DuplicateTag(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	dog := apptest.Dog(t, st, "Minneapolis")
	l, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name        string
		req         licensing.DuplicateRequest
		code, field string
	}{
		{"64.40 a worn tag is no reason", licensing.DuplicateRequest{Reason: "worn"}, service.EINVALID, "reason"},
		{"64.40 the fee is set", licensing.DuplicateRequest{Reason: service.TagLost, FeeCents: ptr(int64(100))}, service.EINVALID, "fee_cents"},
	} {
		_, err := s.Duplicate(ctx, l.ID, &tt.req)
		apptest.Refused(t, "Duplicate("+tt.name+")", err, tt.code, tt.field)
	}
	dup, err := s.Duplicate(ctx, l.ID, &licensing.DuplicateRequest{Reason: service.TagStolen})
	if err != nil {
		t.Fatal(err)
	}
	if dup.DuplicateFeeCents != 500 || dup.FeeCents != l.FeeCents || dup.Expires != l.Expires || dup.Replaces != l.ID || dup.TagNumber == l.TagNumber {
		t.Errorf("duplicate = %+v, want duplicate fee $5, the licence's own fee %d and term, a new tag", dup, l.FeeCents)
	}
	_, err = s.Duplicate(ctx, l.ID, &licensing.DuplicateRequest{Reason: service.TagLost})
	apptest.Refused(t, "Duplicate(replaced)", err, service.ECONFLICT, "")
}

// TestMinneapolis_64_30_ClinicSellsInItsOwnName: a clinic's sale is the
// clinic's, whatever the request says, and earns the clinic's pay.
func TestMinneapolis_64_30_ClinicSellsInItsOwnName(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	dog := apptest.Dog(t, st, "Minneapolis")
	clinic := &licensing.Seller{Name: "tok", Role: service.RoleClinic, Site: "Lake Street Vet"}
	l, err := s.Issue(context.Background(), &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis",
		IssuedBy: service.IssuerOffice, Clinic: "Someone Else", Seller: clinic})
	if err != nil {
		t.Fatal(err)
	}
	if l.IssuedBy != service.IssuerClinic || l.Clinic != "Lake Street Vet" || l.ClinicPayCents != 200 {
		t.Errorf("clinic sale = %+v, want issued by the clinic Lake Street Vet, paid $2", l)
	}
}

// TestVaccinationAndLicenceOneTransaction: the certificate shown at the
// counter is stored with the licence, and a refused sale keeps neither.
func TestVaccinationAndLicenceOneTransaction(t *testing.T) {
	t.Parallel()
	apptest.Backends(t, func(t *testing.T, st service.Store) {
		s := newService(t, st)
		ctx := context.Background()
		a := apptest.Animal(t, st, "Minneapolis", service.Animal{Altered: true, BirthDate: d("2020-01-01")})
		v := func() *service.RabiesVaccination {
			return &service.RabiesVaccination{Date: d("2026-06-01"), Type: service.VaccineKilled, DurationMonths: 12, Certificate: "RC-1", Veterinarian: "Dr. Lund"}
		}
		// Refused (a fee typed where the ordinance sets it): nothing kept.
		_, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: "minneapolis", Vaccination: v(), FeeCents: ptr(int64(1))})
		apptest.Refused(t, "Issue(bad fee, with vaccination)", err, service.EINVALID, "fee_cents")
		l, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: "minneapolis", Vaccination: v()})
		if err != nil {
			t.Fatal(err)
		}
		vs, err := st.FindVaccinations(ctx, a)
		if err != nil || len(vs) != 1 || vs[0].ID != l.VaccinationID || l.VaccinationID == 0 {
			t.Fatalf("vaccinations %+v (%v), want the one sold with licence %+v", vs, err, l)
		}
		// Refused for its term: the second certificate is not kept.
		_, err = s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: "minneapolis", Vaccination: v()})
		apptest.Refused(t, "Issue(term covered, with vaccination)", err, service.ECONFLICT, "")
		if vs, _ := st.FindVaccinations(ctx, a); len(vs) != 1 {
			t.Errorf("%d vaccinations after a refused sale, want 1", len(vs))
		}
	})
}

// TestVaccinationInTheFuture_66_10: a vaccination is a fact; one dated
// tomorrow is refused with its field.
func TestVaccinationInTheFuture_66_10(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	a := apptest.Dog(t, st, "Minneapolis")
	err := s.Vaccinate(context.Background(), &service.RabiesVaccination{AnimalID: a, Date: d("2026-06-11"), Type: service.VaccineKilled})
	apptest.Refused(t, "Vaccinate(tomorrow)", err, service.EINVALID, "date")
}

// TestChanhassen_5_37b_CertificateRequired: where the law asks for the
// veterinarian's certificate of vaccination (Chanhassen 5-37(b),
// Minneapolis 66.10), a certificate entered with a sale gives its number
// and the veterinarian; a refused sale keeps nothing.
func TestChanhassen_5_37b_CertificateRequired(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	for _, tt := range []struct {
		city, section string
	}{{"Chanhassen", "5-37(b)"}, {"Minneapolis", "66.10"}} {
		a := apptest.Animal(t, st, tt.city, service.Animal{Altered: true, BirthDate: d("2020-01-01")})
		fee := ptr(int64(2500))
		if tt.city == "Minneapolis" {
			fee = nil
		}
		v := func(cert, vet string) *service.RabiesVaccination {
			return &service.RabiesVaccination{Date: d("2026-06-01"), Type: service.VaccineModifiedLive, DurationMonths: 36, Certificate: cert, Veterinarian: vet}
		}
		_, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: tt.city, Vaccination: v("", "Dr. Lund"), FeeCents: fee})
		apptest.Refused(t, tt.city+": Issue(no certificate number)", err, service.EINVALID, "certificate")
		if !strings.Contains(service.ErrorMessage(err), tt.section) {
			t.Errorf("%s: refusal %q does not cite %s", tt.city, service.ErrorMessage(err), tt.section)
		}
		_, err = s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: tt.city, Vaccination: v("RC-9", " "), FeeCents: fee})
		apptest.Refused(t, tt.city+": Issue(no veterinarian)", err, service.EINVALID, "veterinarian")
		if vs, _ := st.FindVaccinations(ctx, a); len(vs) != 0 {
			t.Errorf("%s: refused sales kept %d vaccinations", tt.city, len(vs))
		}
		sale, _, err := s.Sale(ctx, a, tt.city, service.IssuerOffice)
		if err != nil || sale.Certificate != tt.section || sale.CertificateOnFile || sale.Renews != nil {
			t.Errorf("%s: Sale = %+v, %v; want the certificate asked by %s, none on file", tt.city, sale, err, tt.section)
		}
		if _, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: tt.city, Vaccination: v("RC-9", "Dr. Lund"), FeeCents: fee}); err != nil {
			t.Fatalf("%s: Issue(with certificate) = %v", tt.city, err)
		}
		// Now a licence is in force: the counter's sale is its renewal,
		// starting the day after it ends.
		sale, rec, err := s.Sale(ctx, a, tt.city, service.IssuerOffice)
		if err != nil || sale.Renews == nil || sale.Start != sale.Renews.ExpiresOn.AddDays(1) || !sale.CertificateOnFile {
			t.Fatalf("%s: Sale after the licence = %+v, %v; want a renewal from the day after %v", tt.city, sale, err, rec.Licences)
		}
		if (tt.city == "Chanhassen") != sale.FeeByResolution {
			t.Errorf("%s: FeeByResolution = %v", tt.city, sale.FeeByResolution)
		}
		if tt.city == "Chanhassen" {
			// 5-54: the term ends at the rabies anniversary, so the next
			// one needs a vaccination valid then; the Sale says so.
			if len(sale.Quote.Problems) == 0 {
				t.Errorf("Chanhassen: the renewal's quote lists no problem with the rabies vaccination ending %v", sale.Renews.ExpiresOn)
			}
			continue
		}
		r, err := s.Renew(ctx, sale.Renews.ID, &licensing.RenewRequest{FeeCents: fee})
		if err != nil || r.Issued != sale.Start || r.Expires != sale.Quote.ExpiresOn {
			t.Errorf("%s: Renew = %+v, %v; want the term the Sale showed, %v to %v", tt.city, r, err, sale.Start, sale.Quote.ExpiresOn)
		}
	}
}

// TestMinneapolis_66_10_CertificateOnFileRequired: a sale (a licence or
// its renewal) relying on the vaccination on file is refused where the
// law asks for the veterinarian's certificate (Chanhassen 5-37(b),
// Minneapolis 66.10) and the one on file lacks its number or the
// veterinarian, naming the field and citing the section; the same sale
// with the certificate entered goes through.
func TestMinneapolis_66_10_CertificateOnFileRequired(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	for _, tt := range []struct {
		city, section, cert, vet, field string
	}{
		{"Minneapolis", "66.10", "", "Dr. Lund", "certificate"},
		{"Minneapolis", "66.10", "RC-7", "", "veterinarian"},
		{"Chanhassen", "5-37(b)", "", "", "certificate"},
		{"Chanhassen", "5-37(b)", "RC-7", " ", "veterinarian"},
	} {
		t.Run(tt.city+"/"+tt.field, func(t *testing.T) {
			a := apptest.Animal(t, st, tt.city, service.Animal{Altered: true, BirthDate: d("2020-01-01")})
			if err := st.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: a, Date: d("2026-05-01"), Type: service.VaccineModifiedLive,
				DurationMonths: 36, Certificate: tt.cert, Veterinarian: tt.vet}); err != nil {
				t.Fatal(err)
			}
			var fee *int64
			if tt.city == "Chanhassen" {
				fee = ptr(int64(2500))
			}
			sale, _, err := s.Sale(ctx, a, tt.city, service.IssuerOffice)
			if err != nil || sale.Certificate != tt.section || sale.CertificateOnFile {
				t.Fatalf("Sale = %+v, %v; want a new certificate asked by %s", sale, err, tt.section)
			}
			_, err = s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: tt.city, FeeCents: fee})
			apptest.Refused(t, "Issue(on file without "+tt.field+")", err, service.EINVALID, tt.field)
			if m := service.ErrorMessage(err); !strings.Contains(m, tt.section) || !strings.Contains(m, "on file") {
				t.Errorf("refusal %q does not cite %s and the vaccination on file", m, tt.section)
			}
			if _, n, _ := st.FindLicences(ctx, service.LicenceFilter{AnimalID: &a}); n != 0 {
				t.Fatalf("%d licences stored after the refusal", n)
			}
			_, err = s.Issue(ctx, &licensing.LicenceRequest{AnimalID: a, Jurisdiction: tt.city, FeeCents: fee,
				Vaccination: &service.RabiesVaccination{Date: d("2026-05-01"), Type: service.VaccineModifiedLive, DurationMonths: 36, Certificate: "RC-8", Veterinarian: "Dr. Lund"}})
			if err != nil {
				t.Fatalf("Issue(certificate entered) = %v", err)
			}
			// The certificate entered is now the one on file: the
			// renewal needs none again.
			if sale, _, err := s.Sale(ctx, a, tt.city, service.IssuerOffice); err != nil || !sale.CertificateOnFile {
				t.Errorf("Sale after the sale = %+v, %v; want the certificate on file", sale, err)
			}
		})
	}
}

// TestMinneapolis_66_10_RenewalCertificateOnFileRequired: a renewal
// relying on a newer vaccination on file that names no veterinarian is
// refused on the veterinarian (66.10); with the certificate entered at
// the renewal it goes through.
func TestMinneapolis_66_10_RenewalCertificateOnFileRequired(t *testing.T) {
	t.Parallel()
	st := apptest.SQLite(t)
	s := newService(t, st)
	ctx := context.Background()
	dog := apptest.Dog(t, st, "Minneapolis")
	l, err := s.Issue(ctx, &licensing.LicenceRequest{AnimalID: dog, Jurisdiction: "minneapolis"})
	if err != nil {
		t.Fatalf("Issue = %v", err)
	}
	if err := st.CreateVaccination(ctx, &service.RabiesVaccination{AnimalID: dog, Date: d("2026-06-01"), Type: service.VaccineKilled,
		DurationMonths: 36, Certificate: "RC-11"}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Renew(ctx, l.ID, &licensing.RenewRequest{})
	apptest.Refused(t, "Renew(on file without veterinarian)", err, service.EINVALID, "veterinarian")
	if !strings.Contains(service.ErrorMessage(err), "66.10") {
		t.Errorf("refusal %q does not cite 66.10", service.ErrorMessage(err))
	}
	if _, err := s.Renew(ctx, l.ID, &licensing.RenewRequest{Vaccination: &service.RabiesVaccination{Date: d("2026-06-01"), Type: service.VaccineKilled,
		DurationMonths: 36, Certificate: "RC-11", Veterinarian: "Dr. Lund"}}); err != nil {
		t.Errorf("Renew(certificate entered) = %v", err)
	}
}
