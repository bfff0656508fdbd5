package lookup

import (
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/iso11784"
	"github.com/chipdesk/chipdesk/service"
)

// AmbiguousChipError is ParseChip's answer to a text that reads as more
// than one chip: an EAMBIGUOUS error with every candidate, so that the
// person holding the animal chooses; no lookup is made.
type AmbiguousChipError struct {
	Err        *service.Error
	Candidates []*Chip
}

func (e *AmbiguousChipError) Error() string { return e.Err.Error() }

// Unwrap gives the *service.Error, so service.ErrorCode sees EAMBIGUOUS.
func (e *AmbiguousChipError) Unwrap() error { return e.Err }

// ParseChip reads chip text through reader/chipid. A text that is no
// chip number is an EINVALID error; one that reads as several is an
// *AmbiguousChipError (code EAMBIGUOUS) naming the candidates.
func (s *Service) ParseChip(text string) (chipid.ID, error) {
	id, err := chipid.Parse(text, &chipid.Opts{Locale: s.locale})
	if err != nil {
		var amb *chipid.AmbiguousError
		if errors.As(err, &amb) {
			msg := "The chip number reads as more than one chip: "
			e := &AmbiguousChipError{}
			for i, c := range amb.Candidates {
				if i > 0 {
					msg += " or "
				}
				msg += c.String()
				if m := c.Manufacturer(s.locale); m != "" {
					msg += " (" + m + ")"
				}
				e.Candidates = append(e.Candidates, s.chipView(c))
			}
			e.Err = service.Errorf(service.EAMBIGUOUS, "%s. Choose the one the reader shows.", msg)
			return chipid.ID{}, e
		}
		return chipid.ID{}, service.Errorf(service.EINVALID, "%q is not a chip number.", truncate(text, 40))
	}
	return id, nil
}

// ChipRecord parses text into a chip record (code, kind, manufacturer)
// ready for AnimalService.AddChip.
func (s *Service) ChipRecord(text string) (*service.Chip, error) {
	id, err := s.ParseChip(text)
	if err != nil {
		return nil, err
	}
	return &service.Chip{Code: id.Code, Kind: id.Kind, Manufacturer: id.Manufacturer(s.locale)}, nil
}

// chipView describes id for an answer.
func (s *Service) chipView(id chipid.ID) *Chip {
	c := &Chip{Code: id.Code, Kind: id.Kind, Manufacturer: id.Manufacturer(s.locale), Display: id.String()}
	if id.Kind == chipid.KindISO {
		if name, ok := iso11784.CountryName(id.ISO.Country()); ok {
			c.Country = name
		}
	}
	return c
}

// unknownChip is the answer for a chip no animal here carries: who made
// it, and where to look next.
func (s *Service) unknownChip(id chipid.ID) *Answer {
	c := s.chipView(id)
	a := newAnswer()
	a.Chip = c
	switch {
	case id.Kind == chipid.KindISO && iso11784.IsTestCode(id.ISO.Country()):
		a.NextStep = "This is a test code (999), not an animal's chip: check the reader's settings and scan again."
	case c.Manufacturer != "" && c.Country != "" && c.Manufacturer == c.Country:
		a.NextStep = fmt.Sprintf("Not registered here. The chip carries the country code of %s: search the AAHA Universal Pet Microchip Lookup and that country's national registry.", c.Country)
	case c.Manufacturer != "":
		a.NextStep = fmt.Sprintf("Not registered here. Search the AAHA Universal Pet Microchip Lookup (petmicrochiplookup.org), then call %s with the chip number.", c.Manufacturer)
	default:
		a.NextStep = "Not registered here and the manufacturer is unknown: search the AAHA Universal Pet Microchip Lookup (petmicrochiplookup.org) and scan the animal again for a second chip."
	}
	a.alert("chip-unknown", "info", "Chip not registered in this system.", "")
	return a
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
