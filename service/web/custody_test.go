package web_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// postRaw posts form with the session's CSRF token and returns the
// status and the Location, without following it.
func (c *client) postRaw(path string, form url.Values) (int, string) {
	c.t.Helper()
	form.Set("csrf", c.csrf)
	st, loc, _ := c.do("POST", path, form)
	return st, loc
}

// TestIntakeLoop_62_40 walks a stray through the desk without a browser:
// its unknown chip registered to a new animal and taken in at once, a
// re-sent form creating nothing, a wrong date shown again with what was
// typed, the notice, an adoption refused during the hold (62.50), the
// redemption with its fee lines, the In custody and Today pages. Every
// POST answers 303.
func TestIntakeLoop_62_40(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	c := f.client()
	c.login(service.RoleIntake)

	st, body := c.get("/animals/new?chip=" + chipStray)
	if st != http.StatusOK || !strings.Contains(body, `value="`+chipStray+`"`) {
		t.Fatalf("register form = %d, want the chip filled in", st)
	}
	form := url.Values{"chip": {chipStray}, "name": {"Biscuit"}, "species": {"dog"}, "colour": {"tan"},
		"owner_name": {"Luis Ortega"}, "owner_phone": {"612-555-0164"}, "impound": {"on"}, "where_found": {"Lake St"}, "jurisdiction": {"minneapolis"}}
	// A wrong date: the form again, with what was typed and the error beside the field.
	bad := url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("birth_date", "31/02/2024")
	if st, loc := c.postRaw("/animals", bad); st != http.StatusSeeOther || loc != "/animals/new" {
		t.Fatalf("register with a wrong date = %d %q, want 303 back to the form", st, loc)
	}
	_, body = c.get("/animals/new")
	for _, w := range []string{`value="31/02/2024"`, `id="f-birth_date-err"`, "must be a date", `value="Biscuit"`, `value="Luis Ortega"`} {
		if !strings.Contains(body, w) {
			t.Errorf("form shown again lacks %q", w)
		}
	}
	if as, _, _ := f.store.FindAnimals(ctx, service.AnimalFilter{}); len(as) != 2 {
		t.Errorf("animals after the refused form = %d, want the 2 seeded", len(as))
	}
	st, loc := c.postRaw("/animals", form)
	if st != http.StatusSeeOther || !regexp.MustCompile(`^/custody/\d+$`).MatchString(loc) {
		t.Fatalf("register = %d %q, want 303 to the stay", st, loc)
	}
	_, body = c.get(loc)
	for _, w := range []string{"Biscuit registered. Taken into custody.", "Luis Ortega", `id="hold-until"`, "Notice to the owner not yet given", "Board"} {
		if !strings.Contains(body, w) {
			t.Errorf("stay page lacks %q", w)
		}
	}
	// The form sent again (a reload of the POST) creates nothing: the
	// chip is registered now, said beside the chip field.
	if st, back := c.postRaw("/animals", form); st != http.StatusSeeOther || back != "/animals/new" {
		t.Errorf("the same form again = %d %q, want 303 back", st, back)
	}
	if _, body := c.get("/animals/new"); !strings.Contains(body, "registered already") || !strings.Contains(body, `id="f-chip-err"`) {
		t.Errorf("the form again does not say the chip is registered, beside the field")
	}
	open := true
	ims, _, _ := f.store.FindImpoundments(ctx, service.ImpoundFilter{Open: &open})
	owners, _, _ := f.store.FindOwners(ctx, service.OwnerFilter{})
	if len(ims) != 1 || len(owners) != 2 {
		t.Fatalf("after a re-sent form: %d stays, %d owners; want 1 and 2", len(ims), len(owners))
	}
	stay := loc

	// Adoption during the hold is refused (62.50), shown on the page.
	if st, back := c.postRaw(stay+"/release", url.Values{"disposition": {"adopted"}}); st != http.StatusSeeOther || back != stay {
		t.Errorf("adopt during the hold = %d %q", st, back)
	}
	if _, body := c.get(stay); !strings.Contains(body, "cannot be adopted before then") {
		t.Errorf("the refusal of an adoption in the hold is not shown")
	}
	// The notice, with a date in the future refused beside its field.
	if st, _ := c.postRaw(stay+"/notice", url.Values{"notice_on": {"2026-07-01"}}); st != http.StatusSeeOther {
		t.Errorf("notice in the future = %d", st)
	}
	if _, body := c.get(stay); !strings.Contains(body, `id="notice_on-err"`) || !strings.Contains(body, `value="2026-07-01"`) {
		t.Errorf("a notice in the future is not shown again with its error")
	}
	if st, _ := c.postRaw(stay+"/notice", url.Values{"notice_on": {"2026-06-15"}}); st != http.StatusSeeOther {
		t.Errorf("notice = %d", st)
	}
	if _, body := c.get(stay); !strings.Contains(body, "Notice of impounding recorded") || !strings.Contains(body, `<dd id="notice-on">2026-06-15`) {
		t.Errorf("the notice is not recorded on the page")
	}
	// In custody lists it with the hold and days held.
	_, body = c.get("/custody")
	if !strings.Contains(body, "Biscuit") || !strings.Contains(body, "1 in custody") {
		t.Errorf("In custody does not list Biscuit")
	}
	// Two days later the owner redeems: board for three days.
	f.clock.Add(48 * time.Hour)
	c.login(service.RoleIntake) // the session has ended while idle
	_, body = c.get(stay)
	if !strings.Contains(body, `<dd id="days-held">3</dd>`) {
		t.Errorf("days held after two days is not 3")
	}
	if st, _ := c.postRaw(stay+"/release", url.Values{"disposition": {"redeemed"}}); st != http.StatusSeeOther {
		t.Fatalf("redeem = %d", st)
	}
	_, body = c.get(stay)
	for _, w := range []string{"redeemed by the owner", "Fees paid at release", "Board"} {
		if !strings.Contains(body, w) {
			t.Errorf("redeemed stay lacks %q", w)
		}
	}
	// Redeeming again changes nothing.
	c.postRaw(stay+"/release", url.Values{"disposition": {"redeemed"}})
	if _, body := c.get(stay); !strings.Contains(body, "has ended already") {
		t.Errorf("a second redemption is not refused on the page")
	}
	if _, body := c.get("/custody"); !strings.Contains(body, "No animals are in custody") {
		t.Errorf("In custody still lists the redeemed animal")
	}
	_, body = c.get("/today")
	for _, w := range []string{"Released and ended", "Biscuit"} {
		if !strings.Contains(body, w) {
			t.Errorf("Today lacks %q", w)
		}
	}
}

// TestMinneapolis_62_50_AdoptAfterHold: once the hold is over the stay
// page offers adoption, and records it.
func TestMinneapolis_62_50_AdoptAfterHold(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	st, stay := c.postRaw("/animals", url.Values{"chip": {chipStray}, "species": {"cat"}, "impound": {"on"}, "jurisdiction": {"minneapolis"}})
	if st != http.StatusSeeOther || !strings.HasPrefix(stay, "/custody/") {
		t.Fatalf("register a stray = %d %q", st, stay)
	}
	if _, body := c.get(stay); strings.Contains(body, `value="adopted"`) {
		t.Errorf("adoption offered during the hold")
	}
	f.clock.Add(10 * 24 * time.Hour)
	c.login(service.RoleIntake)
	if _, body := c.get(stay); !strings.Contains(body, `value="adopted"`) || !strings.Contains(body, "May be adopted out") {
		t.Fatalf("adoption not offered after the hold")
	}
	if st, _ := c.postRaw(stay+"/release", url.Values{"disposition": {"adopted"}, "note": {"to the Nguyen family"}}); st != http.StatusSeeOther {
		t.Fatalf("adopt = %d", st)
	}
	if _, body := c.get(stay); !strings.Contains(body, "Adopted out") || !strings.Contains(body, "to the Nguyen family") {
		t.Errorf("the adoption is not shown")
	}
	evs, _, err := f.store.FindAuditEvents(context.Background(), service.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range evs {
		seen[e.Action]++
	}
	for _, a := range []string{"animal.create", "chip.add", "impoundment.create", "impoundment.update"} {
		if seen[a] != 1 {
			t.Errorf("audit %s: %d events, want 1 (%v)", a, seen[a], seen)
		}
	}
}

// TestOwnersAndAnimals adds an owner, changes them, adds an animal of
// theirs and changes it, with a refused change shown again.
func TestOwnersAndAnimals(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	st, loc := c.postRaw("/owners", url.Values{"name": {"Ana Díaz"}, "phone": {"952-555-0101"}})
	if st != http.StatusSeeOther || !strings.HasPrefix(loc, "/owners/") {
		t.Fatalf("add owner = %d %q", st, loc)
	}
	if st, back := c.postRaw(loc, url.Values{"name": {""}, "phone": {"952"}}); st != http.StatusSeeOther || back != loc {
		t.Errorf("owner without a name = %d %q", st, back)
	}
	if _, body := c.get(loc); !strings.Contains(body, "Owner name required") || !strings.Contains(body, `value="952"`) || !strings.Contains(body, `id="f-name-err"`) {
		t.Errorf("refused owner change not shown again beside the name")
	}
	c.postRaw(loc, url.Values{"name": {"Ana Díaz-Ortega"}, "phone": {"952-555-0101"}})
	if _, body := c.get("/search?q=" + url.QueryEscape("Díaz-Ortega")); strings.Contains(body, "Nothing matches") {
		t.Errorf("the changed name is not found")
	}
	oid := strings.TrimPrefix(loc, "/owners/")
	st, aloc := c.postRaw("/animals", url.Values{"owner_id": {oid}, "name": {"Mochi"}, "species": {"cat"}})
	if st != http.StatusSeeOther || !strings.HasPrefix(aloc, "/animals/") {
		t.Fatalf("add animal = %d %q", st, aloc)
	}
	if st, _ := c.postRaw(aloc, url.Values{"name": {"Mochi"}, "species": {"cat"}, "description": {"white socks"}, "chip": {"985120000123456"}}); st != http.StatusSeeOther {
		t.Errorf("change animal = %d", st)
	}
	_, body := c.get(aloc)
	for _, w := range []string{"Mochi changed.", "white socks", "985 120000123456", "Ana Díaz-Ortega"} {
		if !strings.Contains(body, w) {
			t.Errorf("animal page lacks %q", w)
		}
	}
}

// TestPhotoUpload: a photograph sent with the change form is kept under
// an id the server issues; a file that is no image is refused beside the
// photo field and nothing is kept.
func TestPhotoUpload(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	send := func(name string, data []byte) (int, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		for k, v := range map[string]string{"csrf": c.csrf, "name": "Tom", "species": "cat"} {
			mw.WriteField(k, v)
		}
		fw, _ := mw.CreateFormFile("photo", name)
		fw.Write(data)
		mw.Close()
		req, _ := http.NewRequest("POST", f.srv.URL+"/animals/"+itoa(f.tom), &b)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Origin", f.srv.URL)
		req.AddCookie(c.cookie)
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Location")
	}
	if st, loc := send("notes.html", []byte("<script>alert(1)</script>")); st != http.StatusSeeOther || !strings.HasSuffix(loc, "/edit") {
		t.Errorf("upload of a script = %d %q, want 303 back to the form", st, loc)
	}
	if _, body := c.get("/animals/" + itoa(f.tom) + "/edit"); !strings.Contains(body, `id="f-photo-err"`) {
		t.Errorf("the refused photo is not said beside its field")
	}
	if ents, _ := os.ReadDir(f.photoDir); len(ents) != 0 {
		t.Errorf("a refused file was kept: %v", ents)
	}
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	var png1 bytes.Buffer
	png.Encode(&png1, img)
	if st, loc := send("tom.png", png1.Bytes()); st != http.StatusSeeOther || loc != "/animals/"+itoa(f.tom) {
		t.Fatalf("upload = %d %q", st, loc)
	}
	a, err := f.store.FindAnimalByID(context.Background(), f.tom)
	if err != nil || !service.ValidPhotoID(a.Photo) || !strings.HasSuffix(a.Photo, ".png") {
		t.Fatalf("photo id %q (%v), want a server-issued .png id", a.Photo, err)
	}
	if _, err := os.Stat(filepath.Join(f.photoDir, a.Photo)); err != nil {
		t.Errorf("the photo is not in the photos folder: %v", err)
	}
}
