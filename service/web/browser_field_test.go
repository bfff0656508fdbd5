package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/service/events"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/offline"
	"github.com/chipdesk/chipdesk/service/web"
)

// fieldServer pulls a handheld's copy of the fixture's store (PIN 4827)
// and serves the field page over it on loopback, as serve --offline
// does; it returns the page's address and the copy.
func fieldServer(t *testing.T, f *fixture) (string, *offline.Replica) {
	t.Helper()
	r, lk := fieldCopy(t, f)
	return serveField(t, f, &web.FieldOpts{Lookup: lk, Copy: r, Officer: "officer-7", Jurisdiction: "minneapolis", Now: f.clock.Now}), r
}

// fieldCopy pulls a handheld's copy of the fixture's store (PIN 4827)
// and returns it with the lookup over it.
func fieldCopy(t *testing.T, f *fixture) (*offline.Replica, *lookup.Service) {
	t.Helper()
	ctx := context.Background()
	r, err := offline.Open(ctx, filepath.Join(t.TempDir(), "handheld.db"), &offline.Opts{Device: "truck-2", User: "officer-7", PIN: "4827", Now: f.clock.Now,
		Location: f.rules.Profile("minneapolis").Location()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if _, err := offline.Sync(ctx, r, &offline.StoreCentral{Store: f.store}, &offline.SyncOpts{NoPush: true}); err != nil {
		t.Fatal(err)
	}
	lk, err := lookup.New(&lookup.Opts{Store: r, Rules: f.rules, Jurisdiction: "minneapolis", Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	return r, lk
}

func serveField(t *testing.T, f *fixture, o *web.FieldOpts) string {
	t.Helper()
	h, err := web.NewField(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// liveFieldServer is fieldServer with the handheld's reader, as serve
// --offline runs it: a simulated WL-134 on a pseudo-terminal, read by a
// hardware.Manager whose Pipeline looks up in the copy, queues the read
// in it and publishes it on the hub the page streams.
func liveFieldServer(t *testing.T, f *fixture, readerName string) (string, *offline.Replica, *readersim.Sim) {
	t.Helper()
	r, lk := fieldCopy(t, f)
	hub := events.New(nil)
	t.Cleanup(hub.Close)
	pipe, err := hardware.NewPipeline(&hardware.PipelineOpts{Lookup: lk, Scans: r, Hub: hub, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := startReaderOn(t, f, pipe, readerName)
	base := serveField(t, f, &web.FieldOpts{Lookup: lk, Copy: r, Hub: hub, Readers: []string{readerName},
		Officer: "officer-7", Jurisdiction: "minneapolis", Now: f.clock.Now})
	return base, r, sim
}

// TestBrowserField_390: on the handheld's page, at a desktop's and a
// phone's width, an officer types a chip and sees the dangerous dog's
// record with the copy's time; a bite dated in the future comes back
// with the error beside the date and what was typed kept; mended, it is
// queued once, and a reload after it sends nothing again. At 390 px
// nothing scrolls sideways.
func TestBrowserField_390(t *testing.T) {
	f := newFixture(t, false)
	base, r := fieldServer(t, f)
	p := newPage(t, f)
	ctx := context.Background()
	queued := func() int {
		n, err := r.Queued(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i, w := range widths {
		bite := fmt.Sprintf(`form[action="/animals/%d/bites"]`, f.rex)
		p.do("open at "+w.name, chromedp.EmulateViewport(w.w, w.h), chromedp.Navigate(base+"/"), chromedp.WaitVisible("#q"))
		p.shot("field-" + w.name + "-empty")
		p.do("type the chip", chromedp.SendKeys("#q", chipRex+"\r"), chromedp.WaitVisible("#danger-banner"))
		if got := p.text("#copy-state"); !strings.Contains(got, "Offline copy as of 2026-06-15") {
			t.Errorf("at %s: copy state %q, want the copy's time", w.name, got)
		}
		if got := p.text(".record"); !strings.Contains(got, "Rex") || !strings.Contains(got, "Jane Doe") || !strings.Contains(got, "612-555-0101") {
			t.Errorf("at %s: record %q, want Rex with his owner's name and phone", w.name, got)
		}
		p.shot("field-" + w.name + "-record")
		if w.w == 390 {
			checkNoOverflow(t, p, "/ (field page)")
		}
		p.do("open the bite form",
			chromedp.Evaluate[chromedp.Void](`document.querySelector('`+bite+`').closest("details").querySelector("summary").click()`),
			chromedp.WaitVisible(bite+` input[name="location"]`))
		p.do("fill the bite with a date to come",
			chromedp.SetValue(bite+` input[name="bite_date"]`, "2026-06-20"),
			chromedp.Click(bite+` input[value="animal"]`),
			chromedp.SendKeys(bite+` input[name="location"]`, "Lake St and 4th Ave"))
		p.do("send the bite", chromedp.Click(bite+` button[type="submit"]`), chromedp.WaitVisible(bite+` .field-error`))
		if got := p.text(bite + ` .field-error`); !strings.Contains(got, "The bite date 2026-06-20 is in the future (today is 2026-06-15)") {
			t.Errorf("at %s: the date's error reads %q", w.name, got)
		}
		described, _ := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`(() => {
  const d = document.querySelector('`+bite+` input[name="bite_date"]');
  const e = document.getElementById(d.getAttribute("aria-describedby"));
  return d.getAttribute("aria-invalid") === "true" && !!e && e.closest("div") === d.closest("div");
})()`))
		if !described {
			t.Errorf("at %s: the error is not beside the date field, nor named by it", w.name)
		}
		kept, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`["bite_date", "location"].map(n => document.querySelector('`+bite+` input[name="' + n + '"]').value).join("|") + "|" + document.querySelector('`+bite+` input[value="animal"]').checked`))
		if kept != "2026-06-20|Lake St and 4th Ave|true" {
			t.Errorf("at %s: the refused form kept %q, want what was typed", w.name, kept)
		}
		p.shot("field-" + w.name + "-bite-refused")
		if n := queued(); n != i {
			t.Fatalf("at %s: %d events queued after the refused bite, want %d", w.name, n, i)
		}
		p.do("mend the date and queue the bite",
			chromedp.SetValue(bite+` input[name="bite_date"]`, "2026-06-14"),
			chromedp.Click(bite+` button[type="submit"]`),
			chromedp.WaitVisible(".flash"))
		if got := p.text(".flash"); !strings.Contains(got, "Bite of 2026-06-14 queued") {
			t.Errorf("at %s: notice %q", w.name, got)
		}
		if got, want := p.text("#queued"), map[bool]string{true: "1 event", false: fmt.Sprint(i+1, " events")}[i == 0]; got != want {
			t.Errorf("at %s: the page shows %s queued, want %d", w.name, got, i+1)
		}
		p.do("reload", chromedp.Reload(), chromedp.WaitVisible("#copy-state"))
		if n := queued(); n != i+1 {
			t.Errorf("at %s: %d queued after the reload, want %d: the reload sent the form again", w.name, n, i+1)
		}
		if flash, _ := chromedp.Run(p.ctx, chromedp.Evaluate[int](`document.querySelectorAll(".flash").length`)); flash != 0 {
			t.Errorf("at %s: the notice shows again after the reload", w.name)
		}
		p.shot("field-" + w.name + "-after-reload")
	}
}

// TestBrowserFieldLiveReads_390: on the handheld's page, open at a
// desktop's and a phone's width, a chip read by the handheld's reader
// (through its Pipeline over the copy) shows in the live panel and in
// the list of reads on this handheld, and is counted queued, without a
// reload: the list follows the page's one scan stream, as the intake
// page's latest scans do. At 390 px nothing scrolls sideways.
func TestBrowserFieldLiveReads_390(t *testing.T) {
	f := newFixture(t, false)
	base, r, sim := liveFieldServer(t, f, "truck-reader")
	p := newPage(t, f)
	ctx := context.Background()
	for i, w := range widths {
		// A chip each time: the reader's debounce keeps a chip read again
		// at once to one read.
		chip := []string{chipRex, chipTom}[i]
		p.do("open at "+w.name, chromedp.EmulateViewport(w.w, w.h), chromedp.Navigate(base+"/"),
			chromedp.WaitVisible(`body[data-stream="open"]`),
			// Marks this load: a reload would lose it.
			chromedp.Evaluate[chromedp.Void](`window.loadedOnce = true`))
		if got := p.text("#field-scans"); strings.Contains(got, chip) {
			t.Fatalf("at %s: %s listed before it was read: %q", w.name, chip, got)
		}
		before, err := r.Queued(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Send(p.ctx, f.chip(chip)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](fmt.Sprintf(`document.getElementById("field-scans").textContent.includes(%q)`, chip))); err != nil {
			p.shot("FAILED-field-" + w.name + "-live-read")
			t.Fatalf("at %s: the read of %s did not reach the list of reads on this handheld: %v", w.name, chip, err)
		}
		if same, _ := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`window.loadedOnce === true`)); !same {
			t.Errorf("at %s: the page was reloaded to show the read", w.name)
		}
		if got := p.text("#scan-panel"); !strings.Contains(got, map[string]string{chipRex: "Rex", chipTom: "Tom"}[chip]) {
			t.Errorf("at %s: live panel %q, want the animal read", w.name, got)
		}
		if n, err := r.Queued(ctx); err != nil || n != before+1 {
			t.Errorf("at %s: %d queued after the read (%v), want %d", w.name, n, err, before+1)
		}
		if got, want := p.text("#queued"), fmt.Sprint(before+1, map[bool]string{true: " event", false: " events"}[before+1 == 1]); got != want {
			t.Errorf("at %s: the page shows %q queued, want %q", w.name, got, want)
		}
		// The list names the reader and links the chip to its lookup.
		if got := p.text("#field-scans tbody tr:first-child"); !strings.Contains(got, "truck-reader") || !strings.Contains(got, chip) {
			t.Errorf("at %s: the newest read reads %q, want %s by truck-reader first", w.name, got, chip)
		}
		p.shot("field-" + w.name + "-live-read")
		if w.w == 390 {
			checkNoOverflow(t, p, "/ (field page, a read shown live)")
		}
	}
}
