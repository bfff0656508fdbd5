package offline_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
)

// oldNames rewrites JSON's snake_case keys to the camelCase chipdesk
// wrote before ("animal_id" to "animalId"): what a replica file or a
// handheld of that time holds.
func oldNames(t *testing.T, b []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var camel func(v any) any
	camel = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				parts := strings.Split(k, "_")
				for i := 1; i < len(parts); i++ {
					r := []rune(parts[i])
					r[0] = unicode.ToUpper(r[0])
					parts[i] = string(r)
				}
				out[strings.Join(parts, "")] = camel(e)
			}
			return out
		case []any:
			for i := range x {
				x[i] = camel(x[i])
			}
		}
		return v
	}
	out, err := json.Marshal(camel(v))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`"[a-z]+[A-Z]`).Match(out) {
		t.Fatalf("oldNames(%s) has no old name", b)
	}
	return out
}

// A replica written before the names were snake_case (its records and
// its queued events) still answers lookups and pushes its events.
func TestReplicaWithOldNames(t *testing.T) {
	ctx := context.Background()
	s := backends[0].open(t)
	sd := seed(t, s)
	c := &offline.StoreCentral{Store: s}
	path := filepath.Join(t.TempDir(), "handheld.db")
	opts := &offline.Opts{Device: "handheld-3", PIN: testPIN, User: "officer-7", Site: "north-patrol", Now: func() time.Time { return day.Add(2 * time.Hour) }}
	r, err := offline.Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	syncOK(t, r, c)
	want, err := r.FindRecordByChip(ctx, dogChip)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3"); err != nil {
		t.Fatal(err)
	}
	wantEvents, err := r.Events(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	unsealCopy(t, r, path)

	// Rewrite the file as the old version left it.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct{ table, col, key string }{{"records", "body", "animal_id"}, {"outbox", "event", "id"}} {
		rows, err := db.QueryContext(ctx, "SELECT "+q.key+", "+q.col+" FROM "+q.table)
		if err != nil {
			t.Fatal(err)
		}
		old := map[any][]byte{}
		for rows.Next() {
			var k any
			var body string
			if err := rows.Scan(&k, &body); err != nil {
				t.Fatal(err)
			}
			old[k] = oldNames(t, []byte(body))
		}
		rows.Close()
		for k, body := range old {
			if _, err := db.ExecContext(ctx, "UPDATE "+q.table+" SET "+q.col+" = ? WHERE "+q.key+" = ?", string(body), k); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()

	r, err = offline.Open(ctx, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.FindRecordByChip(ctx, dogChip)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("record from old names = %+v\nwant %+v", got, want)
	}
	if byTag, err := r.FindRecordByTag(ctx, "minneapolis", 2026, sd.tag); err != nil || byTag.MatchedLicence == nil || byTag.MatchedLicence.TagNumber != sd.tag {
		t.Errorf("FindRecordByTag from old names = %+v, %v", byTag, err)
	}
	gotEvents, err := r.Events(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotEvents, wantEvents) {
		t.Errorf("queued events from old names = %+v\nwant %+v", gotEvents, wantEvents)
	}
	if rep := syncOK(t, r, c); rep.Applied != 1 || rep.Rejected != 0 {
		t.Errorf("Sync of an old-names event = %+v, want it applied", rep)
	}
	scans, _, err := s.FindScans(ctx, service.ScanFilter{})
	if err != nil || len(scans) != 1 || scans[0].ChipCode != dogChip || scans[0].AnimalID != sd.dog.ID {
		t.Errorf("central scans = %+v, %v; want the dog's", scans, err)
	}
}

// A handheld not yet upgraded pushes events with the old names; the
// central service applies them as it did, and answers in today's names.
func TestPushWithOldNames(t *testing.T) {
	ctx := context.Background()
	s := backends[0].open(t)
	sd := seed(t, s)
	srv := httptest.NewServer(offline.Handler(&offline.StoreCentral{Store: s}, &offline.HandlerOpts{Tokens: s}))
	defer srv.Close()
	secret, err := s.CreateToken(ctx, &service.Token{Name: "officer-7", Role: service.RoleOfficer, Site: "north-patrol"})
	if err != nil {
		t.Fatal(err)
	}
	at := day.Add(time.Hour)
	events := []service.DeviceEvent{
		{ID: "3f1c8a52-0b7e-4c1e-9a55-000000000001", Device: "handheld-3", Kind: service.DeviceScan, At: at,
			Scan: &service.Scan{Reader: "handheld-3", ChipCode: dogChip, ChipKind: "iso11784", At: at}},
		{ID: "3f1c8a52-0b7e-4c1e-9a55-000000000002", Device: "handheld-3", Kind: service.DeviceBite, At: at,
			Bite: &service.BiteIncident{AnimalID: sd.dog.ID, Date: service.MustDate("2026-03-15"), Victim: service.VictimPerson, SkinBroken: true}},
	}
	body, err := json.Marshal(events)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", srv.URL+"/events", bytes.NewReader(oldNames(t, body)))
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw bytes.Buffer
	raw.ReadFrom(resp.Body)
	var out []offline.Outcome
	if resp.StatusCode != http.StatusOK || json.Unmarshal(raw.Bytes(), &out) != nil || len(out) != 2 {
		t.Fatalf("push = %d %s, want 200 and two outcomes", resp.StatusCode, raw.Bytes())
	}
	for _, o := range out {
		if o.State != offline.Applied || o.RecordID == 0 {
			t.Errorf("outcome %+v, want applied with its record", o)
		}
	}
	if bytes.Contains(raw.Bytes(), []byte("recordId")) {
		t.Errorf("answer %s uses the old names", raw.Bytes())
	}
	scans, _, err := s.FindScans(ctx, service.ScanFilter{})
	if err != nil || len(scans) != 1 || scans[0].ChipCode != dogChip || scans[0].AnimalID != sd.dog.ID {
		t.Errorf("central scans = %+v, %v; want the dog's", scans, err)
	}
	bites, err := s.FindBites(ctx, sd.dog.ID)
	if err != nil || len(bites) != 1 || !bites[0].SkinBroken {
		t.Errorf("central bites = %+v, %v; want the skin-broken bite", bites, err)
	}
}

// snakeAnswers wraps the sync handler of a test: every JSON value it
// answers (a push's outcomes, each line of the replica stream) must
// spell every key ^[a-z][a-z0-9_]*$.
func snakeAnswers(t *testing.T, next http.Handler) http.Handler {
	key := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	var check func(where string, v any)
	check = func(where string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if !key.MatchString(k) {
					t.Errorf("%s answered key %q", where, k)
				}
				check(where, e)
			}
		case []any:
			for _, e := range x {
				check(where, e)
			}
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		if ct := rec.Header().Get("Content-Type"); !strings.Contains(ct, "json") {
			return
		}
		var body io.Reader = bytes.NewReader(rec.Body.Bytes())
		if rec.Header().Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(body)
			if err != nil {
				t.Errorf("%s %s: answer is not gzip: %v", r.Method, r.URL.Path, err)
				return
			}
			body = zr
		}
		dec := json.NewDecoder(body)
		for dec.More() {
			var v any
			if err := dec.Decode(&v); err != nil {
				t.Errorf("%s %s: answer is not JSON: %v", r.Method, r.URL.Path, err)
				return
			}
			check(r.Method+" "+r.URL.Path, v)
		}
	})
}
