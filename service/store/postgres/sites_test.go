package postgres_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/postgres/pgtest"
)

// Environment of a child process of TestIssuingAcrossProcesses.
const (
	childDSN    = "CHIPDESK_TEST_CHILD_DSN"
	childSite   = "CHIPDESK_TEST_CHILD_SITE"
	childAnimal = "CHIPDESK_TEST_CHILD_ANIMAL"
	childStart  = "CHIPDESK_TEST_CHILD_START"
)

const (
	sites          = 4  // processes
	writersPerSite = 4  // goroutines in each
	issuesPerSite  = 30 // licences each process issues
)

// TestIssuingAcrossProcesses runs several sites as separate processes
// (this test binary again, running TestIssueChild) that issue licences
// for one jurisdiction and year at the same moment on one database. Tag
// register numbers (Minneapolis 64.30) must come out unique and without
// gaps, every licence must carry its site, and the audit trail must
// count each site's and user's events.
func TestIssuingAcrossProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	db, err := postgres.Open(ctx, dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a := &service.Animal{Species: service.Dog, Name: "Rex"}
	if err := db.CreateAnimal(ctx, a); err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(2 * time.Second)
	type result struct {
		site string
		out  string
		err  error
	}
	results := make([]result, sites)
	var wg sync.WaitGroup
	for i := range sites {
		site := fmt.Sprintf("site-%d", i+1)
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestIssueChild$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), childDSN+"="+dsn, childSite+"="+site,
			childAnimal+"="+strconv.FormatInt(a.ID, 10), childStart+"="+strconv.FormatInt(start.UnixNano(), 10))
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := cmd.CombinedOutput()
			results[i] = result{site, string(out), err}
		}()
	}
	wg.Wait()
	seen := map[int]string{}
	for _, r := range results {
		if r.err != nil {
			t.Fatalf("child %s: %v\n%s", r.site, r.err, r.out)
		}
		n := 0
		sc := bufio.NewScanner(strings.NewReader(r.out))
		for sc.Scan() {
			f, ok := strings.CutPrefix(sc.Text(), "TAG ")
			if !ok {
				continue
			}
			tag, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("child %s printed %q", r.site, sc.Text())
			}
			if other, dup := seen[tag]; dup {
				t.Fatalf("tag %d issued twice: by %s and %s", tag, other, r.site)
			}
			seen[tag] = r.site
			n++
		}
		if n != issuesPerSite {
			t.Fatalf("child %s reported %d tags, want %d\n%s", r.site, n, issuesPerSite, r.out)
		}
	}
	for tag := 1; tag <= sites*issuesPerSite; tag++ {
		if _, ok := seen[tag]; !ok {
			t.Fatalf("tag %d never issued: the %d tags are not 1..%d", tag, len(seen), sites*issuesPerSite)
		}
	}
	for i := range sites {
		site := fmt.Sprintf("site-%d", i+1)
		list, n, err := db.FindLicences(ctx, service.LicenceFilter{Site: &site})
		if err != nil {
			t.Fatal(err)
		}
		if n != issuesPerSite {
			t.Fatalf("FindLicences(site %s) total %d, want %d", site, n, issuesPerSite)
		}
		for _, l := range list {
			if seen[l.TagNumber] != site {
				t.Fatalf("licence %d (tag %d) stored at %s, but %s issued it", l.ID, l.TagNumber, site, seen[l.TagNumber])
			}
		}
		for w := range writersPerSite {
			user := fmt.Sprintf("clerk-%d", w)
			_, n, err := db.FindAuditEvents(ctx, service.AuditFilter{Site: &site, Actor: &user})
			if err != nil {
				t.Fatal(err)
			}
			if want := issuesPerSite / writersPerSite; n < want {
				t.Fatalf("FindAuditEvents(%s, %s) = %d events, want at least %d", site, user, n, want)
			}
		}
		_, n, err = db.FindAuditEvents(ctx, service.AuditFilter{Site: &site})
		if err != nil {
			t.Fatal(err)
		}
		if n != issuesPerSite {
			t.Fatalf("FindAuditEvents(%s) = %d events, want %d", site, n, issuesPerSite)
		}
	}
}

// TestIssueChild is one site of TestIssuingAcrossProcesses; it runs only
// as that test's child process.
func TestIssueChild(t *testing.T) {
	dsn := os.Getenv(childDSN)
	if dsn == "" {
		t.Skip("runs only as a child process of TestIssuingAcrossProcesses")
	}
	ctx := context.Background()
	site := os.Getenv(childSite)
	animal, _ := strconv.ParseInt(os.Getenv(childAnimal), 10, 64)
	startNS, _ := strconv.ParseInt(os.Getenv(childStart), 10, 64)
	db, err := postgres.Open(ctx, dsn, &postgres.Opts{MaxConns: writersPerSite})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	time.Sleep(time.Until(time.Unix(0, startNS)))
	var mu sync.Mutex
	var wg sync.WaitGroup
	errs := make(chan error, issuesPerSite)
	for w := range writersPerSite {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("clerk-%d", w)
			for i := w; i < issuesPerSite; i += writersPerSite {
				// One active licence per animal and term: each issue
				// names a term of its own (expiry day) for the one animal.
				var n int
				fmt.Sscanf(site, "site-%d", &n)
				l := &service.Licence{AnimalID: animal, Jurisdiction: "minneapolis", IssuedOn: service.MustDate("2026-06-01"),
					ExpiresOn: service.MustDate("2027-01-31").AddDays(n*issuesPerSite + i), FeeCents: 1500, Site: site}
				if err := db.CreateLicence(ctx, l); err != nil {
					errs <- err
					return
				}
				if err := db.CreateAuditEvent(ctx, &service.AuditEvent{Actor: user, Site: site, Action: "licence.create",
					Entity: "licence", EntityID: l.ID}); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				fmt.Printf("TAG %d\n", l.TagNumber)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
