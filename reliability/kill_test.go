package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// issued is an acknowledged licence (201) and its acknowledged print
// job, if any.
type issued struct {
	ID           int64  `json:"id"`
	AnimalID     int64  `json:"animal_id"`
	Jurisdiction string `json:"jurisdiction"`
	Year         int    `json:"year"`
	TagNumber    int    `json:"tag_number"`
	job          int64
}

// TestKill9DuringLicenceIssues fires 1,000 concurrent licence issues at
// chipdesk serve, each with an Idempotency-Key and followed by its tag's
// print job, and kills it with SIGKILL once a third are acknowledged.
// After a restart on the same database every acknowledged licence is
// there with its tag number, and every acknowledged print job; the
// clients retry the issues never acknowledged with the same keys, and
// then every animal has exactly one licence (a stored but unacknowledged
// issue is answered, not issued again) and no tag number of a
// jurisdiction and year is given twice (Minneapolis 64.30: tags numbered
// in sequence), and every stored licence has its one licence.create
// audit event.
func TestKill9DuringLicenceIssues(t *testing.T) {
	t.Parallel()
	n := envInt("CHIPDESK_KILL_ISSUES", 1000)
	killDuringIssues(t, seed(t, n, false), n)
}

// TestKill9DuringLicenceIssuesPostgres is the same on PostgreSQL.
func TestKill9DuringLicenceIssuesPostgres(t *testing.T) {
	t.Parallel()
	n := envInt("CHIPDESK_KILL_ISSUES", 1000)
	killDuringIssues(t, seedInto(t, pgtest.DSN(t), n, false), n)
}

func killDuringIssues(t *testing.T, f *fixture, n int) {
	s := serve(t, f.db)
	token := f.tokens[service.RoleIntake]
	// 1,000 issues at once, over 64 connections (a busy county's
	// counters and clinics): the service works through them while the
	// rest wait, so the kill lands in the middle.
	hc := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}}
	// The print jobs' requests go over connections of their own (a
	// second desk): they are not queued behind the issues.
	jc := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 16, MaxConnsPerHost: 16}}

	// The client's key of animal a's issue: the same on every retry.
	key := func(a int) string { return fmt.Sprintf("kill9-issue-%d", a) }
	issueBody := func(a int) string { return fmt.Sprintf(`{"animal_id":%d,"jurisdiction":"minneapolis"}`, a) }

	var (
		mu      sync.Mutex
		acked   []issued
		refused = map[int]int{}
		// invalid are the animals the rules refuse a licence (400:
		// no current rabies vaccination): none of them gets one.
		invalid = map[int64]bool{}
		killAt  = int64(n / 3)
		count   atomic.Int64
		killed  = make(chan struct{})
		once    sync.Once
		wg      sync.WaitGroup
	)
	start := make(chan struct{})
	for a := 1; a <= n; a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			code, _, b := callKeyed(hc, "POST", s.URL+"/api/v1/licences", token, key(a), issueBody(a))
			if code != http.StatusCreated {
				mu.Lock()
				refused[code]++
				if code == http.StatusBadRequest {
					invalid[int64(a)] = true
				}
				if refused[code] == 1 && code != 0 {
					t.Logf("issue for animal %d = %d %s", a, code, b)
				}
				mu.Unlock()
				return
			}
			var l issued
			if err := json.Unmarshal(b, &l); err != nil || l.ID == 0 || l.TagNumber == 0 {
				t.Errorf("issue for animal %d = %s, want a licence", a, b)
				return
			}
			// The kill is counted on acknowledged issues, so that it
			// lands among issues (and print jobs) still in flight.
			if count.Add(1) == killAt {
				go once.Do(func() { s.Kill(); close(killed) })
			}
			if code, b := call(jc, "POST", fmt.Sprintf("%s/api/v1/licences/%d/tag", s.URL, l.ID), token, `{"kind":"print"}`); code == http.StatusCreated || code == http.StatusOK {
				var j struct{ ID int64 }
				if json.Unmarshal(b, &j) != nil || j.ID == 0 {
					t.Errorf("print job of licence %d = %d %s, want a job", l.ID, code, b)
				}
				l.job = j.ID
			} else if code != 0 {
				t.Errorf("print job of licence %d = %d %s, want 201", l.ID, code, b)
			}
			mu.Lock()
			acked = append(acked, l)
			mu.Unlock()
		}()
	}
	close(start)
	select {
	case <-killed:
	case <-time.After(testtime.Scale(3 * time.Minute)):
		t.Fatalf("only %d of %d licences acknowledged in 3 minutes; refused %v\n%s", count.Load(), n, refused, s.Log())
	}
	wg.Wait()
	if len(acked) < int(killAt) {
		t.Fatalf("%d acknowledged, want at least %d", len(acked), killAt)
	}
	t.Logf("killed after %d acknowledged licences of %d; other answers %v", len(acked), n, refused)
	if refused[0] == 0 {
		t.Fatalf("every issue was answered before the kill: nothing was cut off; make the load heavier")
	}
	if refused[http.StatusInternalServerError] > 0 {
		t.Errorf("%d issues answered 500 before the kill", refused[http.StatusInternalServerError])
	}

	jobs := 0
	for _, l := range acked {
		if l.job != 0 {
			jobs++
		}
	}
	if jobs == 0 {
		t.Fatalf("no print job acknowledged before the kill: nothing to check")
	}
	t.Logf("%d print jobs acknowledged before the kill", jobs)

	// Restart: every acknowledged licence is there, as acknowledged, and
	// no acknowledged print job is lost.
	s2 := serve(t, f.db)
	have := map[int64]bool{}
	for _, l := range acked {
		have[l.AnimalID] = true
		code, b := call(hc, "GET", fmt.Sprintf("%s/api/v1/licences/%d", s2.URL, l.ID), token, "")
		var got service.Licence
		if code != http.StatusOK || json.Unmarshal(b, &got) != nil {
			t.Errorf("acknowledged licence %d after restart = %d %s, want it", l.ID, code, b)
			continue
		}
		if got.AnimalID != l.AnimalID || got.TagNumber != l.TagNumber || got.Jurisdiction != l.Jurisdiction || got.Year != l.Year {
			t.Errorf("licence %d after restart = animal %d tag %s %d/%d, acknowledged animal %d tag %s %d/%d", l.ID,
				got.AnimalID, got.Jurisdiction, got.Year, got.TagNumber, l.AnimalID, l.Jurisdiction, l.Year, l.TagNumber)
		}
		if l.job != 0 {
			code, b := call(hc, "GET", fmt.Sprintf("%s/api/v1/jobs/%d", s2.URL, l.job), token, "")
			var j service.Job
			if code != http.StatusOK || json.Unmarshal(b, &j) != nil || j.LicenceID != l.ID || j.Kind != service.JobPrint {
				t.Errorf("acknowledged print job %d of licence %d after restart = %d %s, want it", l.job, l.ID, code, b)
			}
		}
	}
	// The clients retry the issues never acknowledged, with the same
	// keys and bodies: one stored before the kill is answered as it was
	// stored (Idempotent-Replayed), the others are issued now.
	after := map[int]int{}
	replayed := 0
	for a := 1; a <= n; a++ {
		if have[int64(a)] {
			continue
		}
		code, h, b := callKeyed(hc, "POST", s2.URL+"/api/v1/licences", token, key(a), issueBody(a))
		after[code]++
		if code == http.StatusBadRequest && jsonError(b) {
			invalid[int64(a)] = true // refused by the rules, as before the kill
			continue
		}
		var l issued
		if code != http.StatusCreated || json.Unmarshal(b, &l) != nil || l.AnimalID != int64(a) || l.TagNumber == 0 {
			t.Errorf("retried issue for animal %d after restart = %d %s, want 201 with its licence", a, code, b)
			continue
		}
		if h.Get("Idempotent-Replayed") == "true" {
			replayed++
		}
	}
	t.Logf("after the restart, retried issues answered %v; %d were stored before the kill and replayed", after, replayed)
	if err := s2.Stop(15 * time.Second); err != nil {
		t.Fatal(err)
	}

	// In the database: no tag number twice.
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(time.Minute))
	defer cancel()
	st, err := openStore(ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tags := map[string]int64{}
	perAnimal := map[int64][]int64{}
	total := 0
	err = st.EachLicence(ctx, func(l *service.Licence) error {
		total++
		perAnimal[l.AnimalID] = append(perAnimal[l.AnimalID], l.ID)
		k := fmt.Sprintf("%s/%d/%d", l.Jurisdiction, l.Year, l.TagNumber)
		if prev, dup := tags[k]; dup {
			t.Errorf("tag %s given to licences %d and %d", k, prev, l.ID)
		}
		tags[k] = l.ID
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total < len(acked) {
		t.Errorf("%d licences stored, %d acknowledged", total, len(acked))
	}
	// One logical issue per animal: exactly one licence each, none for
	// an animal the rules refuse.
	for a := 1; a <= n; a++ {
		want := 1
		if invalid[int64(a)] {
			want = 0
		}
		if ids := perAnimal[int64(a)]; len(ids) != want {
			t.Errorf("animal %d has licences %v from one issue and its retries, want %d", a, ids, want)
		}
	}
	t.Logf("%d licences stored, %d distinct tags", total, len(tags))

	// A change and its audit event are one: every stored licence has
	// exactly one licence.create event, whether it was acknowledged,
	// cut off by the kill or issued on a retry.
	entity := "licence"
	evs, _, err := st.FindAuditEvents(ctx, service.AuditFilter{Entity: &entity})
	if err != nil {
		t.Fatal(err)
	}
	created := map[int64]int{}
	for _, e := range evs {
		if e.Action == "licence.create" {
			created[e.EntityID]++
		}
	}
	for _, ids := range perAnimal {
		for _, id := range ids {
			if created[id] != 1 {
				t.Errorf("licence %d has %d licence.create events, want 1", id, created[id])
			}
		}
	}
	if len(created) != total {
		t.Errorf("licence.create events name %d licences, %d stored", len(created), total)
	}
}
