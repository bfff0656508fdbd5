package service

import (
	"context"
	"fmt"
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

// AuditService persists audit events. Events are never changed; only
// the lookups' events leave the log, into their counts (CompactAudit).
type AuditService interface {
	CreateAuditEvent(ctx context.Context, e *AuditEvent) error
	// FindAuditEvents returns events newest first.
	FindAuditEvents(ctx context.Context, f AuditFilter) ([]*AuditEvent, int, error)
	// CompactAudit replaces the lookup events (LookupActionPrefix) of
	// the oldest UTC day that has some from before the instant before
	// by their counts (one AuditCount per actor, role, site, token,
	// action, entity and detail), in one transaction: the day's events
	// are counted and removed together, with an "audit.compact" event
	// saying so, or not at all. Every other event is kept whole. It
	// returns the compaction made, nil when nothing is left to compact;
	// called until then, it applies a retention day by day.
	CompactAudit(ctx context.Context, before time.Time) (*AuditCompaction, error)
	// FindAuditCounts returns the counts of compacted lookups, newest
	// day first (Since selects by day).
	FindAuditCounts(ctx context.Context, f AuditFilter) ([]*AuditCount, int, error)
}

// LookupActionPrefix begins the action of every lookup's event
// ("lookup.chip", "lookup.tag", "lookup.animal", "lookup.scan"), the
// events written one per lookup, which CompactAudit may count: no
// change's event, refusal or read of another kind begins so.
const LookupActionPrefix = "lookup."

// AuditCount is how many lookup events of one kind a compaction
// counted on one UTC day: who (actor, role, site, token) looked up what
// (action, entity and id, detail: the chip or tag asked for), and the
// first and last of them.
type AuditCount struct {
	CompactionID int64     `json:"compaction_id"`
	Day          Date      `json:"day"`
	Actor        string    `json:"actor"`
	Role         Role      `json:"role,omitempty"`
	Site         string    `json:"site,omitempty"`
	TokenID      int64     `json:"token_id,omitempty"`
	Action       string    `json:"action"`
	Entity       string    `json:"entity,omitempty"`
	EntityID     int64     `json:"entity_id,omitempty"`
	Detail       string    `json:"detail,omitempty"`
	Events       int64     `json:"events"`
	FirstAt      time.Time `json:"first_at"`
	LastAt       time.Time `json:"last_at"`
}

// AuditCompaction records one day's compaction: the events removed
// (all those of ActionPrefix with an id up to LastEventID before
// Before) and the counts that replace them, whose Events add up to
// Events.
type AuditCompaction struct {
	ID           int64     `json:"id"`
	At           time.Time `json:"at"`
	Day          Date      `json:"day"`
	Before       time.Time `json:"before"`
	ActionPrefix string    `json:"action_prefix"`
	LastEventID  int64     `json:"last_event_id"`
	Events       int64     `json:"events"`
	Counts       int64     `json:"counts"`
}

// Event is the audit event of the compaction, written in its
// transaction.
func (c *AuditCompaction) Event() *AuditEvent {
	return &AuditEvent{At: c.At, Actor: "chipdesk", Action: "audit.compact", Entity: "audit_compaction", EntityID: c.ID,
		Detail: fmt.Sprintf("%d lookup events of %s counted in %d rows", c.Events, c.Day, c.Counts)}
}

// NewAuditCompaction is the compaction, made at now, of the lookup
// events of first's UTC day (first being the oldest lookup event from
// before the instant before) with an id up to last: from the day's
// start, which it returns, to its end or to before, whichever comes
// first. Both stores' CompactAudit begin so.
func NewAuditCompaction(now, first, before time.Time, last int64) (c *AuditCompaction, start time.Time) {
	day := DateIn(first, time.UTC)
	start = day.Time(time.UTC)
	end := day.AddDays(1).Time(time.UTC)
	if before.Before(end) {
		end = before.UTC()
	}
	return &AuditCompaction{At: now, Day: day, Before: end, ActionPrefix: LookupActionPrefix, LastEventID: last}, start
}

// Check compares what a store's compaction wrote and removed with what
// it counted: counts rows of counts written, events removed. An error
// means the day's transaction must not commit.
func (c *AuditCompaction) Check(counts, events int64) error {
	if counts != c.Counts {
		return fmt.Errorf("%d counts written of %d on %s", counts, c.Counts, c.Day)
	}
	if events != c.Events {
		return fmt.Errorf("%d events removed of %d counted on %s", events, c.Events, c.Day)
	}
	return nil
}

// CompactAuditLog applies a retention: s.CompactAudit day by day until
// nothing before before is left, calling each (when set) with every
// compaction as it commits. It stops at ctx's end or the first error,
// the days before it compacted, and returns the compactions made.
func CompactAuditLog(ctx context.Context, s AuditService, before time.Time, each func(*AuditCompaction)) ([]*AuditCompaction, error) {
	var done []*AuditCompaction
	for {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		c, err := s.CompactAudit(ctx, before)
		if err != nil || c == nil {
			return done, err
		}
		done = append(done, c)
		if each != nil {
			each(c)
		}
	}
}
