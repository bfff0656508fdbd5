package lookup

import (
	"github.com/chipdesk/chipdesk/service"
)

// build turns a stored record into the answer: the plain views here,
// every status, alert, fee and date from the rules (evaluate).
func (s *Service) build(rec *service.Record, tag *Tag, asOf service.Date) *Answer {
	a := newAnswer()
	a.Found, a.Animal, a.Tag = true, animalView(rec), tag
	if rec.Owner != nil {
		o := rec.Owner
		a.Owner = &Owner{ID: o.ID, Name: o.Name, Address: o.Address, City: o.City, State: o.State,
			Postcode: o.Postcode, Phone: o.Phone, Email: o.Email}
	}
	if rec.MatchedChip != nil {
		a.Chip = &Chip{Code: rec.MatchedChip.Code, Kind: rec.MatchedChip.Kind, Manufacturer: rec.MatchedChip.Manufacturer}
	} else if len(rec.Chips) > 0 {
		if id, err := s.ParseChip(rec.Chips[0].Code); err == nil {
			a.Chip = s.chipView(id)
		}
	}
	s.evaluate(rec, a, asOf)
	s.addPermits(rec, a) // permits.go
	return a
}

func animalView(rec *service.Record) *Animal {
	an := rec.Animal
	v := &Animal{ID: an.ID, Name: an.Name, Species: an.Species, Breed: an.Breed, Colour: an.Colour, Sex: an.Sex,
		Altered: an.Altered, BirthDate: an.BirthDate, Description: an.Description, Photo: an.Photo,
		DiedOn: an.DiedOn, Chips: make([]string, 0, len(rec.Chips))}
	for _, c := range rec.Chips {
		v.Chips = append(v.Chips, c.Code)
	}
	return v
}

// newAnswer returns an answer with empty (not null) lists.
func newAnswer() *Answer {
	return &Answer{Alerts: []string{}, AlertDetails: []AlertDetail{}, Quarantines: []Quarantine{}, Impounds: []Impound{}, Deadlines: []Deadline{}, Permits: []Permit{}}
}

// alert appends an alert of the lookup itself (not of the rules).
func (a *Answer) alert(code, severity, msg, section string) {
	a.Alerts = append(a.Alerts, msg)
	a.AlertDetails = append(a.AlertDetails, AlertDetail{Code: code, Severity: severity, Message: msg, Section: section})
}
