package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/bench"
	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/csvio"
	"github.com/chipdesk/chipdesk/service/licensing"
	"github.com/chipdesk/chipdesk/service/store/postgres"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
	"github.com/chipdesk/chipdesk/tags"
)

// chipdesk is the chipdesk binary built for the tests by TestMain.
var chipdesk string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "chipdesk-reliability-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	chipdesk = filepath.Join(dir, "chipdesk")
	out, err := exec.Command("go", "build", "-o", chipdesk, "github.com/chipdesk/chipdesk/service/cmd/chipdesk").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build chipdesk: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// fixture is a seeded SQLite database with a token per role.
type fixture struct {
	db     string
	ds     *bench.Dataset
	tokens map[service.Role]string
}

// seed generates n animals (owners, chips, vaccinations dated today;
// licences only when licences is true) into a new SQLite database.
func seed(t *testing.T, n int, licences bool) *fixture {
	t.Helper()
	return seedInto(t, filepath.Join(t.TempDir(), "chipdesk.db"), n, licences)
}

// openStore opens db, an SQLite file or a postgres:// URL.
func openStore(ctx context.Context, db string) (service.Store, error) {
	if postgres.IsDSN(db) {
		return postgres.Open(ctx, db, nil)
	}
	return sqlite.Open(ctx, db, nil)
}

// seedInto is seed into db, an SQLite file or a postgres:// URL of an
// empty schema.
func seedInto(t *testing.T, db string, n int, licences bool) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	ds, err := bench.Generate(&bench.DatasetOpts{Animals: n, Dir: dir, On: service.DateIn(time.Now(), time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if !licences {
		delete(ds.Files, csvio.Licences)
	}
	f := &fixture{db: db, ds: ds, tokens: map[service.Role]string{}}
	st, err := openStore(ctx, f.db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ds.Import(ctx, st); err != nil {
		t.Fatal(err)
	}
	if err := ds.Mark(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	// An administrator approved the tag designs (licensing.DesignApproved).
	designs, err := tags.LoadDesigns("")
	if err != nil {
		t.Fatal(err)
	}
	if err := licensing.ApproveAll(ctx, st, designs, "reliability admin", time.Now(), time.Now().Year(), time.Now().Year()+1); err != nil {
		t.Fatal(err)
	}
	for _, r := range []service.Role{service.RoleAdmin, service.RoleClinic, service.RoleIntake, service.RoleOfficer, service.RolePublic} {
		tok := &service.Token{Name: "reliability " + string(r), Role: r}
		if f.tokens[r], err = st.CreateToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// serve runs chipdesk serve on the fixture's database; it is stopped
// when the test ends.
func serve(t *testing.T, db string, args ...string) *bench.Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(60*time.Second))
	defer cancel()
	s, err := bench.StartServer(ctx, chipdesk, append([]string{"serve", "--dev-keys", "--db", db, "--listen", "127.0.0.1:0"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-s.Done():
			return // stopped or killed by the test
		default:
		}
		if err := s.Stop(15 * time.Second); err != nil {
			t.Logf("serve: %v", err)
		}
	})
	return s
}

// call sends one request and returns the status and body; a transport
// error is status 0 with the error as body.
func call(hc *http.Client, method, url, token, body string) (int, []byte) {
	code, _, b := callKeyed(hc, method, url, token, "", body)
	return code, b
}

// callKeyed is call with an Idempotency-Key (none when key is ""); it
// also returns the answer's headers.
func callKeyed(hc *http.Client, method, url, token, key, body string) (int, http.Header, []byte) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, nil, []byte(err.Error())
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, []byte(err.Error())
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// envInt reads a positive integer from the environment, or def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// jsonError reports whether b is the service's JSON error body.
func jsonError(b []byte) bool {
	var e struct {
		Error struct{ Code, Message string }
	}
	return json.Unmarshal(b, &e) == nil && e.Error.Code != "" && e.Error.Message != ""
}
