package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestOfficerWatch_64_110: the officer's page lists the jurisdiction's
// dangerous animals with each requirement's status; a requirement is
// recorded met from it (a date in the future is refused beside the
// form, nothing recorded); a bite recorded with where and what happened
// shows on the animal's page and in the quarantines ending soon; the
// officer's own scans are listed.
func TestOfficerWatch_64_110(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	officer := "test officer"
	if err := f.store.CreateScan(ctx, &service.Scan{At: f.clock.Now(), Reader: "handheld-3", ChipCode: f.chip(chipRex).Code, User: officer, AnimalID: f.rex}); err != nil {
		t.Fatal(err)
	}
	if err := f.store.CreateScan(ctx, &service.Scan{At: f.clock.Now(), Reader: "desk-1", ChipCode: f.chip(chipTom).Code, User: "test intake", AnimalID: f.tom}); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	c.login(service.RoleOfficer)
	st, body := c.get("/officer")
	if st != http.StatusOK {
		t.Fatalf("officer = %d", st)
	}
	for _, want := range []string{`id="dd-` + fmt.Sprint(f.rex) + `"`, `data-requirement="photo" data-status="due"`, "Dangerous animals in Minneapolis", "handheld-3"} {
		if !strings.Contains(body, want) {
			t.Errorf("officer page lacks %s", want)
		}
	}
	if i := strings.Index(body, `id="my-scans"`); i < 0 || strings.Contains(body[i:], "desk-1") || !strings.Contains(body[i:], "handheld-3") || !strings.Contains(body[i:], "Rex (dog)") {
		t.Errorf("officer page lists another person's scan")
	}
	if strings.Contains(body, "open /officer?reader") || strings.Contains(body, "potentially-dangerous") {
		t.Errorf("officer page shows a hint to type an address or a raw code")
	}

	// A date in the future: refused beside its form, nothing recorded.
	path := fmt.Sprintf("/animals/%d/requirements/photo", f.rex)
	st, body = c.post(path, url.Values{"on": {"2026-07-01"}})
	if st != http.StatusBadRequest || !strings.Contains(body, `class="field-error"`) || !strings.Contains(body, `aria-invalid="true"`) {
		t.Errorf("future date = %d, want 400 with the error beside the field", st)
	}
	ds, _ := f.store.FindDesignations(ctx, f.rex)
	if !ds[0].PhotoOn.IsZero() {
		t.Fatalf("a refused form recorded the photo on %v", ds[0].PhotoOn)
	}
	// A date that is not one.
	if st, _ = c.post(path, url.Values{"on": {"15/06/2026"}}); st != http.StatusBadRequest {
		t.Errorf("wrong date = %d, want 400", st)
	}
	st, loc, _ := c.do("POST", path, url.Values{"on": {"2026-06-14"}, "csrf": {c.csrf}})
	if st != http.StatusSeeOther {
		t.Fatalf("record met = %d, want 303", st)
	}
	_, body = c.get(loc)
	if !strings.Contains(body, `data-requirement="photo" data-status="met"`) {
		t.Errorf("after recording, the photo requirement is not met on the page")
	}
	// Reloading the page records nothing again; posting again is refused.
	if st, _ = c.post(path, url.Values{"on": {"2026-06-14"}}); st != http.StatusConflict {
		t.Errorf("second record = %d, want 409", st)
	}

	// A bite, where and what happened.
	st, _ = c.post(fmt.Sprintf("/animals/%d/bites", f.tom), url.Values{"bite_date": {"2026-06-06"}, "victim": {"person"}, "skin_broken": {"on"},
		"location": {"Lake Harriet bandshell"}, "notes": {"Lunged at a jogger"}})
	if st != http.StatusOK {
		t.Fatalf("bite = %d", st)
	}
	_, body = c.get(fmt.Sprintf("/animals/%d", f.tom))
	for _, want := range []string{"Bites recorded", "Lake Harriet bandshell", "Lunged at a jogger", "skin broken"} {
		if !strings.Contains(body, want) {
			t.Errorf("animal page lacks %q", want)
		}
	}
	_, body = c.get("/officer")
	i := strings.Index(body, `id="quarantines"`)
	if i < 0 || !strings.Contains(body[i:], "Lake Harriet bandshell") || !strings.Contains(body[i:], "2026-06-16") {
		t.Errorf("quarantines ending soon lack Tom's bite quarantine (to 2026-06-16)")
	}
}

// TestAnimalPageFieldNotes: a field note pushed from a handheld is on
// the animal's page, with who wrote it, escaped as text.
func TestAnimalPageFieldNotes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	at := f.clock.Now()
	e := &service.DeviceEvent{ID: "note-1", Device: "handheld-3", Kind: service.DeviceNote, At: at, User: "officer-7", Site: "north",
		Note: &service.AnimalNote{AnimalID: f.rex, Text: "Gate latch <broken>; owner told."}}
	if _, _, err := f.store.ApplyDeviceEvent(ctx, e); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	c.login(service.RoleOfficer)
	_, body := c.get(fmt.Sprintf("/animals/%d", f.rex))
	for _, want := range []string{"Field notes", "Gate latch &lt;broken&gt;; owner told.", "officer-7, north", at.UTC().Format("2006-01-02 15:04Z")} {
		if !strings.Contains(body, want) {
			t.Errorf("animal page lacks %q", want)
		}
	}
	if _, body := c.get(fmt.Sprintf("/animals/%d", f.tom)); strings.Contains(body, "Field notes") {
		t.Errorf("an animal with no notes shows the notes section")
	}
}
