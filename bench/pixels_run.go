package bench

import (
	"context"
	"errors"
	"fmt"

	"github.com/chipdesk/chipdesk/firmware-tools/sim/readersim"
)

// targetPixelsP99 is the scan-to-pixels target, in ms: from the last
// byte of a WL-134 frame on the reader's pseudo-terminal to the record
// painted on the intake page in headless Chromium.
const targetPixelsP99 = 50

// pixelFigure measures scan to pixels beside scan to event (same
// service, same reader) and adds its figure; without Chromium the figure
// is skipped and says so.
func pixelFigure(ctx context.Context, r *Report, o *Opts, url, token string, sim *readersim.Sim, chips []string,
	step func(string, ...any)) error {
	name := "scan to pixels p99"
	exe, err := FindChromium()
	if err != nil {
		step("scan to pixels: skipped, %v", err)
		r.add(Figure{Name: name, Unit: "ms", Target: targetPixelsP99, Better: Lower, Skipped: err.Error()})
		return nil
	}
	step("scan to pixels: the intake page in headless Chromium")
	q, err := ScanToPixels(ctx, &PixelOpts{URL: url, Token: token, Reader: readerName, Sim: sim, Chips: chips, Scans: o.Scans, Chromium: exe})
	if errors.Is(err, ErrNoChromium) {
		r.add(Figure{Name: name, Unit: "ms", Target: targetPixelsP99, Better: Lower, Skipped: err.Error()})
		return nil
	}
	if err != nil {
		return err
	}
	r.add(Figure{Name: name, Value: msf(q.P99), Unit: "ms", Target: targetPixelsP99, Better: Lower,
		Note: fmt.Sprintf("p50 %s, max %s, %d scans, WL-134 frame on a pty to the record painted on /intake", ms(q.P50), ms(q.Max), q.N)})
	return nil
}
