package service

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// AnimalNote is a field note on an animal: what an officer wrote down on
// a handheld (a DeviceNote event), kept with who wrote it, where and
// when.
type AnimalNote struct {
	ID       int64     `json:"id"`
	AnimalID int64     `json:"animal_id"`
	At       time.Time `json:"at"`
	Author   string    `json:"author,omitempty"`
	Site     string    `json:"site,omitempty"`
	Device   string    `json:"device,omitempty"`
	Text     string    `json:"text"`
}

// MaxNoteText is the longest note, in characters.
const MaxNoteText = 2000

// Validate checks the note's animal and text.
func (n *AnimalNote) Validate() error {
	switch {
	case n.AnimalID <= 0:
		return Invalidf("note.animal_id", "The note names no animal: look the animal up first.")
	case strings.TrimSpace(n.Text) == "":
		return Invalidf("note.text", "The note has no text.")
	case utf8.RuneCountInString(n.Text) > MaxNoteText:
		return Invalidf("note.text", "A note is at most %d characters.", MaxNoteText)
	}
	return nil
}

// NoteService reads the field notes.
type NoteService interface {
	// FindAnimalNotes lists an animal's notes, newest first.
	FindAnimalNotes(ctx context.Context, animalID int64) ([]AnimalNote, error)
}

// NoteAudit is the audit entry of the note with id noteID that e
// created: "note.create", as BiteAudit.
func (e *DeviceEvent) NoteAudit(noteID int64, at time.Time) *AuditEvent {
	a := e.BiteAudit(noteID, at)
	a.Action, a.Entity = "note.create", "note"
	return a
}
