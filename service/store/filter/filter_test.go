package filter_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

func TestFilters(t *testing.T) {
	t.Parallel()
	id, name, site := int64(7), "rex", "shelter"
	yes, no := true, false
	year, state := 2026, service.JobQueued
	since := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	day := service.NewDate(2026, time.March, 1)
	tests := []struct {
		name string
		got  []filter.Cond
		want []filter.Cond
	}{
		{"OwnersNone", filter.Owners(service.OwnerFilter{}), nil},
		{"Owners", filter.Owners(service.OwnerFilter{ID: &id, Name: &name}),
			[]filter.Cond{{"id", filter.Eq, id}, {"name", filter.Contains, name}}},
		{"Animals", filter.Animals(service.AnimalFilter{OwnerID: &id, Name: &name}),
			[]filter.Cond{{"owner_id", filter.Eq, id}, {"name", filter.Contains, name}}},
		{"Licences", filter.Licences(service.LicenceFilter{AnimalID: &id, Year: &year, ExpiresBefore: &day, Site: &site}),
			[]filter.Cond{{"animal_id", filter.Eq, id}, {"year", filter.Eq, year}, {"expires_on", filter.Lt, day}, {"site", filter.Eq, site}}},
		{"ImpoundsOpen", filter.Impounds(service.ImpoundFilter{Open: &yes, Since: &day}),
			[]filter.Cond{{"disposition", filter.Empty, nil}, {"intake_on", filter.Ge, day}}},
		{"ImpoundsClosed", filter.Impounds(service.ImpoundFilter{Open: &no}),
			[]filter.Cond{{"disposition", filter.NotEmpty, nil}}},
		{"Scans", filter.Scans(service.ScanFilter{Site: &site, Since: &since}),
			[]filter.Cond{{"site", filter.Eq, site}, {"at", filter.Ge, since}}},
		{"Audit", filter.Audit(service.AuditFilter{EntityID: &id, Since: &since}),
			[]filter.Cond{{"entity_id", filter.Eq, id}, {"at", filter.Ge, since}}},
		{"Jobs", filter.Jobs(service.JobFilter{State: &state, LicenceID: &id}),
			[]filter.Cond{{"state", filter.Eq, state}, {"licence_id", filter.Eq, id}}},
		{"TagBatches", filter.TagBatches(service.TagBatchFilter{State: &state, Year: &year}),
			[]filter.Cond{{"state", filter.Eq, state}, {"year", filter.Eq, year}}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}
