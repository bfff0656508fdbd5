package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// DeviceEventKind says what an offline device recorded.
type DeviceEventKind string

// Device event kinds.
const (
	DeviceScan DeviceEventKind = "scan" // a chip read in the field
	DeviceBite DeviceEventKind = "bite" // a bite reported to the officer
	// DeviceImpound is an animal picked up in the field and taken into
	// custody (an impoundment, its hold computed at the central service).
	DeviceImpound DeviceEventKind = "impound"
	// DeviceNote is a field note on an animal (AnimalNote).
	DeviceNote DeviceEventKind = "note"
)

// DeviceEvent is one event a handheld recorded while offline, pushed to
// the central store when it is back online. ID is made by the device
// when it records the event (a random UUID) and makes the push
// idempotent: an event is applied once however often it is pushed.
type DeviceEvent struct {
	ID     string          `json:"id"`
	Device string          `json:"device"`
	Kind   DeviceEventKind `json:"kind"`
	// At is when the device recorded the event, by the device's clock.
	At   time.Time `json:"at"`
	User string    `json:"user,omitempty"`
	Site string    `json:"site,omitempty"`
	// ClaimedUser is the user the device named when it was not the
	// token that pushed the event, which the server records as User:
	// kept beside it, never taken for the actor.
	ClaimedUser string `json:"claimed_user,omitempty"`
	// Role and TokenID are the pushing token's, set by the server.
	Role    Role  `json:"-"`
	TokenID int64 `json:"-"`
	// Scan is set for DeviceScan, Bite for DeviceBite, Impound for
	// DeviceImpound, Note for DeviceNote.
	Scan    *Scan         `json:"scan,omitempty"`
	Bite    *BiteIncident `json:"bite,omitempty"`
	Impound *Impoundment  `json:"impound,omitempty"`
	Note    *AnimalNote   `json:"note,omitempty"`
}

// Validate checks the event's shape.
func (e *DeviceEvent) Validate() error {
	switch {
	case e.ID == "" || len(e.ID) > 64:
		return Errorf(EINVALID, "Device event id required (at most 64 characters).")
	case e.Device == "":
		return Errorf(EINVALID, "Device event device required.")
	case e.At.IsZero():
		return Errorf(EINVALID, "Device event time required.")
	case e.Kind == DeviceScan && (e.Scan == nil || e.Bite != nil || e.Impound != nil || e.Note != nil):
		return Errorf(EINVALID, "A scan event carries a scan only.")
	case e.Kind == DeviceBite && (e.Bite == nil || e.Scan != nil || e.Impound != nil || e.Note != nil):
		return Errorf(EINVALID, "A bite event carries a bite only.")
	case e.Kind == DeviceImpound && (e.Impound == nil || e.Scan != nil || e.Bite != nil || e.Note != nil):
		return Errorf(EINVALID, "An impound event carries an impoundment only.")
	case e.Kind == DeviceNote && (e.Note == nil || e.Scan != nil || e.Bite != nil || e.Impound != nil):
		return Errorf(EINVALID, "A note event carries a note only.")
	case e.Kind != DeviceScan && e.Kind != DeviceBite && e.Kind != DeviceImpound && e.Kind != DeviceNote:
		return Errorf(EINVALID, "Device event kind must be scan, bite, impound or note.")
	}
	return nil
}

// Digest is the SHA-256 of what the device recorded: the kind, device
// and time, and the scan's reader, chip and time or the bite's facts;
// not what the server stamps (user, site, token, the scan's animal,
// ids). A store keeps it with the event id, so that the id pushed again
// with other content is refused rather than answered "duplicate".
func (e *DeviceEvent) Digest() string {
	type scan struct {
		Reader, Chip string
		Kind         string
		At           time.Time
	}
	type bite struct {
		AnimalID             int64
		Date                 Date
		Victim               Victim
		SkinBroken, Provoked bool
		Location, Notes      string
	}
	type impound struct {
		AnimalID   int64
		WhereFound string
		IntakeAt   time.Time
	}
	type note struct {
		AnimalID int64
		Text     string
	}
	v := struct {
		Kind    DeviceEventKind
		Device  string
		At      time.Time
		Scan    *scan
		Bite    *bite
		Impound *impound `json:",omitempty"`
		Note    *note    `json:",omitempty"`
	}{Kind: e.Kind, Device: e.Device, At: e.At.UTC().Truncate(time.Microsecond)}
	if s := e.Scan; s != nil {
		v.Scan = &scan{Reader: s.Reader, Chip: s.ChipCode, Kind: string(s.ChipKind), At: s.At.UTC().Truncate(time.Microsecond)}
	}
	if b := e.Bite; b != nil {
		v.Bite = &bite{AnimalID: b.AnimalID, Date: b.Date, Victim: b.Victim, SkinBroken: b.SkinBroken, Provoked: b.Provoked,
			Location: b.Location, Notes: b.Notes}
	}
	if im := e.Impound; im != nil {
		v.Impound = &impound{AnimalID: im.AnimalID, WhereFound: im.WhereFound, IntakeAt: im.IntakeAt.UTC().Truncate(time.Microsecond)}
	}
	if n := e.Note; n != nil {
		v.Note = &note{AnimalID: n.AnimalID, Text: n.Text}
	}
	j, _ := json.Marshal(v)
	h := sha256.Sum256(j)
	return hex.EncodeToString(h[:])
}

// FillScan gives e's scan the event's time, user and site where the
// scan has none, as ApplyDeviceEvent documents.
func (e *DeviceEvent) FillScan() {
	s := e.Scan
	if s.At.IsZero() {
		s.At = e.At
	}
	if s.User == "" {
		s.User = e.User
	}
	if s.Site == "" {
		s.Site = e.Site
	}
}

// BiteAudit is the audit entry of the bite with id biteID that e
// created, written at at: "bite.create" by the event's user (the device
// when it names none), at the event's site, naming the device and the
// event.
func (e *DeviceEvent) BiteAudit(biteID int64, at time.Time) *AuditEvent {
	actor := e.User
	if actor == "" {
		actor = e.Device
	}
	detail := "device " + e.Device + " event " + e.ID
	if e.ClaimedUser != "" {
		detail += "; claimed user " + e.ClaimedUser
	}
	return &AuditEvent{At: at, Actor: actor, Role: e.Role, Action: "bite.create", Entity: "bite", EntityID: biteID,
		Detail: detail, Site: e.Site, TokenID: e.TokenID}
}

// DeviceEventService applies events pushed by offline devices.
type DeviceEventService interface {
	// ApplyDeviceEvent creates the event's record (the scan or the bite)
	// and records the event id, in one transaction. When the id was
	// applied before, nothing changes and applied is false. recordID is
	// the id of the record the event created, either way. A scan's
	// AnimalID is the animal that carries the chip in the store when the
	// event is applied (0: none), whatever the device thought; its At,
	// User and Site default to the event's. A bite must name an animal
	// the store has (EINVALID otherwise); its audit event ("bite.create",
	// the event's user as actor, its site) is written in the same
	// transaction. An id reused for an event of another kind, device or
	// content (Digest) is ECONFLICT.
	ApplyDeviceEvent(ctx context.Context, e *DeviceEvent) (applied bool, recordID int64, err error)
}

// DeviceEventState is where an event a device recorded is: queued on
// the device until the central store answers, then applied (including a
// duplicate of an event applied before) or rejected.
type DeviceEventState string

// Device event states.
const (
	DeviceQueued   DeviceEventState = "queued"
	DeviceApplied  DeviceEventState = "applied"
	DeviceRejected DeviceEventState = "rejected"
)

// DeviceOutcome is what became of one pushed event: the answer of the
// sync endpoint's POST events, one per event, in order.
type DeviceOutcome struct {
	ID string `json:"id"`
	// State is applied (Duplicate tells a repeat of an event applied
	// before) or rejected (Code and Message say why).
	State     DeviceEventState `json:"state"`
	Duplicate bool             `json:"duplicate,omitempty"`
	RecordID  int64            `json:"record_id,omitempty"`
	Code      string           `json:"code,omitempty"`
	Message   string           `json:"message,omitempty"`
}

// DeviceKey is the data key a handheld seals its replica's records with
// (AES-256-GCM): one per device token, issued by the central service on
// a pull and never logged. The handheld keeps it only wrapped by a key
// derived from the officer's PIN; revoking the token ends its issue.
type DeviceKey struct {
	// ID names the key in the replica file ("k" and the token's id and
	// a random part), so a copy says which key sealed it.
	ID string `json:"key_id"`
	// Key is the 256-bit key.
	Key []byte `json:"key"`
}

// DeviceKeyService issues the handhelds' data keys.
type DeviceKeyService interface {
	// DeviceKey returns the data key of the device token tokenID, made
	// (random) the first time it is asked for. The caller checks the
	// token is usable: a revoked token gets no key.
	DeviceKey(ctx context.Context, tokenID int64) (*DeviceKey, error)
}

// NewDeviceKey makes a random data key for the device token tokenID.
func NewDeviceKey(tokenID int64) (*DeviceKey, error) {
	k := &DeviceKey{Key: make([]byte, 32)}
	var tag [6]byte
	if _, err := rand.Read(k.Key); err != nil {
		return nil, fmt.Errorf("device key: %w", err)
	}
	if _, err := rand.Read(tag[:]); err != nil {
		return nil, fmt.Errorf("device key: %w", err)
	}
	k.ID = fmt.Sprintf("k%d-%x", tokenID, tag)
	return k, nil
}

// Encoded is the key as the stores keep it (base64).
func (k *DeviceKey) Encoded() string { return base64.StdEncoding.EncodeToString(k.Key) }

// DecodeDeviceKey is the key a store kept (Encoded).
func DecodeDeviceKey(id, encoded string) (*DeviceKey, error) {
	b, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil || len(b) != 32 {
		return nil, fmt.Errorf("device key %s: not a 256-bit key", id)
	}
	return &DeviceKey{ID: id, Key: b}, nil
}
