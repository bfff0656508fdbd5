package web

import (
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// TestSafeNext: a redirect target after sign-in is a path on this
// origin, or nothing (OWASP ASVS 5.1.5).
func TestSafeNext(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"/search?q=x", "/search?q=x"},
		{"/animals/3#licence", "/animals/3#licence"},
		{"//evil.example/", ""},
		{"/\t/evil.example", ""},
		{"/\\evil.example", ""},
		{"/\r\n/evil.example", ""},
		{"https://evil.example/", ""},
		{"javascript:alert(1)", ""},
		{"evil.example", ""},
		{"/ /evil.example", ""},
		{"", ""},
	} {
		if got := safeNext(tt.in); got != tt.want {
			t.Errorf("safeNext(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSessionIdle: a session left without a request for the idle time
// ends, and its streams with it; one in use lives on to its expiry.
func TestSessionIdle(t *testing.T) {
	now := time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC)
	s := newSessions(10*time.Hour, 30*time.Minute, func() time.Time { return now })
	busy, err := s.create(&service.Token{ID: 1, Name: "a", Role: service.RoleIntake})
	if err != nil {
		t.Fatal(err)
	}
	idle, err := s.createUser(&service.User{ID: 2, Name: "b", Role: service.RoleClinic})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		now = now.Add(20 * time.Minute)
		if s.get(busy.id) == nil {
			t.Fatal("a session in use ended")
		}
	}
	if s.get(idle.id) != nil {
		t.Error("a session idle for 80 minutes is still live")
	}
	select {
	case <-idle.done:
	default:
		t.Error("the idle session's streams were not ended")
	}
	now = now.Add(10 * time.Hour)
	if s.get(busy.id) != nil {
		t.Error("a session lived past its expiry")
	}
}
