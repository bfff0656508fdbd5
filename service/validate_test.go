package service_test

import (
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	bad := service.JobState("lost")
	ok := service.JobDone
	date := service.NewDate(2026, time.March, 15)
	batch := func(f func(*service.TagBatch)) *service.TagBatch {
		b := &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Key: "batch/1"}
		f(b)
		return b
	}
	tests := []struct {
		name string
		v    interface{ Validate() error }
		ok   bool
	}{
		{"Chip", &service.Chip{AnimalID: 1, Code: "985141000123456"}, true},
		{"ChipNoAnimal", &service.Chip{Code: "985141000123456"}, false},
		{"ChipNoCode", &service.Chip{AnimalID: 1}, false},
		{"Scan", &service.Scan{ChipCode: "985141000123456"}, true},
		{"ScanNoCode", &service.Scan{Reader: "rt100"}, false},
		{"Audit", &service.AuditEvent{Actor: "desk", Action: "licence.create"}, true},
		{"AuditNoActor", &service.AuditEvent{Action: "licence.create"}, false},
		{"AuditNoAction", &service.AuditEvent{Actor: "desk"}, false},
		{"Bite", &service.BiteIncident{AnimalID: 1, Date: date, Victim: service.VictimPerson}, true},
		{"BiteNoAnimal", &service.BiteIncident{Date: date, Victim: service.VictimPerson}, false},
		{"BiteNoDate", &service.BiteIncident{AnimalID: 1, Victim: service.VictimAnimal}, false},
		{"BiteVictim", &service.BiteIncident{AnimalID: 1, Date: date, Victim: "cyclist"}, false},
		{"Job", &service.Job{Kind: service.JobPrint, LicenceID: 1, Reason: "new"}, true},
		{"JobKind", &service.Job{Kind: "paint", LicenceID: 1, Reason: "new"}, false},
		{"JobNoLicence", &service.Job{Kind: service.JobPrint, Reason: "new"}, false},
		{"JobNoReason", &service.Job{Kind: service.JobEngrave, LicenceID: 1}, false},
		{"JobUpdate", &service.JobUpdate{State: &ok}, true},
		{"JobUpdateNil", &service.JobUpdate{}, true},
		{"JobUpdateState", &service.JobUpdate{State: &bad}, false},
		{"TagBatchUpdate", &service.TagBatchUpdate{State: &ok}, true},
		{"TagBatchUpdateState", &service.TagBatchUpdate{State: &bad}, false},
		{"Token", &service.Token{Name: "desk", Role: service.RoleClinic}, true},
		{"TokenNoName", &service.Token{Role: service.RoleClinic}, false},
		{"TokenRole", &service.Token{Name: "desk", Role: "mayor"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.v.Validate()
			if (err == nil) != tt.ok || (err != nil && service.ErrorCode(err) != service.EINVALID) {
				t.Errorf("Validate(%+v) = %v, want ok %v (else EINVALID)", tt.v, err, tt.ok)
			}
		})
	}
	batches := []struct {
		name  string
		b     *service.TagBatch
		count int
		ok    bool
	}{
		{"Batch", batch(func(*service.TagBatch) {}), 100, true},
		{"BatchMax", batch(func(*service.TagBatch) {}), service.MaxTagBatch, true},
		{"BatchTooMany", batch(func(*service.TagBatch) {}), service.MaxTagBatch + 1, false},
		{"BatchEmpty", batch(func(*service.TagBatch) {}), 0, false},
		{"BatchKind", batch(func(b *service.TagBatch) { b.Kind = "paint" }), 1, false},
		{"BatchNoJurisdiction", batch(func(b *service.TagBatch) { b.Jurisdiction = "" }), 1, false},
		{"BatchYear", batch(func(b *service.TagBatch) { b.Year = 10000 }), 1, false},
		{"BatchNoKey", batch(func(b *service.TagBatch) { b.Key = "" }), 1, false},
	}
	for _, tt := range batches {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.b.Validate(tt.count)
			if (err == nil) != tt.ok || (err != nil && service.ErrorCode(err) != service.EINVALID) {
				t.Errorf("Validate(%+v, %d) = %v, want ok %v (else EINVALID)", tt.b, tt.count, err, tt.ok)
			}
		})
	}
}

func TestLicencePrepare(t *testing.T) {
	t.Parallel()
	l := &service.Licence{AnimalID: 1, Jurisdiction: "minneapolis", IssuedOn: service.NewDate(2026, time.March, 15),
		ExpiresOn: service.NewDate(2027, time.March, 14)}
	if err := l.Prepare(); err != nil {
		t.Fatalf("Prepare() = %v, want nil", err)
	}
	if l.Kind != service.KindLicence || l.Status != service.LicenceActive || l.IssuedBy != service.IssuerOffice || l.Year != 2026 {
		t.Errorf("Prepare() = kind %q status %q issuer %q year %d, want licence active office 2026", l.Kind, l.Status, l.IssuedBy, l.Year)
	}
	bad := &service.Licence{AnimalID: 1, Jurisdiction: "minneapolis"}
	if err := bad.Prepare(); service.ErrorCode(err) != service.EINVALID || bad.Year != 0 {
		t.Errorf("Prepare(no dates) = %v (year %d), want EINVALID and no year", err, bad.Year)
	}
}

func TestBatchPrepare(t *testing.T) {
	t.Parallel()
	lic := func() *service.Licence {
		return &service.Licence{AnimalID: 1, Jurisdiction: "minneapolis", IssuedOn: service.NewDate(2026, time.March, 15),
			ExpiresOn: service.NewDate(2027, time.March, 14)}
	}
	tests := []struct {
		name string
		b    *service.Batch
		ok   bool
	}{
		{"Empty", &service.Batch{}, true},
		{"Licence", &service.Batch{Licences: []*service.Licence{lic()}}, true},
		{"BadChip", &service.Batch{Chips: []*service.Chip{{AnimalID: 1}}}, false},
		{"BadLicence", &service.Batch{Licences: []*service.Licence{lic(), {AnimalID: 1}}}, false},
		{"BadOwner", &service.Batch{Owners: []*service.Owner{{}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.b.Prepare()
			if (err == nil) != tt.ok || (err != nil && service.ErrorCode(err) != service.EINVALID) {
				t.Errorf("Prepare(%s) = %v, want ok %v (else EINVALID)", tt.name, err, tt.ok)
			}
			if tt.ok {
				for _, l := range tt.b.Licences {
					if l.Status != service.LicenceActive {
						t.Errorf("Prepare(%s): licence status %q, want active", tt.name, l.Status)
					}
				}
			}
		})
	}
}
