package sqlite_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
)

// benchBatch returns n owners, each with one dog carrying one chip, a
// licence and a vaccination.
func benchBatch(n int) *service.Batch {
	b := &service.Batch{}
	for i := 1; i <= n; i++ {
		id := int64(i)
		b.Owners = append(b.Owners, &service.Owner{ID: id, Name: fmt.Sprintf("Owner %d", i), Address: "1 Main St"})
		b.Animals = append(b.Animals, &service.Animal{ID: id, OwnerID: id, Name: "Rex", Species: service.Dog, Altered: i%2 == 0})
		b.Chips = append(b.Chips, &service.Chip{ID: id, AnimalID: id, Code: fmt.Sprintf("985%012d", i), Kind: chipid.KindISO})
		b.Licences = append(b.Licences, &service.Licence{ID: id, AnimalID: id, Jurisdiction: "minneapolis", TagNumber: i,
			IssuedOn: service.MustDate("2026-02-01"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 1500})
		b.Vaccinations = append(b.Vaccinations, &service.RabiesVaccination{ID: id, AnimalID: id, Date: service.MustDate("2025-06-01")})
	}
	return b
}

var benchRecords = flag.Int("records", 20000, "animals in the lookup benchmarks")

// BenchmarkFindRecordByChip looks up random chips among -records animals
// from parallel goroutines, as the HTTP server does.
func BenchmarkFindRecordByChip(b *testing.B) {
	n := *benchRecords
	db := MustOpen(b, func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) })
	if err := db.Import(context.Background(), benchBatch(n)); err != nil {
		b.Fatal(err)
	}
	// An HTTP request's context can end; context.Background cannot, and
	// database/sql and the driver watch only those that can.
	request, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, bc := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"request", request}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
				for pb.Next() {
					if _, err := db.FindRecordByChip(bc.ctx, fmt.Sprintf("985%012d", rng.IntN(n)+1)); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkFindOwnerByID is the cost of one point query, for scale.
func BenchmarkFindOwnerByID(b *testing.B) {
	n := *benchRecords
	db := MustOpen(b, nil)
	ctx := context.Background()
	if err := db.Import(ctx, benchBatch(n)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			if _, err := db.FindOwnerByID(ctx, int64(i%n+1)); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkIssueLicenceAudited issues licences with their audit event
// the two ways, in one run: "separate", the event written after the
// licence in a transaction of the audit log of its own (as the HTTP
// layer's audit queue did, and still does for a store without
// changes), and "with-change", the event written in the licence's own
// transaction and moved to the audit log after the commit.
func BenchmarkIssueLicenceAudited(b *testing.B) {
	db := MustOpen(b, func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC) })
	ctx := context.Background()
	if err := db.Import(ctx, benchBatch(1000)); err != nil {
		b.Fatal(err)
	}
	licence := func(i int) *service.Licence {
		return &service.Licence{AnimalID: int64(i%1000 + 1), Jurisdiction: "minneapolis",
			IssuedOn: service.MustDate("2026-03-15"), ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 1500}
	}
	event := func() *service.AuditEvent {
		return &service.AuditEvent{Actor: "counter-1", Role: service.RoleIntake, Action: "licence.create", Entity: "licence"}
	}
	b.Run("separate", func(b *testing.B) {
		for i := range b.N {
			l := licence(i)
			if err := db.CreateLicence(ctx, l); err != nil {
				b.Fatal(err)
			}
			ev := event()
			ev.EntityID = l.ID
			if err := db.CreateAuditEvent(ctx, ev); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("with-change", func(b *testing.B) {
		for i := range b.N {
			cctx, ch := service.WithChange(ctx, event())
			if err := db.CreateLicence(cctx, licence(i)); err != nil || !ch.Stored() {
				b.Fatal(err, ch.Stored())
			}
		}
	})
}
