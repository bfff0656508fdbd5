package access_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/access"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

func openDB(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "chipdesk.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestPasswords(t *testing.T) {
	for _, tt := range []struct {
		pw string
		ok bool
	}{
		{"correct horse battery staple", true},
		{"short", false},
		{"            ", false},
		{string(make([]byte, 73)), false},
		{"\xff\xfe not utf-8 at all", false},
	} {
		_, err := access.HashPassword(tt.pw)
		if (err == nil) != tt.ok {
			t.Errorf("HashPassword(%q) = %v, want ok %v", tt.pw, err, tt.ok)
		}
	}
}

// TestSignIn: the right name and password sign in; a wrong password, an
// unknown name and a disabled account get the same EUNAUTHORIZED.
func TestSignIn(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	h, err := access.HashPassword("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateUser(ctx, &service.User{Name: "Dana", Role: service.RoleIntake, Hash: h}); err != nil {
		t.Fatal(err)
	}
	if u, err := access.SignIn(ctx, db, "Dana", "correct horse battery staple"); err != nil || u.Name != "Dana" {
		t.Fatalf("SignIn = %v, %v", u, err)
	}
	for _, tt := range [][2]string{{"Dana", "wrong horse battery staple"}, {"Nobody", "correct horse battery staple"}} {
		if _, err := access.SignIn(ctx, db, tt[0], tt[1]); service.ErrorCode(err) != service.EUNAUTHORIZED {
			t.Errorf("SignIn(%q, %q) = %v, want unauthorized", tt[0], tt[1], err)
		}
	}
	if err := db.DisableUser(ctx, "Dana"); err != nil {
		t.Fatal(err)
	}
	if _, err := access.SignIn(ctx, db, "Dana", "correct horse battery staple"); service.ErrorCode(err) != service.EUNAUTHORIZED {
		t.Errorf("SignIn of a disabled account = %v, want unauthorized", err)
	}
}

// TestWatcher: a revocation written by another store handle (another
// process) is seen within the poll and wakes those waiting on Changed.
func TestWatcher(t *testing.T) {
	db := openDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tok := &service.Token{Name: "reader", Role: service.RoleOfficer}
	if _, err := db.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	w := access.NewWatcher(&access.WatchOpts{Tokens: db, Users: db, Poll: 10 * time.Millisecond})
	if err := w.Load(ctx); err != nil {
		t.Fatal(err)
	}
	changed := w.Changed()
	go w.Run(ctx)
	if w.TokenRevoked(tok.ID) {
		t.Fatal("token revoked before the revoke")
	}
	if err := db.RevokeToken(ctx, tok.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(testtime.Scale(time.Second)):
		t.Fatal("Changed not closed within a second of the revoke")
	}
	if !w.TokenRevoked(tok.ID) {
		t.Error("TokenRevoked false after the change")
	}
	// A revocation of this process is known at once.
	changed = w.Changed()
	w.DisabledUser(7)
	select {
	case <-changed:
	default:
		t.Error("DisabledUser did not wake the waiters")
	}
	if !w.UserDisabled(7) || w.UserDisabled(8) {
		t.Error("UserDisabled wrong")
	}
}
