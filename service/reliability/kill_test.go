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

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// issued is an acknowledged licence (201) and, when the service makes
// print jobs, its acknowledged job.
type issued struct {
	ID           int64  `json:"id"`
	AnimalID     int64  `json:"animal_id"`
	Jurisdiction string `json:"jurisdiction"`
	Year         int    `json:"year"`
	TagNumber    int    `json:"tag_number"`
	job          int64
}

// TestKill9DuringLicenceIssues fires 1,000 concurrent licence issues at
// chipdesk serve and kills it with SIGKILL once a third are
// acknowledged. After a restart on the same database every acknowledged
// licence is there with its tag number (and every acknowledged print
// job), the rest can be issued, and no tag number of a jurisdiction and
// year is given twice (Minneapolis 64.30: tags numbered in sequence).
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

	// Does this service make print jobs? (Only when it runs printers.)
	code, _ := call(hc, "POST", s.URL+"/api/v1/licences/999999999/tag", token, `{"kind":"print"}`)
	jobs := code != http.StatusNotFound && code != http.StatusMethodNotAllowed
	if !jobs {
		t.Logf("the service answers %d to a tag request: no print jobs to check", code)
	}

	var (
		mu      sync.Mutex
		acked   []issued
		refused = map[int]int{}
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
			body := fmt.Sprintf(`{"animal_id":%d,"jurisdiction":"minneapolis"}`, a)
			code, b := call(hc, "POST", s.URL+"/api/v1/licences", token, body)
			if code != http.StatusCreated {
				mu.Lock()
				refused[code]++
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
			if jobs {
				if code, b := call(hc, "POST", fmt.Sprintf("%s/api/v1/licences/%d/tag", s.URL, l.ID), token, `{"kind":"print"}`); code == http.StatusCreated || code == http.StatusOK {
					var j struct{ ID int64 }
					if json.Unmarshal(b, &j) == nil {
						l.job = j.ID
					}
				}
			}
			mu.Lock()
			acked = append(acked, l)
			mu.Unlock()
			if count.Add(1) >= killAt {
				once.Do(func() { s.Kill(); close(killed) })
			}
		}()
	}
	close(start)
	select {
	case <-killed:
	case <-time.After(3 * time.Minute):
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

	// Restart: every acknowledged licence is there, as acknowledged.
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
			if code, b := call(hc, "GET", fmt.Sprintf("%s/api/v1/jobs/%d", s2.URL, l.job), token, ""); code != http.StatusOK {
				t.Errorf("acknowledged print job %d of licence %d after restart = %d %s, want it", l.job, l.ID, code, b)
			}
		}
	}
	// The animals whose issue was not acknowledged are issued now
	// (an issue that was stored but not acknowledged may be refused as
	// a conflict: that is the client's retry, not a loss).
	after := map[int]int{}
	for a := 1; a <= n; a++ {
		if have[int64(a)] {
			continue
		}
		code, b := call(hc, "POST", s2.URL+"/api/v1/licences", token, fmt.Sprintf(`{"animal_id":%d,"jurisdiction":"minneapolis"}`, a))
		after[code]++
		if code >= 500 || code == 0 {
			t.Errorf("issue for animal %d after restart = %d %s", a, code, b)
		}
	}
	t.Logf("after the restart, issues for the other animals answered %v", after)
	if err := s2.Stop(15 * time.Second); err != nil {
		t.Fatal(err)
	}

	// In the database: no tag number twice.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := openStore(ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tags := map[string]int64{}
	total := 0
	err = st.EachLicence(ctx, func(l *service.Licence) error {
		total++
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
	t.Logf("%d licences stored, %d distinct tags", total, len(tags))
}
