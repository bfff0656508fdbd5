package access

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/chipdesk/chipdesk/service"
)

// Cost is the bcrypt cost of new password hashes (ASVS 2.4.4 asks at
// least 10); about 50 ms a check on the service's machines.
const Cost = 11

// Password bounds: ASVS 2.1.1 asks at least 12 characters; bcrypt reads
// at most 72 bytes, so a longer password is refused rather than cut.
const (
	MinPassword = 12
	MaxPassword = 72
)

// CheckPassword reports whether p may be a password.
func CheckPassword(p string) error {
	switch n := utf8.RuneCountInString(p); {
	case !utf8.ValidString(p):
		return service.Errorf(service.EINVALID, "The password is not valid UTF-8.")
	case n < MinPassword:
		return service.Errorf(service.EINVALID, "The password needs at least %d characters.", MinPassword)
	case len(p) > MaxPassword:
		return service.Errorf(service.EINVALID, "The password is longer than %d bytes.", MaxPassword)
	case strings.TrimSpace(p) == "":
		return service.Errorf(service.EINVALID, "The password is blank.")
	}
	return nil
}

// HashPassword returns the bcrypt hash of p after CheckPassword.
func HashPassword(p string) (string, error) {
	if err := CheckPassword(p); err != nil {
		return "", err
	}
	h, err := bcrypt.GenerateFromPassword([]byte(p), Cost)
	if err != nil {
		return "", err
	}
	return string(h), nil
}

// dummyHash is checked when there is no account of the name, so that a
// wrong name takes as long as a wrong password.
var dummyHash = []byte("$2a$11$WRWFRqOmsGH6/yEAzLtrEOFnTOO1L./6E3c9qljAkmUvZmeJYbF3u")

// SignIn checks name and password against users: the account when both
// match and it is not disabled, else EUNAUTHORIZED (the same error
// whichever part was wrong).
func SignIn(ctx context.Context, users service.UserService, name, password string) (*service.User, error) {
	u, err := users.FindUserByName(ctx, name)
	if err != nil && service.ErrorCode(err) != service.ENOTFOUND {
		return nil, err
	}
	hash := dummyHash
	if u != nil {
		hash = []byte(u.Hash)
	}
	match := bcrypt.CompareHashAndPassword(hash, []byte(password))
	if u == nil || match != nil || !u.Usable() {
		if match != nil && !errors.Is(match, bcrypt.ErrMismatchedHashAndPassword) && u != nil {
			return nil, match
		}
		return nil, service.Errorf(service.EUNAUTHORIZED, "Wrong name or password, or the account is disabled.")
	}
	return u, nil
}
