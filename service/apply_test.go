package service_test

import (
	"strings"
	"testing"
	"time"

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

func TestTokenIssue(t *testing.T) {
	t.Parallel()
	tok := &service.Token{Name: "desk", Role: service.RoleIntake}
	secret, err := tok.Issue()
	if err != nil {
		t.Fatalf("Issue() = %v, want nil", err)
	}
	if !strings.HasPrefix(secret, service.TokenPrefix) || tok.Hash != service.HashToken(secret) {
		t.Errorf("Issue() = %q with hash %x, want a %s secret whose hash is stored", secret, tok.Hash, service.TokenPrefix)
	}
	again, _ := (&service.Token{Name: "desk", Role: service.RoleIntake}).Issue()
	if again == secret {
		t.Errorf("Issue() twice = %q both times, want fresh secrets", secret)
	}
	if _, err := (&service.Token{Name: "desk", Role: "mayor"}).Issue(); service.ErrorCode(err) != service.EINVALID {
		t.Errorf("Issue(role mayor) = %v, want EINVALID", err)
	}
}

func TestTokenLastUseDue(t *testing.T) {
	t.Parallel()
	used := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	tok := &service.Token{LastUsedAt: used}
	tests := []struct {
		name string
		now  time.Time
		want bool
	}{
		{"Soon", used.Add(59 * time.Second), false},
		{"AMinute", used.Add(service.LastUseEvery), true},
		{"Later", used.Add(time.Hour), true},
	}
	for _, tt := range tests {
		if got := tok.LastUseDue(tt.now); got != tt.want {
			t.Errorf("%s: LastUseDue(%v) = %v, want %v", tt.name, tt.now, got, tt.want)
		}
	}
	if !(&service.Token{}).LastUseDue(used) {
		t.Errorf("LastUseDue of a token never used = false, want true")
	}
}

func TestDeviceEventFillScan(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC)
	own := at.Add(-time.Minute)
	tests := []struct {
		name string
		scan service.Scan
		want service.Scan
	}{
		{"Defaults", service.Scan{ChipCode: "985141000123456"},
			service.Scan{ChipCode: "985141000123456", At: at, User: "officer-7", Site: "field"}},
		{"Own", service.Scan{ChipCode: "985141000123456", At: own, User: "vet", Site: "clinic"},
			service.Scan{ChipCode: "985141000123456", At: own, User: "vet", Site: "clinic"}},
	}
	for _, tt := range tests {
		s := tt.scan
		e := &service.DeviceEvent{ID: "e1", Device: "handheld-3", Kind: service.DeviceScan, At: at, User: "officer-7", Site: "field", Scan: &s}
		e.FillScan()
		if s != tt.want {
			t.Errorf("%s: FillScan() = %+v, want %+v", tt.name, s, tt.want)
		}
	}
}

func TestDeviceEventBiteAudit(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC)
	e := &service.DeviceEvent{ID: "e2", Device: "handheld-3", Kind: service.DeviceBite, Site: "field"}
	a := e.BiteAudit(42, now)
	want := service.AuditEvent{At: now, Actor: "handheld-3", Action: "bite.create", Entity: "bite", EntityID: 42,
		Detail: "device handheld-3 event e2", Site: "field"}
	if *a != want {
		t.Errorf("BiteAudit(42) = %+v, want %+v", *a, want)
	}
	e.User = "officer-7"
	if a := e.BiteAudit(42, now); a.Actor != "officer-7" {
		t.Errorf("BiteAudit with user: actor %q, want officer-7", a.Actor)
	}
}
