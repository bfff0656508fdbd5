package bench

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
	"github.com/chipdesk/chipdesk/reader/chipid"
)

// ErrNoChromium is ScanToPixels' answer when no Chromium is installed:
// the figure is skipped, not failed.
var ErrNoChromium = errors.New("no Chromium found (chromium, chromium-browser or google-chrome on PATH)")

// FindChromium returns the path of a Chromium (Debian's chromium
// package, or Google Chrome), or ErrNoChromium.
func FindChromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// PixelOpts describe a scan-to-pixels measurement.
type PixelOpts struct {
	// URL is the service's base URL; Token a staff token of a role that
	// opens the intake page (intake or admin).
	URL, Token string
	// Reader is the reader's name in the service.
	Reader string
	// Sim is the simulated reader the service reads.
	Sim *readersim.Sim
	// Chips are sent in turn (distinct chips, so no debounce applies).
	Chips []string
	// Scans is the number measured; 0 means 200.
	Scans int
	// Chromium is the browser's path; empty means FindChromium.
	Chromium string
}

// paintWatch, run once on the intake page, resolves window.__p with
// the wall-clock time (ms since the epoch) at which a node holding
// window.__want's chip digits, added to the page, has been painted:
// the first animation frame after the change has run its rendering
// steps, and a task queued from it runs after them.
const paintWatch = `(() => {
  const digits = s => s.replace(/\s+/g, "");
  window.__arm = (code) => { window.__want = code; window.__p = new Promise(r => { window.__resolve = r; }); };
  new MutationObserver(recs => {
    const want = window.__want;
    if (!want) return;
    for (const r of recs) for (const n of r.addedNodes) {
      if (n.textContent && digits(n.textContent).includes(want)) {
        window.__want = "";
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => window.__resolve(performance.timeOrigin + performance.now());
          ch.port2.postMessage(0);
        });
        return;
      }
    }
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
  return true;
})()`

// ScanToPixels signs in to the service's pages in headless Chromium,
// opens the intake page of reader o.Reader, and measures for each chip
// sent on the simulated reader the time from the last byte of its frame
// written on the pseudo-terminal to the record being painted on the page
// (the live panel's HTML arriving by the page's event stream, inserted,
// laid out and painted). A record of another chip is never counted: the
// page is watched for the chip sent.
func ScanToPixels(ctx context.Context, o *PixelOpts) (Quantiles, error) {
	if o == nil || o.Sim == nil || len(o.Chips) == 0 {
		return Quantiles{}, errors.New("bench: scans need a simulated reader and chips")
	}
	exe := o.Chromium
	if exe == "" {
		var err error
		if exe, err = FindChromium(); err != nil {
			return Quantiles{}, err
		}
	}
	n, ids, err := scanChips(o.Chips, o.Scans)
	if err != nil {
		return Quantiles{}, err
	}
	actx, cancelA := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 800))
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	// Start the browser on bctx itself: a browser started by a step's
	// own timeout context would close with it.
	if err := chromedp.Do(bctx); err != nil {
		return Quantiles{}, fmt.Errorf("bench: browser: %w", err)
	}
	step := func(what string, timeout time.Duration, steps ...chromedp.Action[chromedp.Void]) error {
		c, cancel := context.WithTimeout(bctx, timeout)
		defer cancel()
		if err := chromedp.Do(c, steps...); err != nil {
			return fmt.Errorf("bench: browser: %s: %w", what, err)
		}
		return nil
	}
	if err := step("sign in", 30*time.Second,
		chromedp.Navigate(o.URL+"/login"), chromedp.WaitVisible("#token"),
		chromedp.SendKeys("#token", o.Token), chromedp.Submit("#token"), chromedp.WaitVisible("nav")); err != nil {
		return Quantiles{}, err
	}
	if err := step("intake page", 30*time.Second,
		chromedp.Navigate(o.URL+"/intake?reader="+o.Reader), chromedp.WaitVisible(`body[data-stream="open"]`),
		// No field has the focus: a scan then shows at once.
		chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`)); err != nil {
		return Quantiles{}, err
	}
	if ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](paintWatch)); err != nil || !ok {
		return Quantiles{}, fmt.Errorf("bench: browser: paint watch: %v", err)
	}
	// One scan: arm the watch, send the frame, wait for the paint.
	scan := func(id chipid.ID, wait time.Duration) (time.Duration, error) {
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`window.__arm(`+jsString(id.Code)+`), true`)); err != nil {
			return 0, fmt.Errorf("bench: browser: %w", err)
		}
		if err := o.Sim.Send(ctx, id); err != nil {
			return 0, fmt.Errorf("bench: %w", err)
		}
		sent := time.Now()
		c, cancel := context.WithTimeout(bctx, wait)
		defer cancel()
		at, err := chromedp.Run(c, chromedp.Evaluate[float64](`window.__p`, chromedp.EvalAwaitPromise))
		if err != nil {
			return 0, err
		}
		painted := time.UnixMicro(int64(at * 1000))
		return painted.Sub(sent), nil
	}
	// The service opens the reader's port when it starts: the first chip
	// until it is painted, so that the measured scans find it connected.
	for try := 0; ; try++ {
		if _, err := scan(ids[0], 500*time.Millisecond); err == nil {
			break
		} else if ctx.Err() != nil || try >= 20 {
			return Quantiles{}, fmt.Errorf("bench: no scan painted on the intake page in 10 s: %w", err)
		}
	}
	lat := make([]time.Duration, 0, n)
	for i := range n {
		id := ids[(1+i)%len(ids)]
		d, err := scan(id, 5*time.Second)
		if err != nil {
			return Quantiles{}, fmt.Errorf("bench: scan %d of %s: not painted within 5 s: %w", i, id.Code, err)
		}
		lat = append(lat, d)
	}
	return quantiles(lat), nil
}

// jsString quotes digits for a script (chip codes are digits only; any
// other character is dropped).
func jsString(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' {
			b = append(b, c)
		}
	}
	return string(append(b, '"'))
}
