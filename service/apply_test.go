package service_test

import (
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

func TestOwnerApply(t *testing.T) {
	t.Parallel()
	name, empty, city := "Ada Lovelace", "", "Minneapolis"
	o := &service.Owner{Name: "Ada", City: "St Paul", Phone: "612-555-0100"}
	if err := o.Apply(service.OwnerUpdate{Name: &name, City: &city}); err != nil {
		t.Fatalf("Apply(name, city) = %v, want nil", err)
	}
	if o.Name != name || o.City != city || o.Phone != "612-555-0100" {
		t.Errorf("Apply(name, city) = %+v, want name and city changed, phone kept", o)
	}
	if err := o.Apply(service.OwnerUpdate{Name: &empty}); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("Apply(empty name) = %v, want EINVALID", err)
	}
}

func TestJobApply(t *testing.T) {
	t.Parallel()
	done, dev := service.JobDone, "grbl:/dev/ttyACM0"
	j := &service.Job{State: service.JobSent, Device: "old", Error: "jam"}
	j.Apply(service.JobUpdate{State: &done, Device: &dev})
	if j.State != done || j.Device != dev || j.Error != "jam" {
		t.Errorf("Apply(state, device) = %+v, want state and device changed, error kept", j)
	}
}

func TestTagBatchApply(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		done int
		ok   bool
	}{
		{"None", 0, true},
		{"All", 10, true},
		{"Negative", -1, false},
		{"PastLast", 11, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := &service.TagBatch{First: 101, Last: 110}
			err := b.Apply(service.TagBatchUpdate{Done: &tt.done})
			if (err == nil) != tt.ok || (err != nil && service.ErrorCode(err) != service.EINVALID) {
				t.Errorf("Apply(done %d) = %v, want ok %v (else EINVALID)", tt.done, err, tt.ok)
			}
		})
	}
}
