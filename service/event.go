package service

import (
	"context"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
)

// Scan is one chip read that reached the service.
type Scan struct {
	ID int64     `json:"id"`
	At time.Time `json:"at"`
	// Reader names the reader (its String()).
	Reader   string      `json:"reader"`
	ChipCode string      `json:"chip_code"`
	ChipKind chipid.Kind `json:"chip_kind"`
	// User names the token or person; Site the place.
	User string `json:"user,omitempty"`
	Site string `json:"site,omitempty"`
	// AnimalID is the animal the chip resolved to, 0 when unknown.
	AnimalID int64 `json:"animal_id,omitempty"`
}

// Validate checks what a store needs to keep the scan.
func (s *Scan) Validate() error {
	if s.ChipCode == "" {
		return Errorf(EINVALID, "Scan chip code required.")
	}
	return nil
}

// ScanFilter selects scans.
type ScanFilter struct {
	ChipCode *string
	Site     *string
	// User selects the scans of one person or token (Scan.User).
	User          *string
	Since         *time.Time
	Offset, Limit int
}

// ScanService persists scans.
type ScanService interface {
	CreateScan(ctx context.Context, s *Scan) error
	// FindScans returns scans newest first.
	FindScans(ctx context.Context, f ScanFilter) ([]*Scan, int, error)
}

// AuditEvent records who did what to which record.
type AuditEvent struct {
	ID     int64     `json:"id"`
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"` // token name or user
	Role   Role      `json:"role,omitempty"`
	Action string    `json:"action"` // "licence.create", "record.view", ...
	// Entity and EntityID name the record acted on.
	Entity   string `json:"entity,omitempty"`
	EntityID int64  `json:"entity_id,omitempty"`
	Detail   string `json:"detail,omitempty"`
	// Site names the place the actor worked from (the token's site).
	Site string `json:"site,omitempty"`
	// TokenID is the API token that acted; for a person signed in to
	// the pages with an account, the account's id negated. 0: the
	// service itself (a reader's scan, a command).
	TokenID int64 `json:"token_id,omitempty"`
}

// Validate checks what a store needs to keep the event.
func (e *AuditEvent) Validate() error {
	if e.Actor == "" || e.Action == "" {
		return Errorf(EINVALID, "Audit event needs an actor and an action.")
	}
	return nil
}

// AuditFilter selects audit events.
type AuditFilter struct {
	Actor         *string
	Site          *string
	Entity        *string
	EntityID      *int64
	Since         *time.Time
	Offset, Limit int
}

// AuditService persists audit events. Events are never changed.
type AuditService interface {
	CreateAuditEvent(ctx context.Context, e *AuditEvent) error
	// FindAuditEvents returns events newest first.
	FindAuditEvents(ctx context.Context, f AuditFilter) ([]*AuditEvent, int, error)
}
