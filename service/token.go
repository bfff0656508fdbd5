package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"time"
)

// Role is what a token may do.
type Role string

// Roles.
const (
	RoleAdmin   Role = "admin"   // everything, tokens included
	RoleClinic  Role = "clinic"  // sell licences, record vaccinations
	RoleIntake  Role = "intake"  // shelter counter: impound, redeem, licences
	RoleOfficer Role = "officer" // field: look up full records, log bites
	RolePublic  Role = "public"  // found-pet lookup without owner data
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool {
	switch r {
	case RoleAdmin, RoleClinic, RoleIntake, RoleOfficer, RolePublic:
		return true
	}
	return false
}

// Token is an API credential. Only the SHA-256 hash of the secret is
// stored; the secret is shown once, when the token is created.
type Token struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Role Role   `json:"role"`
	Site string `json:"site,omitempty"`
	// Hash is SHA-256 of the secret.
	Hash      [32]byte  `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	// ExpiresAt is zero for a token that does not expire.
	ExpiresAt  time.Time `json:"expires_at,omitzero"`
	RevokedAt  time.Time `json:"revoked_at,omitzero"`
	LastUsedAt time.Time `json:"last_used_at,omitzero"`
}

// Validate checks a token to be created: a name and a known role.
func (t *Token) Validate() error {
	if t.Name == "" {
		return Errorf(EINVALID, "Token name required.")
	} else if !t.Role.Valid() {
		return Errorf(EINVALID, "Role must be admin, clinic, intake, officer or public.")
	}
	return nil
}

// Usable reports whether t may authenticate at now.
func (t *Token) Usable(now time.Time) bool {
	return t.RevokedAt.IsZero() && (t.ExpiresAt.IsZero() || now.Before(t.ExpiresAt))
}

// LastUseEvery is how stale LastUsedAt may grow: a store writes the
// stamp of a token used at most once in this time, so authenticating
// stays a read.
const LastUseEvery = time.Minute

// LastUseDue reports whether a use of t at now is to be stamped.
func (t *Token) LastUseDue(now time.Time) bool { return now.Sub(t.LastUsedAt) >= LastUseEvery }

// Issue readies a new token to be stored: it validates t, makes a fresh
// secret and sets Hash to its hash. The secret is returned to be shown
// once; it is stored nowhere.
func (t *Token) Issue() (secret string, err error) {
	if err := t.Validate(); err != nil {
		return "", err
	}
	if secret, err = NewTokenSecret(); err != nil {
		return "", err
	}
	t.Hash = HashToken(secret)
	return secret, nil
}

// TokenPrefix starts every token secret, so leaked secrets are easy to
// find in logs and repositories.
const TokenPrefix = "cdk_"

// NewTokenSecret returns a fresh secret: TokenPrefix and 160 random bits
// in base32.
func NewTokenSecret() (string, error) {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("service: token secret: %w", err)
	}
	return TokenPrefix + base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]), nil
}

// HashToken returns the SHA-256 of a secret, as stored.
func HashToken(secret string) [32]byte { return sha256.Sum256([]byte(secret)) }

// TokenService stores and checks tokens.
type TokenService interface {
	// CreateToken makes a new secret, stores t with its hash and returns
	// the secret (the only time it is available).
	CreateToken(ctx context.Context, t *Token) (secret string, err error)
	// Authenticate returns the token for a secret and records its use.
	// EUNAUTHORIZED when unknown, revoked or expired.
	Authenticate(ctx context.Context, secret string) (*Token, error)
	RevokeToken(ctx context.Context, id int64) error
	FindTokens(ctx context.Context) ([]*Token, error)
}
