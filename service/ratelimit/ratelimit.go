package ratelimit

import (
	"sync"
	"time"
)

// Limit is a steady rate and a burst. The zero Limit allows everything.
type Limit struct {
	// PerMinute is how many are allowed a minute, steady.
	PerMinute float64 `toml:"per_minute"`
	// Burst is how many are allowed at once after a quiet time; 0 means
	// PerMinute (at least 1).
	Burst int `toml:"burst"`
}

// Off reports whether l allows everything.
func (l Limit) Off() bool { return l.PerMinute <= 0 }

// MaxKeys bounds the keys a Limiter remembers: when full, full buckets
// are dropped (they are the state a new key starts in anyway), then all.
const MaxKeys = 100_000

// Limiter applies one Limit to many keys. It is safe for concurrent use.
type Limiter struct {
	l   Limit
	now func() time.Time

	mu sync.Mutex
	m  map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// New returns a Limiter of l; now is the clock (nil: time.Now).
func New(l Limit, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{l: l, now: now, m: map[string]*bucket{}}
}

func (lm *Limiter) burst() float64 {
	if lm.l.Burst > 0 {
		return float64(lm.l.Burst)
	}
	return max(1, lm.l.PerMinute)
}

// Allow takes one from key's bucket: false when it is empty. A nil or
// Off Limiter allows everything.
func (lm *Limiter) Allow(key string) bool {
	if lm == nil || lm.l.Off() {
		return true
	}
	now := lm.now()
	lm.mu.Lock()
	defer lm.mu.Unlock()
	b := lm.m[key]
	if b == nil {
		if len(lm.m) >= MaxKeys {
			lm.prune(now)
		}
		b = &bucket{tokens: lm.burst(), at: now}
		lm.m[key] = b
	}
	lm.refill(b, now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// RetryAfter is how long until key may try again (0: now).
func (lm *Limiter) RetryAfter(key string) time.Duration {
	if lm == nil || lm.l.Off() {
		return 0
	}
	lm.mu.Lock()
	defer lm.mu.Unlock()
	b := lm.m[key]
	if b == nil {
		return 0
	}
	lm.refill(b, lm.now())
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) / lm.l.PerMinute * float64(time.Minute))
}

func (lm *Limiter) refill(b *bucket, now time.Time) {
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(lm.burst(), b.tokens+d.Minutes()*lm.l.PerMinute)
		b.at = now
	}
}

// prune drops full buckets, or every bucket when none is full.
func (lm *Limiter) prune(now time.Time) {
	for k, b := range lm.m {
		lm.refill(b, now)
		if b.tokens >= lm.burst() {
			delete(lm.m, k)
		}
	}
	if len(lm.m) >= MaxKeys {
		clear(lm.m)
	}
}

// Config is the service's limits, the [limits] table of the config file.
type Config struct {
	// SignIn limits sign-in attempts, per client address and per
	// account name.
	SignIn Limit `toml:"sign_in"`
	// BadToken limits requests with an unknown, revoked or expired
	// token, per client address.
	BadToken Limit `toml:"bad_token"`
	// PublicLookup limits the public found-pet lookup, per token and per
	// client address, so that the registry cannot be walked.
	PublicLookup Limit `toml:"public_lookup"`
}

// DefaultConfig is the limits unless the config file sets them: a
// person mistyping a password or a clerk's lookups never reach them;
// a script guessing does at once.
func DefaultConfig() Config {
	return Config{
		SignIn:       Limit{PerMinute: 10, Burst: 10},
		BadToken:     Limit{PerMinute: 30, Burst: 30},
		PublicLookup: Limit{PerMinute: 30, Burst: 30},
	}
}
