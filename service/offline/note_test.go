package offline_test

import (
	"context"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
)

// TestNoteAppliedOnce: a field note queued on the handheld is applied
// once however often it is pushed, is a note on the animal's record,
// and its id reused with another text is refused (conflict); a note with
// no text is refused on the device.
func TestNoteAppliedOnce(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := be.open(t)
			sd := seed(t, s)
			c := &offline.StoreCentral{Store: s}
			r := openReplica(t)
			if _, err := r.RecordNote(ctx, sd.dog.ID, "  "); service.ErrorCode(err) != service.EINVALID {
				t.Fatalf("RecordNote with no text = %v, want EINVALID", err)
			}
			ev, err := r.RecordNote(ctx, sd.dog.ID, "Barking at the fence line, owner away.")
			if err != nil {
				t.Fatal(err)
			}
			if rep := syncOK(t, r, c); rep.Applied != 1 {
				t.Fatalf("Sync = %+v, want the note applied", rep)
			}
			again, err := c.Push(ctx, []service.DeviceEvent{*ev})
			if err != nil || len(again) != 1 || again[0].State != offline.Applied || !again[0].Duplicate {
				t.Fatalf("push of the note again = %+v, %v; want applied, duplicate", again, err)
			}
			other := *ev
			n := *ev.Note
			n.Text = "Something else."
			other.Note = &n
			if out, err := c.Push(ctx, []service.DeviceEvent{other}); err != nil || out[0].State != offline.Rejected || out[0].Code != service.ECONFLICT {
				t.Fatalf("note id reused with other text = %+v, %v; want rejected, conflict", out, err)
			}
			notes, err := s.FindAnimalNotes(ctx, sd.dog.ID)
			if err != nil || len(notes) != 1 || notes[0].Text != "Barking at the fence line, owner away." ||
				notes[0].Device != "handheld-3" || notes[0].Author != "officer-7" || !notes[0].At.Equal(ev.At) {
				t.Fatalf("notes = %+v, %v; want the one note as recorded", notes, err)
			}
		})
	}
}
