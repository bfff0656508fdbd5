package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
)

// auditPolicy is the audit log's retention. Every event is kept whole
// except the lookups' (service.LookupActionPrefix), one per lookup:
// those of the UTC days ending more than KeepLookupsDays ago are
// replaced by their per-day counts (who looked up which chip or animal,
// on which day, how often, first and last), so that an audit still
// answers who looked up what and when, to the day.
type auditPolicy struct {
	// KeepLookupsDays is how many days of lookup events are kept whole;
	// 0 keeps all of them.
	KeepLookupsDays int `toml:"keep_lookups_days"`
}

// defaultKeepLookupsDays keeps a year of lookups whole: an annual audit
// reads them event by event.
const defaultKeepLookupsDays = 365

func (p auditPolicy) check() error {
	if p.KeepLookupsDays < 0 {
		return fmt.Errorf("config: audit.keep_lookups_days %d: want 0 (keep every lookup event) or more days", p.KeepLookupsDays)
	}
	return nil
}

// before is the instant before which lookup events are compacted at
// now: the start of the UTC day KeepLookupsDays before today's; the zero
// time when nothing is compacted.
func (p auditPolicy) before(now time.Time) time.Time {
	if p.KeepLookupsDays == 0 {
		return time.Time{}
	}
	return service.DateIn(now, time.UTC).AddDays(-p.KeepLookupsDays).Time(time.UTC)
}

const auditUsage = `usage: chipdesk audit compact [--config FILE] [--db DB] [--keep-lookups-days N]
       chipdesk audit counts [--db DB] [--actor NAME] [--entity KIND] [--entity-id ID] [--since YYYY-MM-DD]

compact applies the audit log's retention ([audit] keep_lookups_days
in the config file, default 365): the lookups' events of the days
before are replaced by their per-day counts, one day per transaction.
Every other event (changes, views, refusals) is kept whole.
counts prints the counts as CSV, newest day first.`

// runAudit is "chipdesk audit compact|counts".
func runAudit(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 {
		return cmdline.UsageError("audit: want compact or counts")
	}
	sub, args := args[0], args[1:]
	c := defaultConfig()
	path, named := configPath(args)
	if !named {
		path, named = os.Getenv("CHIPDESK_CONFIG"), os.Getenv("CHIPDESK_CONFIG") != ""
	}
	if named {
		if err := loadConfigFile(&c, path, true); err != nil {
			return err
		}
	}
	if err := applyEnv(&c, os.Getenv); err != nil {
		return err
	}
	if err := c.Audit.check(); err != nil {
		return err
	}
	fs := flag.NewFlagSet("audit "+sub, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() { fmt.Fprintln(e.Stderr, auditUsage); fs.PrintDefaults() }
	fs.String("config", path, "TOML config `file` (also CHIPDESK_CONFIG)")
	db := fs.String("db", c.DB, "SQLite database `file` or postgres:// URL")
	keep := fs.Int("keep-lookups-days", c.Audit.KeepLookupsDays, "`days` of lookup events kept whole (compact; 0 keeps all)")
	actor := fs.String("actor", "", "the counts of one `actor` (counts)")
	entity := fs.String("entity", "", "the counts of one `kind` of record: animal (counts)")
	entityID := fs.Int64("entity-id", 0, "the counts of one record `id` (counts)")
	since := fs.String("since", "", "the counts from `day` YYYY-MM-DD on (counts)")
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	}
	if fs.NArg() > 0 {
		return cmdline.UsageError("audit %s: unexpected argument %q", sub, fs.Arg(0))
	}
	switch sub {
	case "compact":
		p := auditPolicy{KeepLookupsDays: *keep}
		if err := p.check(); err != nil {
			return cmdline.UsageError("audit compact: --keep-lookups-days: %v", err)
		}
		before := p.before(e.Now())
		if before.IsZero() {
			fmt.Fprintln(e.Stdout, "keep_lookups_days is 0: every lookup event is kept; nothing compacted")
			return nil
		}
		st, err := openStore(ctx, *db, e.Now)
		if err != nil {
			return err
		}
		defer st.Close()
		var events, counts int64
		done, err := service.CompactAuditLog(ctx, st, before, func(cp *service.AuditCompaction) {
			fmt.Fprintf(e.Stdout, "%s  %d lookup events counted in %d rows (compaction %d)\n", cp.Day, cp.Events, cp.Counts, cp.ID)
			events += cp.Events
			counts += cp.Counts
		})
		if err != nil {
			return fmt.Errorf("audit compact: stopped after %d days (each compacted whole; the rest untouched): %w", len(done), err)
		}
		fmt.Fprintf(e.Stdout, "compacted %d lookup events before %s into %d counts over %d days\n", events, before.Format(time.DateOnly), counts, len(done))
		return nil
	case "counts":
		f := service.AuditFilter{}
		if *actor != "" {
			f.Actor = actor
		}
		if *entity != "" {
			f.Entity = entity
		}
		if *entityID != 0 {
			f.EntityID = entityID
		}
		if *since != "" {
			d, err := service.ParseDateField("since", *since)
			if err != nil {
				return cmdline.UsageError("audit counts: --since: %v", err)
			}
			t := d.Time(time.UTC)
			f.Since = &t
		}
		st, err := openStore(ctx, *db, e.Now)
		if err != nil {
			return err
		}
		defer st.Close()
		counts, _, err := st.FindAuditCounts(ctx, f)
		if err != nil {
			return err
		}
		w := csv.NewWriter(e.Stdout)
		w.Write([]string{"day", "actor", "role", "site", "token_id", "action", "entity", "entity_id", "detail", "events", "first_at", "last_at", "compaction_id"})
		for _, k := range counts {
			w.Write([]string{k.Day.String(), k.Actor, string(k.Role), k.Site, strconv.FormatInt(k.TokenID, 10), k.Action, k.Entity,
				strconv.FormatInt(k.EntityID, 10), k.Detail, strconv.FormatInt(k.Events, 10), k.FirstAt.UTC().Format(time.RFC3339Nano),
				k.LastAt.UTC().Format(time.RFC3339Nano), strconv.FormatInt(k.CompactionID, 10)})
		}
		w.Flush()
		return w.Error()
	}
	return cmdline.UsageError("audit: unknown subcommand %q (want compact or counts)", sub)
}
