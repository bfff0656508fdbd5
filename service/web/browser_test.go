package web_test

// Tests that drive the pages in headless Chromium (Debian's chromium
// package). They skip when no chromium is installed, except under CI.
// Screenshots of every page go to $CHIPDESK_ARTIFACTS (default: a
// temporary directory, logged).

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chipdesk/chipdesk/drivers/printers/zpl"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/firmware-tools/sim/zplsim"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/hardware"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/web"
)

// chromiumPath finds the browser, or skips (fails under CI).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found; CI must install Debian's chromium package")
	}
	t.Skip("chromium not found: install Debian's chromium package to run the browser tests")
	return ""
}

// artifacts is the screenshot directory.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CHIPDESK_ARTIFACTS")
	if dir == "" {
		dir = t.TempDir()
	}
	dir = filepath.Join(dir, "web")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// page is one browser tab on the fixture's server.
type page struct {
	t   *testing.T
	ctx context.Context
	f   *fixture
	dir string
}

// newPage starts a headless Chromium with a fresh profile; the size is a
// landscape tablet's.
func newPage(t *testing.T, f *fixture) *page {
	t.Helper()
	exe := chromiumPath(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1180, 820),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, testtime.Scale(45*time.Second))
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	return &page{t: t, ctx: ctx, f: f, dir: artifacts(t)}
}

// do runs steps; on failure it saves a screenshot and the page's HTML.
func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.shot("FAILED-" + strings.ReplaceAll(what, " ", "-"))
		html, _ := chromedp.Run(p.ctx, chromedp.OuterHTML("html"))
		p.t.Fatalf("%s: %v\npage:\n%s", what, err, html)
	}
}

// a11yCheck lists what a page lacks for screen readers: the lang
// attribute, a label for each form control, a name for each button and
// link, alt text for each image.
const a11yCheck = `(() => {
  const bad = [];
  if (!document.documentElement.lang) bad.push("html without lang");
  for (const e of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    if (!(e.labels && e.labels.length) && !e.getAttribute("aria-label")) bad.push("unlabelled " + e.tagName + " " + (e.id || e.name));
  }
  for (const e of document.querySelectorAll("button, a[href]")) {
    if (!(e.getAttribute("aria-label") || e.textContent.trim())) bad.push("nameless " + e.outerHTML.slice(0, 80));
  }
  for (const e of document.querySelectorAll("img")) {
    if (!e.getAttribute("alt")) bad.push("img without alt " + e.src);
  }
  if (document.querySelectorAll("h1").length !== 1) bad.push("not one h1");
  return bad;
})()`

// shot checks the page for a11yCheck's faults and saves a full-page PNG
// screenshot.
func (p *page) shot(name string) {
	p.t.Helper()
	if !strings.HasPrefix(name, "FAILED") {
		bad, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]string](a11yCheck))
		if err != nil || len(bad) > 0 {
			p.t.Errorf("page %s: accessibility: %v %v", name, bad, err)
		}
	}
	ctx, cancel := context.WithTimeout(p.ctx, testtime.Scale(10*time.Second))
	defer cancel()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(p.dir, name+".png")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Error(err)
	}
}

func (p *page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(sel))
	if err != nil {
		p.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

func (p *page) login(role service.Role) {
	p.t.Helper()
	p.do("login as "+string(role),
		chromedp.Navigate(p.f.srv.URL+"/login"),
		chromedp.WaitVisible("#token"),
		chromedp.SendKeys("#token", p.f.tokens[role]),
		chromedp.Submit("#token"),
		chromedp.WaitVisible("nav"),
	)
}

func (p *page) logout() {
	p.t.Helper()
	p.do("logout", chromedp.Click(".who button"), chromedp.WaitVisible("#token"))
}

// startReader runs a simulated WL-134 reader on a pseudo-terminal,
// configured in a hardware.Manager as at a real desk: the real driver
// reads it through the serial port package, and every read goes through
// the scan pipeline.
func startReader(t *testing.T, f *fixture, name string) (*readersim.Sim, *hardware.Manager) {
	t.Helper()
	return startReaderOn(t, f, f.pipe, name)
}

// startReaderOn is startReader feeding pipe (a handheld's, over its
// offline copy).
func startReaderOn(t *testing.T, f *fixture, pipe *hardware.Pipeline, name string) (*readersim.Sim, *hardware.Manager) {
	t.Helper()
	sim, err := readersim.Start(&readersim.Opts{Protocol: "wl134"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	m, err := hardware.NewManager(&hardware.ManagerOpts{Pipeline: pipe, Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Add("wl134:" + sim.Path() + ",name=" + name); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); m.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	deadline := time.Now().Add(testtime.Scale(10 * time.Second))
	for !m.Status()[0].Connected {
		if time.Now().After(deadline) {
			t.Fatalf("reader %s did not connect: %+v", name, m.Status())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return sim, m
}

// TestBrowserScanToIntake: a chip read on a simulated reader reaches the
// intake page, which shows the record and the dangerous-animal banner;
// the desk then starts an impoundment from the panel.
func TestBrowserScanToIntake(t *testing.T) {
	f := newFixture(t, false)
	p := newPage(t, f)
	sim, mgr := startReader(t, f, "desk-1")
	f.devices = web.DevicesFunc(func(ctx context.Context) []web.Device {
		var out []web.Device
		for _, st := range mgr.Status() {
			out = append(out, web.Device{Kind: "reader", Name: st.Name, Ready: st.Connected, State: fmt.Sprintf("connected, %d reads", st.Reads), At: f.clock.Now()})
		}
		return out
	})

	p.do("login page", chromedp.Navigate(f.srv.URL+"/login"), chromedp.WaitVisible("#token"))
	p.shot("01-login")
	p.login(service.RoleIntake)
	p.do("intake page", chromedp.Navigate(f.srv.URL+"/intake"), chromedp.WaitVisible(`body[data-stream="open"]`))
	p.shot("02-intake-waiting")

	if err := sim.Send(p.ctx, f.chip(chipRex)); err != nil {
		t.Fatal(err)
	}
	p.do("scan panel", chromedp.WaitVisible("#scan-panel #danger-banner"))
	banner := p.text("#danger-banner")
	panel := p.text("#scan-panel")
	for _, want := range []string{"DANGEROUS ANIMAL", "DD-2026-7"} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner %q lacks %q", banner, want)
		}
	}
	for _, want := range []string{"Rex", "Mastiff mix", "White blaze on chest", "Jane Doe", "612-555-0101", "reader desk-1", "Licence", "Rabies"} {
		if !strings.Contains(panel, want) {
			t.Errorf("scan panel lacks %q:\n%s", want, panel)
		}
	}
	live, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById("scan-panel").getAttribute("aria-live")`))
	if live != "assertive" {
		t.Errorf("scan panel aria-live = %q, want assertive", live)
	}
	if ok, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`(() => { const i = document.querySelector("#scan-panel .photo img"); return !!i && i.complete && i.naturalWidth === 120; })()`)); err != nil || !ok {
		t.Errorf("Rex's photo did not load in the scan panel: %v", err)
	}
	p.shot("03-intake-scan-dangerous")
	p.do("portrait tablet", chromedp.EmulateViewport(800, 1280))
	p.shot("03b-intake-scan-dangerous-portrait")
	p.do("landscape tablet", chromedp.EmulateViewport(1180, 820))

	// One action starts the impoundment.
	p.do("impound", chromedp.Click(`#scan-panel button.primary`), chromedp.WaitVisible("#hold-until"))
	hold := p.text("#hold-until")
	open := true
	ims, _, err := f.store.FindImpoundments(context.Background(), service.ImpoundFilter{Open: &open})
	if err != nil || len(ims) != 1 || ims[0].AnimalID != f.rex || ims[0].HoldUntil.String() != hold {
		t.Errorf("impoundments %v (%v), page hold %q, want one of Rex with that hold", ims, err, hold)
	}
	p.shot("04-intake-impounded")

	// A chip nobody registered.
	p.do("back to intake", chromedp.Navigate(f.srv.URL+"/intake"), chromedp.WaitVisible(`body[data-stream="open"]`))
	if err := sim.Send(p.ctx, f.chip(chipStray)); err != nil {
		t.Fatal(err)
	}
	p.do("unknown chip", chromedp.WaitVisible(`#scan-panel [data-scan-id]`))
	if s := p.text("#scan-panel"); !strings.Contains(s, "Not registered here") {
		t.Errorf("unknown chip panel: %q", s)
	}
	p.shot("05-intake-scan-unknown")

	// The officer's pages.
	p.logout()
	p.login(service.RoleOfficer)
	// A keyboard-wedge reader types the chip and Enter into the focused
	// box (autofocus): no mouse.
	p.do("officer lookup", chromedp.Navigate(f.srv.URL+"/officer"), chromedp.WaitVisible("#q"))
	focused, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.activeElement.id`))
	if focused != "q" {
		t.Errorf("focused element on /officer = %q, want the lookup box", focused)
	}
	p.do("wedge scan", chromedp.KeyEvent(chipRex+"\r"), chromedp.WaitVisible("#danger-banner"))
	p.shot("06-officer-lookup")
	p.do("compliance", chromedp.Click(`a[href$="/compliance"]`), chromedp.WaitVisible("table.deadlines"))
	p.shot("07-officer-compliance")
	p.do("search by owner", chromedp.Navigate(f.srv.URL+"/officer?q=oak+street"), chromedp.WaitVisible(".hits"))
	p.shot("08-officer-owner-search")
}

// TestBrowserLicenceToPrinter: a licence issued at the clinic counter,
// its tag previewed and printed: the job reaches the fake ZPL printer
// and the page shows it done. Then the admin page.
func TestBrowserLicenceToPrinter(t *testing.T) {
	f := newFixture(t, false)
	p := newPage(t, f)

	sim, err := zplsim.Listen(&zplsim.Opts{Status: zplsim.ReadyStatus})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	spec, err := jobs.ParseSpec("zpl:" + sim.Addr() + ",name=label-1")
	if err != nil {
		t.Fatal(err)
	}
	dev, err := jobs.Open(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	worker, err := jobs.New([]*jobs.Device{dev}, &jobs.Opts{Orders: f.issuer, Poll: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.devices = web.JobDevices(worker)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); worker.Run(ctx) }()
	go func() {
		for {
			select {
			case <-f.wake:
				worker.Wake()
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done; dev.Close() })

	// The admin approves the year's design first: no tag is made from a
	// design nobody approved.
	p.login(service.RoleAdmin)
	p.do("approve design", chromedp.Click(`form[action="/admin/designs/MPLS/2026/approve"] button`), chromedp.WaitVisible(".flash"))
	if s := p.text(".flash"); !strings.Contains(s, "MPLS/2026 approved") {
		t.Errorf("flash after approval: %q", s)
	}
	p.shot("09-admin-design-approved")
	p.logout()

	p.login(service.RoleClinic)
	p.shot("10-clinic")
	p.do("find the cat", chromedp.SendKeys("#q", chipTom), chromedp.Submit("#q"), chromedp.WaitVisible("#issue"))
	fee := p.text("#fee-total")
	p.do("rabies certificate",
		chromedp.SetValue("#rabies_date", "2026-06-01"),
		chromedp.SendKeys("#rabies_certificate", "RC-2002"),
		chromedp.SendKeys("#rabies_vet", "Dr. Lund"),
	)
	p.shot("11-clinic-licence-form")
	p.do("issue", chromedp.Click("#issue"), chromedp.WaitVisible("#tag-preview"))
	ok, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`(() => { const i = document.getElementById("tag-preview"); return i.complete && i.naturalWidth > 0; })()`))
	if err != nil || !ok {
		t.Errorf("tag preview did not load: %v", err)
	}
	ls, _, _ := f.store.FindLicences(context.Background(), service.LicenceFilter{AnimalID: &f.tom})
	if len(ls) != 1 {
		t.Fatalf("licences of Tom = %d, want 1", len(ls))
	}
	l := ls[0]
	if got := fmt.Sprintf("$%d.%02d", l.FeeCents/100, l.FeeCents%100); got != fee {
		t.Errorf("licence fee %s, the form quoted %s", got, fee)
	}
	p.shot("12-clinic-licence-issued")

	p.do("print", chromedp.Click("#print"), chromedp.WaitVisible(`[data-job-state="done"]`))
	jobs := sim.Jobs()
	if len(jobs) != 1 {
		t.Fatalf("fake printer got %d labels, want 1", len(jobs))
	}
	if num := fmt.Sprintf("%06d", l.TagNumber); !bytes.Contains(jobs[0].Data, []byte(num)) {
		t.Errorf("label lacks the register number %s: %.120q", num, jobs[0].Data)
	}
	p.shot("13-clinic-tag-printed")

	p.do("duplicate", chromedp.Click("#why-lost"), chromedp.Click("#duplicate"), chromedp.WaitVisible("#replaces"))
	p.shot("14-clinic-duplicate")

	p.logout()
	p.login(service.RoleAdmin)
	p.do("admin", chromedp.WaitVisible("#devices"))
	if s := p.text("#devices"); !strings.Contains(s, "label-1") || !strings.Contains(s, "ready") {
		t.Errorf("devices table %q lacks the ready printer label-1", s)
	}
	// The printer runs out of paper: the admin page shows it within its
	// refresh.
	sim.SetStatus(func(st *zpl.HostStatus) { st.PaperOut = true })
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](`document.getElementById("devices").textContent.toLowerCase().includes("paper")`)); err != nil {
		t.Errorf("the admin page did not show the printer out of paper: %v\n%s", err, p.text("#devices"))
	}
	p.shot("16-admin-printer-fault")
	p.shot("15-admin")
}
