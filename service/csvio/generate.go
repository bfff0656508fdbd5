package csvio

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// GenOpts shape a generated data set.
type GenOpts struct {
	// Animals is the number of animals; there are about two owners for
	// every three animals, and one licence and one vaccination per
	// animal.
	Animals int
	// Seed makes the data reproducible.
	Seed uint64
	// On is the date the data set describes ("today"); licences are
	// issued in the twelve months before it.
	On service.Date
	// Jurisdictions to spread licences over, with tag numbers counted
	// per jurisdiction and year. Nil means minneapolis and chanhassen.
	Jurisdictions []string
	// Terms gives a licence's expiry and fees. Expiry dates and fees are
	// the business of package rules, which the caller wires in here;
	// nil gives a one-year term and no fees.
	Terms func(a *service.Animal, v *service.RabiesVaccination, jurisdiction string, issued service.Date, issuer service.Issuer) Terms
}

// Terms are what the rules say about one licence.
type Terms struct {
	ExpiresOn      service.Date
	FeeCents       int64
	FeeCode        string
	ClinicPayCents int64
}

var (
	givenNames = []string{"Ada", "Bo", "Cy", "Dana", "Eli", "Fay", "Gus", "Hana", "Ida", "Jon", "Kai", "Lena", "Mo", "Nils", "Ola", "Pia"}
	surnames   = []string{"Lund", "Berg", "Olson", "Nguyen", "Hansen", "Garcia", "Johnson", "Ali", "Larson", "Kim", "Moe", "Xiong"}
	streets    = []string{"Lake St", "Hennepin Ave", "Lyndale Ave", "Nicollet Ave", "Chicago Ave", "Market Blvd", "Powers Blvd"}
	petNames   = []string{"Rex", "Mia", "Bella", "Max", "Luna", "Charlie", "Daisy", "Milo", "Coco", "Rocky", "Nala", "Toby"}
	dogBreeds  = []string{"Labrador", "German Shepherd", "Beagle", "Poodle", "Boxer", "Mixed"}
	catBreeds  = []string{"Domestic Shorthair", "Siamese", "Maine Coon", "Domestic Longhair"}
	colours    = []string{"black", "brown", "white", "tan", "grey", "tabby", "calico", "brindle"}
	prefixes   = []string{"985", "982", "977", "981", "956", "900"}
)

// Generate writes a synthetic, valid data set: one CSV per table, to the
// writers given (a table without a writer is skipped, its rows still
// drawn so the others do not change). It is deterministic for a seed.
func Generate(w map[Table]io.Writer, o GenOpts) error {
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	jurs := o.Jurisdictions
	if len(jurs) == 0 {
		jurs = []string{"minneapolis", "chanhassen"}
	}
	on := o.On
	if on.IsZero() {
		on = service.MustDate("2026-03-15")
	}
	cw := map[Table]*csv.Writer{}
	for t, wr := range w {
		cw[t] = csv.NewWriter(wr)
		if err := cw[t].Write(Columns[t]); err != nil {
			return err
		}
	}
	write := func(t Table, rec ...string) error {
		if c := cw[t]; c != nil {
			return c.Write(rec)
		}
		return nil
	}
	tags := map[string]int{}
	owner := int64(0)
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	for i := 1; i <= o.Animals; i++ {
		id := int64(i)
		if owner == 0 || rng.IntN(3) != 0 {
			owner++
			if err := write(Owners, i64(owner), pick(givenNames)+" "+pick(surnames),
				fmt.Sprintf("%d %s", 1+rng.IntN(4999), pick(streets)), "Minneapolis", "MN",
				fmt.Sprintf("554%02d", rng.IntN(100)), fmt.Sprintf("612-555-%04d", rng.IntN(10000)), ""); err != nil {
				return err
			}
		}
		species, breed := service.Dog, pick(dogBreeds)
		switch r := rng.IntN(20); {
		case r == 0:
			species, breed = service.Ferret, ""
		case r < 8:
			species, breed = service.Cat, pick(catBreeds)
		}
		sex := service.Male
		if rng.IntN(2) == 0 {
			sex = service.Female
		}
		altered := rng.IntN(4) != 0
		birth := on.AddDays(-(120 + rng.IntN(15*365)))
		a := &service.Animal{ID: id, OwnerID: owner, Name: pick(petNames), Species: species, Breed: breed,
			Colour: pick(colours), Sex: sex, Altered: altered, BirthDate: birth}
		if err := write(Animals, i64(id), i64(owner), a.Name, string(species), breed, a.Colour, string(sex),
			b2s(altered), birth.String(), "", "", "", ""); err != nil {
			return err
		}
		if rng.IntN(10) != 0 {
			// An ISO code: a manufacturer or country code and a
			// national id below 2^38, unique by construction.
			code := pick(prefixes) + fmt.Sprintf("%012d", int64(i)*100+int64(rng.IntN(100)))
			cid, err := chipid.Parse(code, nil)
			if err != nil {
				return fmt.Errorf("csvio: generated chip %s: %w", code, err)
			}
			if err := write(Chips, i64(id), i64(id), cid.Code, string(cid.Kind), cid.Manufacturer("en_US"),
				birth.AddDays(60+rng.IntN(60)).String()); err != nil {
				return err
			}
		}
		issued := on.AddDays(-rng.IntN(365))
		vaccinated := issued.AddDays(-rng.IntN(365))
		months := 12
		if species != service.Ferret && rng.IntN(2) == 0 {
			months = 36
		}
		vtype := service.VaccineKilled
		if rng.IntN(5) == 0 {
			vtype = service.VaccineModifiedLive
		}
		v := &service.RabiesVaccination{ID: id, AnimalID: id, Date: vaccinated, Type: vtype, DurationMonths: months}
		if err := write(Vaccinations, i64(id), i64(id), vaccinated.String(), string(vtype), strconv.Itoa(months), "false",
			"Imrab 3", "Boehringer Ingelheim", fmt.Sprintf("L%06d", rng.IntN(1000000)), "",
			"Dr. "+pick(surnames), fmt.Sprintf("MN-%04d", rng.IntN(10000)), fmt.Sprintf("C%07d", i), fmt.Sprintf("R%07d", i)); err != nil {
			return err
		}
		jur := jurs[rng.IntN(len(jurs))]
		tagKey := jur + "/" + strconv.Itoa(issued.Year())
		tags[tagKey]++
		issuer, clinic := service.IssuerOffice, ""
		if rng.IntN(4) == 0 {
			issuer, clinic = service.IssuerClinic, "Lake Street Vet"
		}
		terms := Terms{ExpiresOn: issued.AddYears(1).AddDays(-1)}
		if o.Terms != nil {
			terms = o.Terms(a, v, jur, issued, issuer)
		}
		if terms.ExpiresOn < issued {
			terms.ExpiresOn = issued // the rules could not say: a one-day term keeps the row valid
		}
		if err := write(Licences, i64(id), i64(id), string(service.KindLicence), jur, strconv.Itoa(issued.Year()),
			strconv.Itoa(tags[tagKey]), issued.String(), terms.ExpiresOn.String(), string(service.LicenceActive),
			strconv.FormatInt(terms.FeeCents, 10), terms.FeeCode, string(issuer), clinic, strconv.FormatInt(terms.ClinicPayCents, 10), "", "", ""); err != nil {
			return err
		}
	}
	for _, c := range cw {
		c.Flush()
		if err := c.Error(); err != nil {
			return err
		}
	}
	return nil
}
