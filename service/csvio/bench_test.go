package csvio_test

import (
	"bytes"
	"context"
	"flag"
	"io"
	"runtime/pprof"
	"testing"

	"github.com/chipdesk/chipdesk/service/csvio"
)

var benchAnimals = flag.Int("animals", 100000, "animals (and licences) in the import benchmarks")

// BenchmarkImportLicences times the import of a licences file of
// -animals rows into a store that already holds the animals: the import
// target (20 s for 1,000,000 licences) at full size is
//
//	go test -run '^$' -bench 'ImportLicences$' -benchtime 1x ./service/csvio/ -args -animals 1000000
//
// A CPU profile's "phase=licences" label (pprof -tagfocus) tells the
// import from the setup.
func BenchmarkImportLicences(b *testing.B) {
	n := *benchAnimals
	bufs := generate(b, n)
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		db := openDB(b)
		if _, err := csvio.Import(ctx, db, map[csvio.Table]io.Reader{
			csvio.Owners:  bytes.NewReader(bufs[csvio.Owners].Bytes()),
			csvio.Animals: bytes.NewReader(bufs[csvio.Animals].Bytes()),
		}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		// The label lets a CPU profile tell this import from the setup.
		pprof.Do(ctx, pprof.Labels("phase", "licences"), func(ctx context.Context) {
			if _, err := csvio.Import(ctx, db, map[csvio.Table]io.Reader{csvio.Licences: bytes.NewReader(bufs[csvio.Licences].Bytes())}); err != nil {
				b.Fatal(err)
			}
		})
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "licences/s")
}

// BenchmarkImportAll times the import of all five files for -animals
// animals into an empty store.
func BenchmarkImportAll(b *testing.B) {
	n := *benchAnimals
	bufs := generate(b, n)
	ctx := context.Background()
	rows := 0
	for _, t := range csvio.Tables {
		rows += bytes.Count(bufs[t].Bytes(), []byte("\n")) - 1
	}
	for b.Loop() {
		b.StopTimer()
		db := openDB(b)
		b.StartTimer()
		if _, err := csvio.Import(ctx, db, readers(bufs)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
