package lookup

import (
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/permits"
)

// Permit is a permit held for the animal, shown on its record like a
// licence: an off-leash permit (Minneapolis 64.55) with its
// registration number.
type Permit struct {
	ID           int64  `json:"id"`
	Kind         string `json:"kind"`
	Jurisdiction string `json:"jurisdiction"`
	// Status is granted, pending, lapsed, revoked... (service/permits).
	Status    string       `json:"status"`
	TagNumber int          `json:"tag_number,omitempty"`
	Issued    service.Date `json:"issued,omitzero"`
	Expires   service.Date `json:"expires,omitzero"`
	Source    string       `json:"source"`
}

// Agreement is the animal's shelter sterilisation agreement (64.140),
// while open.
type Agreement struct {
	ID     int64        `json:"id"`
	Due    service.Date `json:"due"`
	Source string       `json:"source"`
	// Status is due or broken.
	Status string `json:"status"`
}

// addPermits puts the record's permits and open sterilisation agreement
// on the answer, with an alert when the agreement is broken.
func (s *Service) addPermits(rec *service.Record, a *Answer) {
	if len(rec.Permits) == 0 && len(rec.Agreements) == 0 {
		return
	}
	today := service.DateOf(s.now())
	if p := s.rules.Profile(a.Jurisdiction); p != nil {
		today = p.Today(s.now())
	}
	for i := range rec.Permits {
		p := &rec.Permits[i]
		st := permits.Status(p, today)
		if st == string(service.PermitDenied) {
			continue
		}
		a.Permits = append(a.Permits, Permit{ID: p.ID, Kind: string(p.Kind), Jurisdiction: p.Jurisdiction, Status: st,
			TagNumber: p.TagNumber, Issued: p.IssuedOn, Expires: p.ExpiresOn, Source: p.FeeSource})
	}
	for i := range rec.Agreements {
		ag := &rec.Agreements[i]
		st := permits.AgreementStatus(ag, today)
		a.Agreement = &Agreement{ID: ag.ID, Due: ag.DueOn, Source: ag.DueSource, Status: st}
		if st == "broken" {
			a.alert("sterilisation-overdue", "warning", "Sterilisation agreed with the shelter was due "+ag.DueOn.String()+".", ag.DueSource)
		}
	}
}
