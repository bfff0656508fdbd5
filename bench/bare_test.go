package bench

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/internal/testtime"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// TestBareServer: the bare-stack server answers a chip with the row the
// store's own record gives (animal, owner, latest licence, latest
// vaccination), and 404 for a chip it does not hold.
func TestBareServer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(time.Minute))
	defer cancel()
	now := func() time.Time { return time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC) }
	ds, err := Generate(&DatasetOpts{Animals: 300, Dir: t.TempDir(), On: service.MustDate("2026-06-01")})
	if err != nil {
		t.Fatal(err)
	}
	db := t.TempDir() + "/chipdesk.db"
	st, err := sqlite.Open(ctx, db, &sqlite.Opts{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := ds.Import(ctx, st); err != nil {
		t.Fatal(err)
	}
	if err := BuildBare(ctx, db); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- ServeBare(sctx, db, "127.0.0.1:0", pw); pw.Close() }()
	defer func() { stop(); <-served }()
	line := make([]byte, 256)
	n, err := pr.Read(line)
	go io.Copy(io.Discard, pr)
	m := regexp.MustCompile(`url=(http://\S+)`).FindSubmatch(line[:n])
	if err != nil || m == nil {
		t.Fatalf("bare server logged %q (%v), want its URL", line[:n], err)
	}
	base := string(m[1])

	for _, chip := range []string{ds.Chips[0], ds.Chips[len(ds.Chips)/2], ds.Chips[len(ds.Chips)-1]} {
		rec, err := st.FindRecordByChip(ctx, chip)
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.Get(base + barePath + "?chip=" + chip)
		if err != nil {
			t.Fatal(err)
		}
		var a bareAnswer
		err = json.NewDecoder(res.Body).Decode(&a)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("bare lookup of %s = %d (%v)", chip, res.StatusCode, err)
		}
		if a.Chip != chip || a.AnimalID != rec.Animal.ID || a.Name != rec.Animal.Name || a.Species != string(rec.Animal.Species) {
			t.Errorf("bare answer %+v, want animal %d %q", a, rec.Animal.ID, rec.Animal.Name)
		}
		if rec.Owner != nil && a.Owner != rec.Owner.Name {
			t.Errorf("bare answer owner %q, want %q", a.Owner, rec.Owner.Name)
		}
		if len(rec.Licences) > 0 && (a.TagNumber != rec.Licences[0].TagNumber || a.Expires != rec.Licences[0].ExpiresOn.String()) {
			t.Errorf("bare answer licence tag %d to %s, want %d to %s", a.TagNumber, a.Expires, rec.Licences[0].TagNumber, rec.Licences[0].ExpiresOn)
		}
		if rec.Rabies != nil && a.Rabies != rec.Rabies.Date.String() {
			t.Errorf("bare answer rabies %q, want %s", a.Rabies, rec.Rabies.Date)
		}
	}
	res, err := http.Get(base + barePath + "?chip=000000000000000")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("bare lookup of an unknown chip = %d, want 404", res.StatusCode)
	}
}
