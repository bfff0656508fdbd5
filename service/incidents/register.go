package incidents

import (
	"context"
	"encoding/csv"
	"io"
	"sort"
	"strconv"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/rules"
)

// RegisterEntry is one animal on the dangerous-animal register: its
// designation in force and where each requirement stands.
type RegisterEntry struct {
	AnimalID     int64               `json:"animal_id"`
	Name         string              `json:"name,omitempty"`
	Species      service.Species     `json:"species"`
	Owner        string              `json:"owner,omitempty"`
	Level        service.DangerLevel `json:"level"`
	Jurisdiction string              `json:"jurisdiction"`
	Declared     service.Date        `json:"declared"`
	Requirements []rules.DangerCheck `json:"requirements"`
	// Overdue counts the requirements overdue.
	Overdue int `json:"overdue"`
}

// Register is the dangerous-animal register on AsOf: every animal with
// a designation in force, the most requirements overdue first.
type Register struct {
	AsOf    service.Date    `json:"as_of"`
	Entries []RegisterEntry `json:"entries"`
}

// Register lists the animals designated dangerous or potentially
// dangerous on on (today when zero), each requirement's status computed
// as Requirements computes it (met, due, overdue or not_applicable).
func (s *Service) Register(ctx context.Context, on service.Date) (*Register, error) {
	if on.IsZero() {
		on = s.rules.For(&service.Record{}, s.home).Today(s.now())
	}
	ds, err := s.store.FindDesignations(ctx, 0)
	if err != nil {
		return nil, err
	}
	reg := &Register{AsOf: on, Entries: []RegisterEntry{}}
	seen := map[int64]bool{}
	for _, d := range ds {
		if seen[d.AnimalID] {
			continue
		}
		seen[d.AnimalID] = true
		c, err := s.Requirements(ctx, d.AnimalID, on)
		if err != nil {
			return nil, err
		}
		if c == nil || c.Declared > on {
			continue
		}
		rec, err := s.store.FindRecordByAnimal(ctx, d.AnimalID)
		if err != nil {
			return nil, err
		}
		e := RegisterEntry{AnimalID: d.AnimalID, Name: rec.Animal.Name, Species: rec.Animal.Species, Level: c.Level,
			Jurisdiction: c.Jurisdiction, Declared: c.Declared, Requirements: c.Requirements}
		if rec.Owner != nil {
			e.Owner = rec.Owner.Name
		}
		for _, r := range c.Requirements {
			if r.Status == rules.RequirementOverdue {
				e.Overdue++
			}
		}
		reg.Entries = append(reg.Entries, e)
	}
	sort.SliceStable(reg.Entries, func(i, j int) bool {
		a, b := reg.Entries[i], reg.Entries[j]
		if a.Overdue != b.Overdue {
			return a.Overdue > b.Overdue
		}
		return a.Declared < b.Declared
	})
	return reg, nil
}

// RegisterStatuses are the requirement states, in the order charted.
var RegisterStatuses = []rules.RequirementStatus{rules.RequirementMet, rules.RequirementDue, rules.RequirementOverdue, rules.RequirementNotApplicable}

// Bars counts the register's requirements by state, a bar per
// state (met, due, overdue, not_applicable).
func (reg *Register) Bars() []money.Bar {
	n := map[rules.RequirementStatus]int64{}
	for _, e := range reg.Entries {
		for _, r := range e.Requirements {
			n[r.Status]++
		}
	}
	bars := make([]money.Bar, len(RegisterStatuses))
	for i, st := range RegisterStatuses {
		bars[i] = money.Bar{Label: string(st), Value: n[st]}
	}
	return bars
}

// WriteCSV writes the register as CSV, a row per animal and
// requirement, with a header; text cells are neutralised against
// spreadsheet formulas.
func (reg *Register) WriteCSV(w io.Writer) error {
	c := csv.NewWriter(w)
	c.Write([]string{"as_of", "animal_id", "name", "species", "owner", "jurisdiction", "level", "declared", "requirement", "section", "status", "due", "met_on", "late"})
	for _, e := range reg.Entries {
		for _, r := range e.Requirements {
			c.Write([]string{reg.AsOf.String(), strconv.FormatInt(e.AnimalID, 10), csvio.Neutralise(e.Name), string(e.Species), csvio.Neutralise(e.Owner),
				e.Jurisdiction, string(e.Level), e.Declared.String(), r.What, r.Section, string(r.Status), csvDate(r.Due), csvDate(r.MetOn), strconv.FormatBool(r.Late)})
		}
	}
	c.Flush()
	return c.Error()
}

func csvDate(d service.Date) string {
	if d.IsZero() {
		return ""
	}
	return d.String()
}
