package main

import (
	"runtime/debug"
)

// The garbage collector's settings for serve and demo, unless the
// environment sets its own (GOGC, GOMEMLIMIT; see the runtime package).
//
// A lookup allocates some 10 KB that is garbage once it is answered,
// while the service's live heap is about 3 MiB: with Go's default
// (GOGC=100) the collector ran every 4 MiB allocated, twenty times a
// second under load, and took 5 % of the CPU (GODEBUG=gctrace=1, a
// million animals). gcPercent lets the heap grow to three times what is
// live before collecting (2-3 %, for some 6 MB more resident; GOGC=400
// gave 1 % for 13 MB). goMemoryLimit bounds what the Go runtime holds
// (the heap, stacks and its own data; SQLite's page caches are beside
// it), so that a larger live heap makes the collector run sooner rather
// than the process grow past its memory target (100 MB resident, issue
// 6, measured by "chipdesk bench").
const (
	gcPercent     = 200
	goMemoryLimit = 32 << 20
)

// tuneGC applies gcPercent and goMemoryLimit where getenv has no GOGC or
// GOMEMLIMIT.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(goMemoryLimit)
	}
}
