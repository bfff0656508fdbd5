package httpapi_test

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/httpapi"
	"github.com/chipdesk/chipdesk/service/lookup"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// discardWriter is the least a ResponseWriter can do, so that a
// benchmark measures the handler and not the writer.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

// BenchmarkLookup measures GET /api/v1/lookup?chip= through the server's
// handler on a real SQLite store, its audit writer included (run it with
// -cpu 1 to count the writer's time too), against the lookup alone.
func BenchmarkLookup(b *testing.B) {
	ctx := context.Background()
	now := func() time.Time { return testNow }
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), &sqlite.Opts{Now: now})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	o := &service.Owner{Name: "Ada Lindqvist", Address: "3401 Chicago Ave", City: "Minneapolis", State: "MN", Postcode: "55407", Phone: "612-555-0147"}
	if err := st.CreateOwner(ctx, o); err != nil {
		b.Fatal(err)
	}
	a := &service.Animal{OwnerID: o.ID, Name: "Biscuit", Species: service.Dog, Breed: "Labrador mix", Colour: "yellow", Sex: service.Male, Altered: true}
	if err := st.CreateAnimal(ctx, a); err != nil {
		b.Fatal(err)
	}
	const chip = "985121004515220"
	if err := st.AddChip(ctx, &service.Chip{AnimalID: a.ID, Code: chip, Kind: "iso11784", Manufacturer: "HomeAgain"}); err != nil {
		b.Fatal(err)
	}
	secret, err := st.CreateToken(ctx, &service.Token{Name: "bench", Role: service.RoleOfficer, Site: "desk"})
	if err != nil {
		b.Fatal(err)
	}
	rs, err := rules.Embedded()
	if err != nil {
		b.Fatal(err)
	}
	lk, err := lookup.New(&lookup.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		b.Fatal(err)
	}
	api, err := httpapi.New(&httpapi.Opts{Store: st, Lookup: lk, Now: time.Now})
	if err != nil {
		b.Fatal(err)
	}
	defer api.Close()

	b.Run("lookup alone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := lk.ByChip(ctx, chip); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handler", func(b *testing.B) {
		req, err := http.NewRequest(http.MethodGet, "/api/v1/lookup?chip="+chip, nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+secret)
		w := &discardWriter{h: http.Header{}}
		b.ReportAllocs()
		for b.Loop() {
			clear(w.h)
			w.code, w.n = 0, 0
			api.ServeHTTP(w, req)
			if w.code != http.StatusOK && w.code != 0 || w.n == 0 {
				b.Fatalf("lookup answered %d, %d bytes", w.code, w.n)
			}
		}
	})
}
