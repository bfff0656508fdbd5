package service

import (
	"context"
	"time"
)

// User is a staff account: a person who signs in to the pages with a
// name and a password. API tokens stay for machines (readers, handhelds,
// scripts). Only a password hash is stored (service/access makes it).
type User struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Site scopes a clinic's or a station's account to what its site
	// issued, as Token.Site does.
	Site string `json:"site,omitempty"`
	// Hash is the password's bcrypt hash.
	Hash       string    `json:"-"`
	CreatedAt  time.Time `json:"created_at"`
	DisabledAt time.Time `json:"disabled_at,omitzero"`
}

// Validate checks an account to be created: a name fit to show and a
// known role.
func (u *User) Validate() error {
	if err := CheckName("name", u.Name, MaxNameLen); err != nil {
		return err
	}
	if !u.Role.Valid() || u.Role == RolePublic {
		return Errorf(EINVALID, "Role must be admin, clinic, intake or officer.")
	}
	if u.Hash == "" {
		return Errorf(EINVALID, "Password required.")
	}
	return nil
}

// Usable reports whether the account may sign in.
func (u *User) Usable() bool { return u.DisabledAt.IsZero() }

// AuditTokenID is the TokenID of an audit entry made by a person signed
// in with account u: the account's id negated, so that it never names a
// token.
func (u *User) AuditTokenID() int64 { return -u.ID }

// UserService stores staff accounts.
type UserService interface {
	// CreateUser stores u (ECONFLICT when the name is taken).
	CreateUser(ctx context.Context, u *User) error
	// FindUserByName returns the account of name, disabled or not
	// (ENOTFOUND when there is none).
	FindUserByName(ctx context.Context, name string) (*User, error)
	// SetUserPassword replaces the password hash of account name.
	SetUserPassword(ctx context.Context, name, hash string) error
	// DisableUser disables account name; it can no longer sign in, and
	// its open sessions end (service/access watches FindUsers).
	DisableUser(ctx context.Context, name string) error
	// FindUsers lists every account.
	FindUsers(ctx context.Context) ([]*User, error)
}
