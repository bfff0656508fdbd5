package storetest

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// testUsers: staff accounts are created once per name, found by name,
// get a new password hash, and stay listed once disabled.
func testUsers(t *testing.T, s service.Store, c *Clock) {
	us, ok := s.(service.UserService)
	if !ok {
		t.Fatalf("%T does not keep staff accounts (service.UserService)", s)
	}
	ctx := context.Background()
	u := &service.User{Name: "Dana Ortiz", Role: service.RoleIntake, Site: "shelter", Hash: "$2a$10$x"}
	must(t, "CreateUser", us.CreateUser(ctx, u))
	if u.ID == 0 || !u.CreatedAt.Equal(Start) {
		t.Errorf("CreateUser: id %d created %v", u.ID, u.CreatedAt)
	}
	wantCode(t, "CreateUser(same name)", us.CreateUser(ctx, &service.User{Name: "Dana Ortiz", Role: service.RoleClinic, Hash: "h"}), service.ECONFLICT)
	wantCode(t, "CreateUser(public)", us.CreateUser(ctx, &service.User{Name: "p", Role: service.RolePublic, Hash: "h"}), service.EINVALID)
	wantCode(t, "CreateUser(bidi name)", us.CreateUser(ctx, &service.User{Name: "a\u202eb", Role: service.RoleClinic, Hash: "h"}), service.EINVALID)

	got, err := us.FindUserByName(ctx, "Dana Ortiz")
	must(t, "FindUserByName", err)
	if got.ID != u.ID || got.Role != service.RoleIntake || got.Site != "shelter" || got.Hash != "$2a$10$x" || !got.Usable() {
		t.Errorf("FindUserByName = %+v", got)
	}
	_, err = us.FindUserByName(ctx, "nobody")
	wantCode(t, "FindUserByName(nobody)", err, service.ENOTFOUND)

	must(t, "SetUserPassword", us.SetUserPassword(ctx, "Dana Ortiz", "$2a$10$y"))
	wantCode(t, "SetUserPassword(nobody)", us.SetUserPassword(ctx, "nobody", "h"), service.ENOTFOUND)
	c.Set(Start.Add(3600e9))
	must(t, "DisableUser", us.DisableUser(ctx, "Dana Ortiz"))
	wantCode(t, "DisableUser(nobody)", us.DisableUser(ctx, "nobody"), service.ENOTFOUND)
	got, err = us.FindUserByName(ctx, "Dana Ortiz")
	must(t, "FindUserByName", err)
	if got.Hash != "$2a$10$y" || got.Usable() || !got.DisabledAt.Equal(Start.Add(3600e9)) {
		t.Errorf("after passwd and disable: %+v", got)
	}
	all, err := us.FindUsers(ctx)
	must(t, "FindUsers", err)
	if len(all) != 1 || all[0].Name != "Dana Ortiz" {
		t.Errorf("FindUsers = %v", all)
	}
}

// testAuditTokenID: an audit entry keeps the token id it was written
// with.
func testAuditTokenID(t *testing.T, s service.Store, _ *Clock) {
	ctx := context.Background()
	e := &service.AuditEvent{Actor: "reader-1", Role: service.RoleOfficer, Action: "bite.create", TokenID: 42}
	must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, e))
	evs, _, err := s.FindAuditEvents(ctx, service.AuditFilter{})
	must(t, "FindAuditEvents", err)
	if len(evs) != 1 || evs[0].TokenID != 42 {
		t.Errorf("FindAuditEvents = %+v, want token id 42", evs)
	}
}

// testNameWildcards: a name search for "_" or "%" finds the names that
// hold the character, not every owner.
func testNameWildcards(t *testing.T, s service.Store, _ *Clock) {
	ctx := context.Background()
	for _, n := range []string{"Ann Lee", "Bo_b Ray", "Cy 100% Dee", `Di\Eve`} {
		must(t, "CreateOwner", s.CreateOwner(ctx, &service.Owner{Name: n}))
	}
	for q, want := range map[string]int{"_": 1, "%": 1, `\`: 1, "o_b": 1, "a": 2} {
		os, _, err := s.FindOwners(ctx, service.OwnerFilter{Name: &q})
		must(t, "FindOwners", err)
		if len(os) != want {
			t.Errorf("FindOwners(name %q) = %d owners, want %d", q, len(os), want)
		}
	}
}
