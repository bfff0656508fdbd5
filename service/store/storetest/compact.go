package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// testAuditCompaction: CompactAudit replaces the lookup events before
// its instant by their per-day counts, day by day, and keeps every other
// event whole; the counts add up to the events removed, a second run
// counts nothing again, and each day's compaction is itself audited.
func testAuditCompaction(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	day1, day2 := Start.AddDate(0, 0, -10), Start.AddDate(0, 0, -9)
	at := func(d time.Time, h int) time.Time {
		return d.Truncate(24 * time.Hour).Add(time.Duration(h) * time.Hour)
	}
	lookup := func(when time.Time, actor, action string, animal int64, detail string) *service.AuditEvent {
		return &service.AuditEvent{At: when, Actor: actor, Role: service.RoleOfficer, Site: "east", TokenID: 4,
			Action: action, Entity: "animal", EntityID: animal, Detail: detail}
	}
	evs := []*service.AuditEvent{
		lookup(at(day1, 8), "officer-1", "lookup.chip", 3, "985141000000003"),
		{At: at(day1, 9), Actor: "counter-1", Role: service.RoleIntake, Action: "licence.create", Entity: "licence", EntityID: 7},
		lookup(at(day1, 10), "officer-1", "lookup.chip", 3, "985141000000003"),
		{At: at(day1, 11), Actor: "officer-1", Action: "record.view", Entity: "animal", EntityID: 3},
		lookup(at(day1, 12), "officer-1", "lookup.chip", 3, "985141000000003"),
		lookup(at(day1, 13), "officer-2", "lookup.chip", 0, "985141000000099"),
		{At: at(day1, 14), Actor: "anonymous", Action: "request.refused", Detail: "401 GET /api/v1/lookup from 10.0.0.9"},
		lookup(at(day1, 23), "officer-1", "lookup.tag", 3, "MPLS-2026-17"),
		lookup(at(day2, 1), "officer-1", "lookup.chip", 3, "985141000000003"),
		{At: at(day2, 2), Actor: "counter-1", Role: service.RoleIntake, Action: "payment.create", Entity: "payment", EntityID: 2},
		lookup(at(day2, 3), "officer-1", "lookup.chip", 3, "985141000000003"),
		lookup(Start.Add(-time.Hour), "officer-1", "lookup.chip", 3, "985141000000003"),
	}
	for _, e := range evs {
		must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, e))
	}
	before := Start.AddDate(0, 0, -5)
	got, err := service.CompactAuditLog(ctx, s, before, nil)
	must(t, "CompactAudit", err)
	type day struct {
		day            string
		events, counts int64
	}
	var days []day
	for _, cp := range got {
		days = append(days, day{cp.Day.String(), cp.Events, cp.Counts})
		if cp.ActionPrefix != service.LookupActionPrefix || cp.ID == 0 || !cp.At.Equal(Start) {
			t.Errorf("compaction %+v", cp)
		}
	}
	want := []day{{service.DateIn(day1, time.UTC).String(), 5, 3}, {service.DateIn(day2, time.UTC).String(), 2, 1}}
	if len(days) != len(want) || days[0] != want[0] || days[1] != want[1] {
		t.Fatalf("CompactAudit = %+v, want %+v", days, want)
	}

	// Every event but the old lookups is kept as it was, with one
	// audit.compact event per day compacted.
	kept, _, err := s.FindAuditEvents(ctx, service.AuditFilter{})
	must(t, "FindAuditEvents", err)
	byAt := map[time.Time]*service.AuditEvent{}
	compacts := 0
	for _, e := range kept {
		if e.Action == "audit.compact" {
			compacts++
			continue
		}
		byAt[e.At] = e
	}
	if compacts != 2 {
		t.Errorf("%d audit.compact events, want 2", compacts)
	}
	for _, e := range evs {
		old := e.At.Before(before) && strings.HasPrefix(e.Action, service.LookupActionPrefix)
		k := byAt[e.At]
		switch {
		case old && k != nil:
			t.Errorf("%s of %s kept after the compaction", e.Action, e.At)
		case !old && k == nil:
			t.Errorf("%s of %s lost", e.Action, e.At)
		case !old && (k.Actor != e.Actor || k.Action != e.Action || k.EntityID != e.EntityID || k.Detail != e.Detail || k.Role != e.Role):
			t.Errorf("%s of %s changed: %+v, want %+v", e.Action, e.At, k, e)
		}
	}

	// The counts say who looked up what on which day, and how often.
	counts, n, err := s.FindAuditCounts(ctx, service.AuditFilter{})
	must(t, "FindAuditCounts", err)
	if n != 4 || len(counts) != 4 {
		t.Fatalf("FindAuditCounts = %d rows (total %d), want 4", len(counts), n)
	}
	if k := counts[0]; k.Day != service.DateIn(day2, time.UTC) || k.Events != 2 || k.Actor != "officer-1" || k.Action != "lookup.chip" ||
		k.Detail != "985141000000003" || k.Site != "east" || k.TokenID != 4 || k.Role != service.RoleOfficer ||
		!k.FirstAt.Equal(at(day2, 1)) || !k.LastAt.Equal(at(day2, 3)) {
		t.Errorf("newest count = %+v", k)
	}
	var sum int64
	for _, k := range counts {
		sum += k.Events
	}
	if sum != 7 {
		t.Errorf("counts add up to %d events, want 7", sum)
	}
	id := int64(3)
	counts, _, err = s.FindAuditCounts(ctx, service.AuditFilter{EntityID: &id})
	must(t, "FindAuditCounts(entity_id)", err)
	if len(counts) != 3 {
		t.Errorf("FindAuditCounts(entity_id 3) = %d rows, want 3", len(counts))
	}
	since := day2
	counts, _, err = s.FindAuditCounts(ctx, service.AuditFilter{Since: &since})
	must(t, "FindAuditCounts(since)", err)
	if len(counts) != 1 {
		t.Errorf("FindAuditCounts(since day 2) = %d rows, want 1", len(counts))
	}

	// Done again, nothing is left to count; later, the newer day goes.
	got, err = service.CompactAuditLog(ctx, s, before, nil)
	must(t, "CompactAudit again", err)
	if len(got) != 0 {
		t.Errorf("CompactAudit again = %+v, want none", got)
	}
	newest := lookup(Start, "officer-1", "lookup.chip", 3, "985141000000003")
	must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, newest))
	c.Set(Start.Add(time.Hour))
	got, err = service.CompactAuditLog(ctx, s, Start.Add(time.Hour), nil)
	must(t, "CompactAudit later", err)
	if len(got) != 1 || got[0].Events != 2 {
		t.Errorf("CompactAudit later = %+v, want two events counted", got)
	}
	// No id removed is given again, though the newest event went.
	next := &service.AuditEvent{Actor: "officer-1", Action: "record.view"}
	must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, next))
	kept, _, err = s.FindAuditEvents(ctx, service.AuditFilter{})
	must(t, "FindAuditEvents", err)
	for _, e := range kept {
		if e.ID == newest.ID || next.ID <= newest.ID {
			t.Errorf("%s has id %d, the removed lookup's %d again or below it", e.Action, e.ID, newest.ID)
		}
	}
}

// StopBase is the first day of CompactStopped's events.
var StopBase = time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)

// CompactStopped checks that a compaction stopped on one day loses and
// doubles nothing: s holds no events, and stop makes the store refuse
// the counts of the day it is given (a trigger), as a crash in that
// day's transaction would leave it; resume lifts that. The day before
// stays compacted, the stopped day and the one after keep every event,
// and the compaction run again counts each event once.
func CompactStopped(t *testing.T, s service.Store, stop func(day service.Date), resume func()) {
	t.Helper()
	ctx := context.Background()
	for d := range 3 {
		for i := range 4 {
			must(t, "CreateAuditEvent", s.CreateAuditEvent(ctx, &service.AuditEvent{At: StopBase.AddDate(0, 0, d).Add(time.Duration(i) * time.Minute),
				Actor: fmt.Sprintf("officer-%d", i%2), Action: "lookup.chip", Entity: "animal", EntityID: int64(d + 1)}))
		}
	}
	tally := func() (lookups int, counted int64, compactions int) {
		evs, _, err := s.FindAuditEvents(ctx, service.AuditFilter{})
		must(t, "FindAuditEvents", err)
		for _, e := range evs {
			if strings.HasPrefix(e.Action, service.LookupActionPrefix) {
				lookups++
			} else if e.Action == "audit.compact" {
				compactions++
			}
		}
		counts, _, err := s.FindAuditCounts(ctx, service.AuditFilter{})
		must(t, "FindAuditCounts", err)
		for _, k := range counts {
			counted += k.Events
		}
		return lookups, counted, compactions
	}
	stop(service.DateIn(StopBase, time.UTC).AddDays(1))
	before := StopBase.AddDate(0, 0, 5)
	done, err := service.CompactAuditLog(ctx, s, before, nil)
	if err == nil {
		t.Fatalf("CompactAudit with the second day stopped = %+v, no error", done)
	}
	if l, c, n := tally(); l != 8 || c != 4 || n != 1 || len(done) != 1 {
		t.Fatalf("after the stop: %d lookups kept, %d counted, %d compactions audited, %d returned; want 8, 4, 1, 1", l, c, n, len(done))
	}
	resume()
	done, err = service.CompactAuditLog(ctx, s, before, nil)
	must(t, "CompactAudit resumed", err)
	if l, c, n := tally(); l != 0 || c != 12 || n != 3 || len(done) != 2 {
		t.Fatalf("resumed: %d lookups kept, %d counted, %d compactions audited, %d returned; want 0, 12, 3, 2", l, c, n, len(done))
	}
}
