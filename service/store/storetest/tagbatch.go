package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// testTagBatchReserve: a batch takes the next numbers of the licence
// counter (Minneapolis 64.30: one register of numbers per year), later
// licences are numbered after it, and a licence sold with one of the
// batch's pre-numbered tags keeps that number once.
func testTagBatchReserve(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	l1 := newLicence(a.ID, "minneapolis", "2026-03-15")
	must(t, "CreateLicence", s.CreateLicence(ctx, l1))

	b := &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Species: "dog", Key: "office/2026/1"}
	created, err := s.CreateTagBatch(ctx, b, 50)
	must(t, "CreateTagBatch", err)
	if !created || b.ID == 0 || b.First != l1.TagNumber+1 || b.Last != l1.TagNumber+50 || b.State != service.JobQueued || b.Done != 0 {
		t.Fatalf("CreateTagBatch = %+v created %v, want tags %d-%d queued", b, created, l1.TagNumber+1, l1.TagNumber+50)
	}
	again := &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026, Key: "office/2026/1"}
	created, err = s.CreateTagBatch(ctx, again, 50)
	must(t, "CreateTagBatch(same key)", err)
	if created || again.ID != b.ID || again.First != b.First || again.Last != b.Last {
		t.Fatalf("CreateTagBatch(same key) = %+v created %v, want batch %d unchanged", again, created, b.ID)
	}
	l2 := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-16")
	must(t, "CreateLicence(after batch)", s.CreateLicence(ctx, l2))
	if l2.TagNumber != b.Last+1 {
		t.Fatalf("licence after the batch got tag %d, want %d (the batch's numbers are reserved)", l2.TagNumber, b.Last+1)
	}
	sold := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-16")
	sold.TagNumber = b.First + 3
	must(t, "CreateLicence(pre-numbered tag)", s.CreateLicence(ctx, sold))
	twice := newLicence(another(t, s, a).ID, "minneapolis", "2026-03-17")
	twice.TagNumber = b.First + 3
	wantCode(t, "CreateLicence(pre-numbered tag twice)", s.CreateLicence(ctx, twice), service.ECONFLICT)

	other := &service.TagBatch{Kind: service.JobPrint, Jurisdiction: "chanhassen", Year: 2026, Key: "office/chan"}
	_, err = s.CreateTagBatch(ctx, other, 3)
	must(t, "CreateTagBatch(other jurisdiction)", err)
	if other.First != 1 || other.Last != 3 {
		t.Fatalf("first batch of a fresh counter = %d-%d, want 1-3", other.First, other.Last)
	}

	for _, tt := range []struct {
		name  string
		b     service.TagBatch
		count int
	}{
		{"no tags", service.TagBatch{Kind: service.JobPrint, Jurisdiction: "minneapolis", Year: 2026, Key: "x1"}, 0},
		{"bad kind", service.TagBatch{Kind: "stamp", Jurisdiction: "minneapolis", Year: 2026, Key: "x2"}, 5},
		{"no year", service.TagBatch{Kind: service.JobPrint, Jurisdiction: "minneapolis", Key: "x3"}, 5},
		{"no key", service.TagBatch{Kind: service.JobPrint, Jurisdiction: "minneapolis", Year: 2026}, 5},
	} {
		_, err := s.CreateTagBatch(ctx, &tt.b, tt.count)
		wantCode(t, "CreateTagBatch("+tt.name+")", err, service.EINVALID)
	}
}

// testTagBatchConcurrent: batches and licences created at once never
// share a number, and the ranges are contiguous.
func testTagBatchConcurrent(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	_, a := fixture(t, s)
	const workers, size = 6, 7
	var wg sync.WaitGroup
	batches := make([]*service.TagBatch, workers)
	licences := make([]*service.Licence, workers)
	errs := make([]error, 2*workers)
	animals := make([]*service.Animal, workers)
	for i := range workers {
		animals[i] = another(t, s, a)
	}
	for i := range workers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			batches[i] = &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2026,
				Key: "concurrent/" + string(rune('a'+i))}
			_, errs[i] = s.CreateTagBatch(ctx, batches[i], size)
		}()
		go func() {
			defer wg.Done()
			licences[i] = newLicence(animals[i].ID, "minneapolis", "2026-03-15")
			errs[workers+i] = s.CreateLicence(ctx, licences[i])
		}()
	}
	wg.Wait()
	seen := map[int]string{}
	for _, err := range errs {
		must(t, "concurrent create", err)
	}
	for _, b := range batches {
		if b.Count() != size {
			t.Fatalf("batch %s = %d-%d, want %d tags", b.Key, b.First, b.Last, size)
		}
		for n := b.First; n <= b.Last; n++ {
			if o, dup := seen[n]; dup {
				t.Fatalf("tag %d in batch %s and %s", n, b.Key, o)
			}
			seen[n] = b.Key
		}
	}
	for _, l := range licences {
		if o, dup := seen[l.TagNumber]; dup {
			t.Fatalf("tag %d of licence %d also in %s", l.TagNumber, l.ID, o)
		}
		seen[l.TagNumber] = "licence"
	}
	for n := 1; n <= workers*(size+1); n++ {
		if _, ok := seen[n]; !ok {
			t.Fatalf("tag %d not handed out: numbers are not gapless", n)
		}
	}
}

func testTagBatchStates(t *testing.T, s service.Store, c *Clock) {
	ctx := context.Background()
	b := &service.TagBatch{Kind: service.JobEngrave, Jurisdiction: "minneapolis", Year: 2027, Key: "k"}
	_, err := s.CreateTagBatch(ctx, b, 10)
	must(t, "CreateTagBatch", err)
	_, err = s.ClaimTagBatch(ctx, service.JobPrint, "zebra")
	wantCode(t, "ClaimTagBatch(no print batch)", err, service.ENOTFOUND)
	c.Set(Start.Add(time.Minute))
	got, err := s.ClaimTagBatch(ctx, service.JobEngrave, "grbl:/dev/ttyUSB0")
	must(t, "ClaimTagBatch", err)
	if got.ID != b.ID || got.State != service.JobSent || got.Attempts != 1 || got.Device != "grbl:/dev/ttyUSB0" ||
		!got.UpdatedAt.Equal(Start.Add(time.Minute)) {
		t.Fatalf("ClaimTagBatch = %+v", got)
	}
	_, err = s.ClaimTagBatch(ctx, service.JobEngrave, "grbl:/dev/ttyUSB0")
	wantCode(t, "ClaimTagBatch(already sent)", err, service.ENOTFOUND)

	done := 4
	got, err = s.UpdateTagBatch(ctx, b.ID, service.TagBatchUpdate{Done: &done})
	must(t, "UpdateTagBatch(done 4)", err)
	if got.Done != 4 || got.State != service.JobSent {
		t.Fatalf("UpdateTagBatch(done 4) = %+v", got)
	}
	over := 11
	_, err = s.UpdateTagBatch(ctx, b.ID, service.TagBatchUpdate{Done: &over})
	wantCode(t, "UpdateTagBatch(done past the last tag)", err, service.EINVALID)
	bad := service.JobState("lost")
	_, err = s.UpdateTagBatch(ctx, b.ID, service.TagBatchUpdate{State: &bad})
	wantCode(t, "UpdateTagBatch(bad state)", err, service.EINVALID)

	failed, msg := service.JobFailed, "grbl: ALARM:1 hard limit"
	_, err = s.UpdateTagBatch(ctx, b.ID, service.TagBatchUpdate{State: &failed, Error: &msg})
	must(t, "UpdateTagBatch(failed)", err)
	got, err = s.FindTagBatchByID(ctx, b.ID)
	must(t, "FindTagBatchByID", err)
	if got.State != service.JobFailed || got.Error != msg || got.Done != 4 || got.First != b.First {
		t.Fatalf("FindTagBatchByID = %+v", got)
	}
	_, err = s.FindTagBatchByID(ctx, b.ID+100)
	wantCode(t, "FindTagBatchByID(missing)", err, service.ENOTFOUND)
	year := 2027
	list, n, err := s.FindTagBatches(ctx, service.TagBatchFilter{State: &failed, Year: &year})
	must(t, "FindTagBatches", err)
	if n != 1 || len(list) != 1 || list[0].ID != b.ID {
		t.Fatalf("FindTagBatches(failed, 2027) = %d %+v", n, list)
	}
}
