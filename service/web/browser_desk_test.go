package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/chipdesk/chipdesk/service"
)

// tabTo presses Tab until the element with id has the focus, as a person
// without a mouse does; it fails after 80 presses.
func (p *page) tabTo(id string) {
	p.t.Helper()
	for range 80 {
		got, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ""`))
		if err != nil {
			p.t.Fatal(err)
		}
		if got == id {
			return
		}
		p.do("tab", chromedp.KeyEvent("\t"))
	}
	p.shot("FAILED-tab-to-" + id)
	p.t.Fatalf("Tab never reached #%s", id)
}

// count evaluates a JavaScript number.
func (p *page) eval(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// wide is how far the page's content (main: the header is the shared
// layout's) reaches past the viewport's right edge, and what reaches
// furthest; "0" when nothing makes it scroll sideways.
const wide = `(() => {
  let far = 0, what = "";
  for (const e of document.querySelectorAll("main *")) {
    const r = e.getBoundingClientRect().right;
    if (r > far) { far = r; what = e.tagName + "." + e.className + "#" + e.id; }
  }
  const over = Math.ceil(far - document.documentElement.clientWidth);
  return over > 0 ? over + " px (" + what + ")" : "0";
})()`

// both saves the page at desktop (1280 px) and phone (390 px) width and
// checks that the phone width needs no sideways scrolling.
func (p *page) both(name string) {
	p.t.Helper()
	p.do("desktop", chromedp.EmulateViewport(1280, 900))
	p.shot(name + "-1280")
	p.do("phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	if w := p.eval(wide); w != "0" {
		p.t.Errorf("page %s at 390 px scrolls sideways by %s", name, w)
	}
	p.shot(name + "-390")
	p.do("desktop again", chromedp.EmulateViewport(1280, 900))
}

func (f *fixture) openStays(t *testing.T) []*service.Impoundment {
	t.Helper()
	open := true
	ims, _, err := f.store.FindImpoundments(context.Background(), service.ImpoundFilter{Open: &open})
	if err != nil {
		t.Fatal(err)
	}
	return ims
}

// TestBrowserIntakeLoop: the stray at intake, by keyboard only: an
// unknown chip scanned, registered to a new animal with its finder's
// note and taken in; reloads after every form create nothing; the
// notice, a future date refused beside its field; the redemption; the
// In custody, Today, owner, search and change pages at both widths.
func TestBrowserIntakeLoop(t *testing.T) {
	f := newFixture(t, false)
	p := newPage(t, f)
	sim, _ := startReader(t, f, "desk-1")
	p.login(service.RoleIntake)
	p.do("intake", chromedp.Navigate(f.srv.URL+"/intake"), chromedp.WaitVisible(`body[data-stream="open"]`))
	if err := sim.Send(p.ctx, f.chip(chipStray)); err != nil {
		t.Fatal(err)
	}
	p.do("unknown chip", chromedp.WaitVisible("#register-chip"))
	p.both("10-intake-unknown-chip")

	// Keyboard only from here to the stay.
	p.tabTo("register-chip")
	p.do("open the form", chromedp.KeyEvent("\r"), chromedp.WaitVisible("#animal-form"))
	if v := p.eval(`document.getElementById("f-chip").value`); v != chipStray {
		t.Errorf("chip field = %q, want the scanned chip", v)
	}
	p.tabTo("f-name")
	p.do("name", chromedp.KeyEvent("Biscuit"))
	p.tabTo("f-colour")
	p.do("colour", chromedp.KeyEvent("tan"))
	p.tabTo("f-owner_name")
	p.do("owner", chromedp.KeyEvent("Luis Ortega"))
	p.tabTo("f-owner_phone")
	p.do("phone", chromedp.KeyEvent("612-555-0164"))
	p.tabTo("f-where_found")
	p.do("where", chromedp.KeyEvent("Lake Street"))
	p.both("11-register-form")
	p.tabTo("f-where_found")
	p.do("submit", chromedp.KeyEvent("\r"), chromedp.WaitVisible("#stay"))
	if s := p.text("main"); !strings.Contains(s, "Biscuit registered. Taken into custody.") || !strings.Contains(s, "Luis Ortega") {
		t.Errorf("stay page after registering: %q", s)
	}
	stays := f.openStays(t)
	if len(stays) != 1 {
		t.Fatalf("stays after registering = %d", len(stays))
	}
	p.both("12-stay-taken-in")
	// A reload shows the stay, without the notice and without a second one.
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible("#stay"))
	if s := p.text("main"); strings.Contains(s, "Taken into custody.") {
		t.Errorf("the notice shows again after a reload")
	}
	if n := len(f.openStays(t)); n != 1 {
		t.Errorf("stays after a reload = %d", n)
	}

	// A notice dated in the future: refused beside the field, typed value kept.
	p.do("future notice", chromedp.SetValue("#notice_on", "2026-07-01"))
	p.tabTo("notice_on")
	p.do("send notice", chromedp.KeyEvent("\r"), chromedp.WaitVisible("#notice_on-err"))
	if v := p.eval(`document.getElementById("notice_on").value`); v != "2026-07-01" {
		t.Errorf("notice field after the refusal = %q, want what was typed", v)
	}
	p.both("13-stay-notice-refused")
	p.do("notice today", chromedp.SetValue("#notice_on", "2026-06-15"))
	p.tabTo("notice_on")
	p.do("send notice", chromedp.KeyEvent("\r"), chromedp.WaitVisible(".flash"))
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible("#stay"))

	// The custody list and Today.
	p.do("in custody", chromedp.Navigate(f.srv.URL+"/custody"), chromedp.WaitVisible("#custody-list"))
	if s := p.text("#custody-list"); !strings.Contains(s, "Biscuit") {
		t.Errorf("In custody lacks Biscuit: %q", s)
	}
	p.both("14-in-custody")

	// The owner redeems: keyboard to the button.
	p.do("stay", chromedp.Navigate(fmt.Sprintf("%s/custody/%d", f.srv.URL, stays[0].ID)), chromedp.WaitVisible("#redeem-form"))
	p.tabTo("redeem_note")
	p.do("note", chromedp.KeyEvent("Owner showed ID"))
	p.do("redeem", chromedp.KeyEvent("\r"), chromedp.WaitVisible("#ended"))
	p.do("reload", chromedp.Reload(), chromedp.WaitVisible("#ended"))
	ims, _, _ := f.store.FindImpoundments(context.Background(), service.ImpoundFilter{})
	if len(ims) != 1 || ims[0].Disposition != service.Redeemed {
		t.Errorf("impoundments after redemption and reload: %+v", ims)
	}
	p.both("15-stay-redeemed")
	p.do("today", chromedp.Navigate(f.srv.URL+"/today"), chromedp.WaitVisible("#today"))
	p.both("16-today")
	p.do("owner", chromedp.Navigate(f.srv.URL+"/search?q=Ortega%2C+Luis"), chromedp.WaitVisible("#search-hits"))
	p.both("17-search-name")
	p.do("phone", chromedp.Navigate(f.srv.URL+"/search?q=%28612%29+555-0164"), chromedp.WaitVisible("#search-hits"))
	p.do("owner page", chromedp.Click(`#search-hits a[href^="/owners/"]`), chromedp.WaitVisible("#owner-form"))
	p.both("18-owner")
	p.do("edit", chromedp.Navigate(fmt.Sprintf("%s/animals/%d/edit", f.srv.URL, stays[0].AnimalID)), chromedp.WaitVisible("#animal-form"))
	p.both("19-animal-edit")
}

// TestBrowserLivePanelKept: a scan that arrives while the desk types in
// the live panel's impound form waits in a notice; what was typed stays;
// Alt+N shows the new scan. The Today page counts the scan live.
func TestBrowserLivePanelKept(t *testing.T) {
	f := newFixture(t, false)
	p := newPage(t, f)
	sim, _ := startReader(t, f, "desk-1")
	p.login(service.RoleIntake)
	p.do("intake", chromedp.Navigate(f.srv.URL+"/intake"), chromedp.WaitVisible(`body[data-stream="open"]`))
	if err := sim.Send(p.ctx, f.chip(chipTom)); err != nil {
		t.Fatal(err)
	}
	where := fmt.Sprintf("#where-%d", f.tom)
	p.do("Tom's panel", chromedp.WaitVisible(where))
	tomScan := p.eval(`document.querySelector("#scan-panel [data-scan-id]").getAttribute("data-scan-id")`)
	p.do("type", chromedp.Focus(where), chromedp.KeyEvent("Loring Pa"))
	if err := sim.Send(p.ctx, f.chip(chipRex)); err != nil {
		t.Fatal(err)
	}
	p.do("notice", chromedp.WaitVisible("#scan-notice"))
	if got := p.eval(`document.querySelector("#scan-panel [data-scan-id]").getAttribute("data-scan-id")`); got != tomScan {
		t.Errorf("the panel was replaced while typing (scan %s, was %s)", got, tomScan)
	}
	if v := p.eval(fmt.Sprintf(`document.querySelector(%q).value`, where)); v != "Loring Pa" {
		t.Errorf("typed text = %q, want kept", v)
	}
	if s := p.text("#scan-notice"); !strings.Contains(s, "Rex") || !strings.Contains(s, "WARNING") {
		t.Errorf("notice %q does not name the new scan and its warning", s)
	}
	p.both("20-intake-new-scan-waiting")
	// Leaving the field does not replace it either: the text is typed.
	p.do("blur", chromedp.Blur(where))
	p.do("focus back", chromedp.Focus(where), chromedp.KeyEvent("rk"))
	p.do("show", chromedp.KeyEvent("n", chromedp.KeyModifiers(chromedp.ModifierAlt)), chromedp.WaitVisible("#scan-panel #danger-banner"))
	if v := p.eval(`document.getElementById("scan-notice").hidden ? "hidden" : "shown"`); v != "hidden" {
		t.Errorf("notice after Alt+N is %s", v)
	}
	// The latest scans follow the stream too (the page was loaded before any).
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`document.getElementById("recent-scans").textContent.includes("Rex")`)); err != nil {
		t.Errorf("Latest scans did not update: %v", err)
	}
	// Today follows the stream.
	p.do("today", chromedp.Navigate(f.srv.URL+"/today"), chromedp.WaitVisible(`body[data-stream="open"]`))
	before := p.text("#n-scans")
	if err := sim.Send(p.ctx, f.chip(chipStray)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](fmt.Sprintf(`document.getElementById("n-scans").textContent !== %q`, before))); err != nil {
		t.Errorf("Today did not update after a scan: %v", err)
	}
}
