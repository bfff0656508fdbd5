package filter

import (
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// Op is how a condition compares its column.
type Op int

// Comparisons.
const (
	Eq       Op = iota // Col = Val
	Ge                 // Col >= Val
	Lt                 // Col < Val
	Contains           // Col holds the string Val, ignoring ASCII case
	Empty              // Col = '' (no Val)
	NotEmpty           // Col <> '' (no Val)
)

// Cond is one condition on a column. Val is a Go value of the filter:
// a string (or a string type), an int or int64, a service.Date or a
// time.Time.
type Cond struct {
	Col string
	Op  Op
	Val any
}

// eq appends Col = *v when v is set.
func eq[T any](cs []Cond, col string, v *T) []Cond {
	if v == nil {
		return cs
	}
	return append(cs, Cond{Col: col, Op: Eq, Val: *v})
}

// cmp appends Col op *v when v is set.
func cmp[T any](cs []Cond, col string, op Op, v *T) []Cond {
	if v == nil {
		return cs
	}
	return append(cs, Cond{Col: col, Op: op, Val: *v})
}

// Owners selects owners.
func Owners(f service.OwnerFilter) []Cond {
	cs := eq(nil, "id", f.ID)
	return cmp(cs, "name", Contains, f.Name)
}

// Animals selects animals.
func Animals(f service.AnimalFilter) []Cond {
	cs := eq(nil, "id", f.ID)
	cs = eq(cs, "owner_id", f.OwnerID)
	cs = eq(cs, "species", f.Species)
	return cmp(cs, "name", Contains, f.Name)
}

// Licences selects licences.
func Licences(f service.LicenceFilter) []Cond {
	cs := eq(nil, "animal_id", f.AnimalID)
	cs = eq(cs, "jurisdiction", f.Jurisdiction)
	cs = eq(cs, "year", f.Year)
	cs = eq(cs, "status", f.Status)
	cs = cmp(cs, "expires_on", Lt, f.ExpiresBefore)
	cs = cmp(cs, "issued_on", Ge, f.IssuedSince)
	return eq(cs, "site", f.Site)
}

// Impounds selects impoundments; Open is those without a disposition.
func Impounds(f service.ImpoundFilter) []Cond {
	cs := eq(nil, "animal_id", f.AnimalID)
	if f.Open != nil {
		op := NotEmpty
		if *f.Open {
			op = Empty
		}
		cs = append(cs, Cond{Col: "disposition", Op: op})
	}
	cs = cmp(cs, "intake_on", Ge, f.Since)
	if f.EndedSince != nil {
		cs = append(cs, Cond{Col: "disposition", Op: NotEmpty}, Cond{Col: "disposition_on", Op: Ge, Val: *f.EndedSince})
	}
	return eq(cs, "site", f.Site)
}

// Scans selects scans.
func Scans(f service.ScanFilter) []Cond {
	cs := eq(nil, "chip_code", f.ChipCode)
	cs = eq(cs, "site", f.Site)
	cs = eq(cs, "user_name", f.User)
	return cmp(cs, "at", Ge, f.Since)
}

// Audit selects audit events.
func Audit(f service.AuditFilter) []Cond {
	cs := eq(nil, "actor", f.Actor)
	cs = eq(cs, "site", f.Site)
	cs = eq(cs, "entity", f.Entity)
	cs = eq(cs, "entity_id", f.EntityID)
	return cmp(cs, "at", Ge, f.Since)
}

// AuditCounts selects the counts of compacted lookups: Since by the
// day counted.
func AuditCounts(f service.AuditFilter) []Cond {
	cs := eq(nil, "actor", f.Actor)
	cs = eq(cs, "site", f.Site)
	cs = eq(cs, "entity", f.Entity)
	cs = eq(cs, "entity_id", f.EntityID)
	if f.Since != nil {
		cs = append(cs, Cond{Col: "day", Op: Ge, Val: service.DateIn(*f.Since, time.UTC)})
	}
	return cs
}

// Jobs selects print and engrave jobs.
func Jobs(f service.JobFilter) []Cond {
	cs := eq(nil, "state", f.State)
	return eq(cs, "licence_id", f.LicenceID)
}

// TagBatches selects tag batches.
func TagBatches(f service.TagBatchFilter) []Cond {
	cs := eq(nil, "state", f.State)
	cs = eq(cs, "jurisdiction", f.Jurisdiction)
	return eq(cs, "year", f.Year)
}

// EscapeLike escapes the LIKE wildcards % and _ and the escape
// character \ of s, for a pattern with ESCAPE '\': a search for "_" or
// "%" finds those characters, not every row.
func EscapeLike(s string) string {
	return likeEscaper.Replace(s)
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
