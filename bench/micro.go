package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/reader/demod"
	"github.com/chipdesk/chipdesk/reader/demod/synth"
	"github.com/chipdesk/chipdesk/reader/iso11785"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/tags"
	"github.com/chipdesk/chipdesk/tags/check"
)

// perOp runs f until at least d has passed (and at least once) and
// returns the mean time of one call.
func perOp(ctx context.Context, d time.Duration, f func() error) (time.Duration, error) {
	if err := f(); err != nil { // warm up
		return 0, err
	}
	n, start := 0, time.Now()
	for batch := 1; ; batch = min(batch*2, 1<<16) {
		for range batch {
			if err := f(); err != nil {
				return 0, err
			}
		}
		n += batch
		if el := time.Since(start); el >= d || ctx.Err() != nil {
			return el / time.Duration(n), ctx.Err()
		}
	}
}

// Demod measures FDX-B demodulation of a synthesised noisy capture
// (ISO 11785 FDX-B, noise 0.3 of the amplitude) fed in 4096-sample
// chunks, in samples per second. It fails when the capture does not
// decode to the chip it carries.
func Demod(ctx context.Context, chip string, d time.Duration) (float64, error) {
	id, err := chipid.Parse(chip, nil)
	if err != nil || id.Kind != chipid.KindISO {
		return 0, fmt.Errorf("bench: demodulation needs an ISO chip, not %q", chip)
	}
	code := id.ISO.WithAnimal(true)
	s := synth.FDXB(iso11785.EncodeFDXB(code, 0), &synth.Opts{Noise: 0.3, Repeats: 64, Seed: 5})
	dec := demod.NewFDXB(nil)
	found := 0
	for _, r := range append(dec.Write(s), dec.Flush()...) {
		if r.Telegram.Code != code {
			return 0, fmt.Errorf("bench: demodulated %v, want %v", r.Telegram.Code, code)
		}
		found++
	}
	if found == 0 {
		return 0, fmt.Errorf("bench: no telegram demodulated from the synthesised capture of %v", code)
	}
	dec.Reset()
	const chunk = 4096
	off := 0
	per, err := perOp(ctx, d, func() error {
		if off+chunk > len(s) {
			off = 0
		}
		dec.Write(s[off : off+chunk])
		off += chunk
		return nil
	})
	if err != nil {
		return 0, err
	}
	return chunk / per.Seconds(), nil
}

// Evaluate measures one evaluation of a record by its jurisdiction's
// rules (package rules), on date on.
func Evaluate(ctx context.Context, rec *service.Record, on service.Date, d time.Duration) (time.Duration, error) {
	rs, err := rules.Embedded()
	if err != nil {
		return 0, fmt.Errorf("bench: %w", err)
	}
	jur := "minneapolis"
	if len(rec.Licences) > 0 {
		jur = rec.Licences[0].Jurisdiction
	}
	p := rs.Profile(jur)
	if p == nil {
		return 0, fmt.Errorf("bench: no rules for %q", jur)
	}
	return perOp(ctx, d, func() error {
		if p.Evaluate(rec, on) == nil {
			return fmt.Errorf("bench: no evaluation")
		}
		return nil
	})
}

// StoreLookup measures one chip lookup in st (FindRecordByChip), from
// one goroutine, of chips drawn at random from chips: the store's part
// of a lookup, without HTTP, rules or audit.
func StoreLookup(ctx context.Context, st service.RecordService, chips []string, d time.Duration) (time.Duration, error) {
	if len(chips) == 0 {
		return 0, fmt.Errorf("bench: no chips to look up")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	return perOp(ctx, d, func() error {
		_, err := st.FindRecordByChip(ctx, chips[rng.IntN(len(chips))])
		return err
	})
}

// TagTimes are the tag rendering figures.
type TagTimes struct {
	ZPL, Paths time.Duration
	// Batch is 1,000 tags issued, laid out on 300 × 200 mm plates and
	// turned into engraving paths.
	Batch time.Duration
}

// Tags measures tag rendering with the built-in designs and the
// development check-code keys.
func Tags(ctx context.Context, d time.Duration) (*TagTimes, error) {
	c, err := tags.LoadDesigns("")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	r, err := tags.NewRenderer(nil)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	keys := check.DevelopmentKeys()
	tag, err := c.Issue(keys, "MPLS", 2026, 123456, "dog")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	var out TagTimes
	if out.ZPL, err = perOp(ctx, d, func() error { _, err := r.ZPL(tag, nil); return err }); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if out.Paths, err = perOp(ctx, d, func() error { _, err := r.Paths(tag); return err }); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	start := time.Now()
	batch := make([]*tags.Tag, 0, 1000)
	for n := 1; n <= 1000; n++ {
		t, err := c.Issue(keys, "CHAN", 2027, n, "dog")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		batch = append(batch, t)
	}
	sheets, err := tags.Layout{Width: 300, Height: 200, Margin: 5, Gap: 2}.Place(batch)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	for _, s := range sheets {
		if _, err := r.SheetPaths(s); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	out.Batch = time.Since(start)
	return &out, nil
}
