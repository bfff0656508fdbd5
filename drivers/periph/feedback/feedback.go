package feedback

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// Step holds the buzzer and the LED at a level for D.
type Step struct {
	Buzzer, LED gpio.Level
	D           time.Duration
}

// Pattern is played step by step; both outputs go low at its end.
type Pattern []Step

// Duration returns the time the pattern takes.
func (p Pattern) Duration() time.Duration {
	var d time.Duration
	for _, s := range p {
		d += s.D
	}
	return d
}

// Signal names an outcome of a scan.
type Signal int

// Signals.
const (
	// Good: a chip was read and its record found.
	Good Signal = iota + 1
	// Dangerous: the animal is on the dangerous-animal register; the
	// officer must notice before handling it.
	Dangerous
	// Unknown: a chip was read but is not on record.
	Unknown
	// Failure: the reader failed (no chip number, hardware error).
	Failure
)

func (s Signal) String() string {
	switch s {
	case Good:
		return "good"
	case Dangerous:
		return "dangerous"
	case Unknown:
		return "unknown"
	case Failure:
		return "failure"
	}
	return fmt.Sprintf("Signal(%d)", int(s))
}

const (
	on  = gpio.High
	off = gpio.Low
)

// Patterns returns the default pattern of each signal:
//
//	Good       one short beep, LED steady for a second
//	Dangerous  five fast beeps with the LED flashing with them, then LED
//	           flashing on for two more seconds
//	Unknown    two beeps, the LED blinking with them, then on
//	Failure    one long low beep, LED off
func Patterns() map[Signal]Pattern {
	dangerous := Pattern{}
	for range 5 {
		dangerous = append(dangerous, Step{on, on, 100 * time.Millisecond}, Step{off, off, 80 * time.Millisecond})
	}
	for range 5 {
		dangerous = append(dangerous, Step{off, on, 200 * time.Millisecond}, Step{off, off, 200 * time.Millisecond})
	}
	return map[Signal]Pattern{
		Good: {
			{on, on, 80 * time.Millisecond},
			{off, on, 920 * time.Millisecond},
		},
		Dangerous: dangerous,
		Unknown: {
			{on, on, 150 * time.Millisecond},
			{off, off, 100 * time.Millisecond},
			{on, on, 150 * time.Millisecond},
			{off, on, 600 * time.Millisecond},
		},
		Failure: {
			{on, off, 700 * time.Millisecond},
		},
	}
}

// Opts configures a Dev.
type Opts struct {
	// Patterns overrides the default pattern of some signals.
	Patterns map[Signal]Pattern
	// Sleep waits d or until ctx ends; nil means a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultOpts plays Patterns() with a real timer.
var DefaultOpts = Opts{}

// Dev is a buzzer and an LED. Either pin may be nil (a board without
// one of them); gpio.INVALID works too.
type Dev struct {
	buzzer, led gpio.PinOut
	patterns    map[Signal]Pattern
	sleep       func(ctx context.Context, d time.Duration) error

	mu sync.Mutex // one pattern at a time
}

// New returns a Dev on the two pins, both driven low. A nil o means
// DefaultOpts.
func New(buzzer, led gpio.PinOut, o *Opts) (*Dev, error) {
	if o == nil {
		o = &DefaultOpts
	}
	d := &Dev{buzzer: buzzer, led: led, patterns: Patterns(), sleep: o.Sleep}
	for s, p := range o.Patterns {
		d.patterns[s] = p
	}
	if d.sleep == nil {
		d.sleep = sleep
	}
	if err := d.set(off, off); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Dev) String() string {
	return fmt.Sprintf("feedback buzzer %s led %s", name(d.buzzer), name(d.led))
}

func name(p gpio.PinOut) string {
	if p == nil {
		return "none"
	}
	return p.Name()
}

// Signal plays the pattern of s.
func (d *Dev) Signal(ctx context.Context, s Signal) error {
	p, ok := d.patterns[s]
	if !ok {
		return fmt.Errorf("feedback: no pattern for %s", s)
	}
	return d.Play(ctx, p)
}

// Play plays p. When ctx ends first, both outputs go low and ctx's error
// is returned.
func (d *Dev) Play(ctx context.Context, p Pattern) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, s := range p {
		if err := d.set(s.Buzzer, s.LED); err != nil {
			return errors.Join(err, d.set(off, off))
		}
		if err := d.sleep(ctx, s.D); err != nil {
			return errors.Join(err, d.set(off, off))
		}
	}
	return d.set(off, off)
}

// Close drives both outputs low.
func (d *Dev) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.set(off, off)
}

func (d *Dev) set(buzzer, led gpio.Level) error {
	var errs []error
	if d.buzzer != nil {
		if err := d.buzzer.Out(buzzer); err != nil {
			errs = append(errs, fmt.Errorf("feedback: buzzer: %w", err))
		}
	}
	if d.led != nil {
		if err := d.led.Out(led); err != nil {
			errs = append(errs, fmt.Errorf("feedback: led: %w", err))
		}
	}
	return errors.Join(errs...)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
