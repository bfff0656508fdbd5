package money

import (
	"context"
	"encoding/csv"
	"io"
	"sort"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
	"github.com/chipdesk/chipdesk/service/rules"
)

// The licensed animals whose rabies vaccination has lapsed, a report on
// animals rather than money that uses the report framework of report.go
// (bars for BarChart, a CSV); the dangerous-animal register beside it is
// incidents.Register.

func dateCell(d service.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}

// LapsedRabies is one licensed animal whose rabies vaccination does not
// protect it on the report's day: expired after ValidUntil, or none on
// file for an animal old enough to need one.
type LapsedRabies struct {
	AnimalID       int64           `json:"animal_id"`
	Name           string          `json:"name,omitempty"`
	Species        service.Species `json:"species"`
	Owner          string          `json:"owner,omitempty"`
	Jurisdiction   string          `json:"jurisdiction"`
	LicenceID      int64           `json:"licence_id"`
	TagNumber      int             `json:"tag_number"`
	LicenceExpires service.Date    `json:"licence_expires"`
	// State is expired or none (rules.RabiesState).
	State      rules.RabiesState `json:"state"`
	Vaccinated service.Date      `json:"vaccinated,omitzero"`
	ValidUntil service.Date      `json:"valid_until,omitzero"`
	// DaysLapsed counts the days since ValidUntil (0 for none on file).
	DaysLapsed int `json:"days_lapsed"`
	// Section is the rabies rule of the jurisdiction (64.10, 5-37, ...).
	Section string `json:"section,omitempty"`
}

// RabiesReport lists the licensed animals whose vaccination lapsed.
type RabiesReport struct {
	AsOf service.Date   `json:"as_of"`
	Rows []LapsedRabies `json:"rows"`
	// Licensed counts the animals with a licence in force on AsOf.
	Licensed int `json:"licensed"`
}

// LapsedRabies reports, on on (today when zero), every animal holding a
// licence in force whose latest rabies vaccination has expired, or which
// has none on file though the rules require one, each judged by the
// rabies rule of its licence's jurisdiction (rules.Profile.RabiesStatus).
// A vaccination the rules cannot date (the profile leaves its period
// open) is not reported as lapsed. Longest lapsed first.
func (s *Service) LapsedRabies(ctx context.Context, on service.Date) (*RabiesReport, error) {
	if on.IsZero() {
		on = s.Today("")
	}
	licences := map[int64]*service.Licence{}
	err := s.store.EachLicence(ctx, func(l *service.Licence) error {
		if l.Status != service.LicenceActive || l.IssuedOn > on || l.ExpiresOn < on {
			return nil
		}
		if old := licences[l.AnimalID]; old == nil || l.ExpiresOn > old.ExpiresOn {
			licences[l.AnimalID] = l
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	latest := map[int64]*service.RabiesVaccination{}
	err = s.store.EachVaccination(ctx, func(v *service.RabiesVaccination) error {
		if licences[v.AnimalID] == nil || v.Date > on {
			return nil
		}
		if old := latest[v.AnimalID]; old == nil || v.Date > old.Date || v.Date == old.Date && v.ID > old.ID {
			latest[v.AnimalID] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := &RabiesReport{AsOf: on, Rows: []LapsedRabies{}}
	owners := map[int64]int{} // owner id -> rows, named after the scan
	err = s.store.EachAnimal(ctx, func(a *service.Animal) error {
		l := licences[a.ID]
		if l == nil || !a.DiedOn.IsZero() && a.DiedOn <= on {
			return nil
		}
		rep.Licensed++
		p := s.rules.Profile(l.Jurisdiction)
		if p == nil {
			return nil
		}
		st := p.RabiesStatus(a, latest[a.ID], on)
		if st.State != rules.RabiesExpired && !(st.State == rules.RabiesNone && st.Required) {
			return nil
		}
		row := LapsedRabies{AnimalID: a.ID, Name: a.Name, Species: a.Species, Jurisdiction: l.Jurisdiction, LicenceID: l.ID,
			TagNumber: l.TagNumber, LicenceExpires: l.ExpiresOn, State: st.State, Vaccinated: st.Date, ValidUntil: st.ValidUntil, Section: st.Source}
		if st.State == rules.RabiesExpired {
			row.DaysLapsed = int(on - st.ValidUntil) // a Date counts days
		}
		if a.OwnerID != 0 {
			owners[a.OwnerID]++
			row.Owner = strconv.FormatInt(a.OwnerID, 10)
		}
		rep.Rows = append(rep.Rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	for id := range owners {
		o, err := s.store.FindOwnerByID(ctx, id)
		if err != nil {
			return nil, err
		}
		names[strconv.FormatInt(id, 10)] = o.Name
	}
	for i := range rep.Rows {
		rep.Rows[i].Owner = names[rep.Rows[i].Owner]
	}
	sort.SliceStable(rep.Rows, func(i, j int) bool {
		a, b := rep.Rows[i], rep.Rows[j]
		if (a.State == rules.RabiesNone) != (b.State == rules.RabiesNone) {
			return a.State == rules.RabiesNone
		}
		if a.DaysLapsed != b.DaysLapsed {
			return a.DaysLapsed > b.DaysLapsed
		}
		return a.AnimalID < b.AnimalID
	})
	return rep, nil
}

// ByJurisdiction is a bar per jurisdiction and state ("minneapolis
// expired", "chanhassen none").
func (r *RabiesReport) ByJurisdiction() []Bar {
	n := map[string]int64{}
	for _, x := range r.Rows {
		n[x.Jurisdiction+" "+string(x.State)]++
	}
	return mapBars(n)
}

// WriteCSV writes the report's rows as CSV with a header; text cells are
// neutralised against spreadsheet formulas.
func (r *RabiesReport) WriteCSV(w io.Writer) error {
	c := csv.NewWriter(w)
	c.Write([]string{"as_of", "animal_id", "name", "species", "owner", "jurisdiction", "licence_id", "tag_number", "licence_expires", "rabies_state", "vaccinated", "valid_until", "days_lapsed", "section"})
	for _, x := range r.Rows {
		c.Write([]string{r.AsOf.String(), strconv.FormatInt(x.AnimalID, 10), csvio.Neutralise(x.Name), string(x.Species), csvio.Neutralise(x.Owner), x.Jurisdiction,
			strconv.FormatInt(x.LicenceID, 10), strconv.Itoa(x.TagNumber), x.LicenceExpires.String(), string(x.State), dateCell(x.Vaccinated), dateCell(x.ValidUntil),
			strconv.Itoa(x.DaysLapsed), x.Section})
	}
	c.Flush()
	return c.Error()
}
