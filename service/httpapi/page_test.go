package httpapi_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chipdesk/chipdesk/service"
)

// chromium finds Debian's chromium, or skips (fails under CI).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found; CI must install Debian's chromium package")
	}
	t.Skip("chromium not found: install Debian's chromium package to run the browser test")
	return ""
}

// TestLivePageInBrowser signs a headless Chromium in through /login,
// posts a scan on the watched reader, and waits for its card: the
// EventSource authenticates with the cookie and renders the answer.
func TestLivePageInBrowser(t *testing.T) {
	exe := chromium(t)
	h := newHarness(t)
	s := h.seed()
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()))
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()

	if err := chromedp.Do(ctx,
		chromedp.Navigate(h.srv.URL+"/login?token="+h.tokens[service.RoleIntake]+"&reader=desk-7"),
		chromedp.WaitVisible("#lookup"),
	); err != nil {
		t.Fatalf("sign in: %v", err)
	}
	// Wait for the stream to be open before scanning.
	deadline := time.Now().Add(10 * time.Second)
	for h.hub.Subscribers() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the page never opened the scan stream")
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.mustJSON(service.RoleOfficer, "POST", "/api/v1/scans", map[string]string{"reader": "desk-9", "chip": s.chip}, http.StatusCreated, nil)
	h.mustJSON(service.RoleOfficer, "POST", "/api/v1/scans", map[string]string{"reader": "desk-7", "chip": s.chip}, http.StatusCreated, nil)
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#scans .card")); err != nil {
		t.Fatalf("no scan card: %v", err)
	}
	text, err := chromedp.Run(ctx, chromedp.Text("#scans"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"desk-7", "Biscuit", "Ada Lindqvist", "HomeAgain"} {
		if !strings.Contains(text, want) {
			t.Errorf("scan card %q lacks %q", text, want)
		}
	}
	if dir := os.Getenv("CHIPDESK_ARTIFACTS"); dir != "" {
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			_ = os.WriteFile(dir+"/httpapi-live-page.png", png, 0o644)
		}
	}
	if strings.Contains(text, "desk-9") {
		t.Errorf("page for desk-7 shows desk-9's scan: %q", text)
	}
}
