// Command chipdesk runs the chipdesk service (serve, demo) and its admin
// commands (token, user, import, export, tag, print, audit, migrate, sync, reminders, bench).
//
// Each subcommand lives in its own file and is listed in commands below.
package main

import "github.com/chipdesk/chipdesk/internal/cmdline"

func commands() []cmdline.Command {
	return []cmdline.Command{
		{Name: "serve", Summary: "serve the API and pages, run the configured readers and printers until signalled", Run: runServe},
		{Name: "demo", Summary: "the service on a temporary seeded database with a simulated reader and printer; prints the URL", Run: runDemo},
		{Name: "token", Summary: "create, revoke or list API tokens", Run: runToken},
		{Name: "user", Summary: "create, change the password of, disable or list staff accounts", Run: runUser},
		{Name: "import", Summary: "import CSV files (owners, animals, chips, licences, vaccinations), all or nothing", Run: runImport},
		{Name: "export", Summary: "export every table as CSV files", Run: runExport},
		{Name: "tag", Summary: "licence tag designs, rendering (png, svg, zpl, paths) and check codes", Run: runTag},
		{Name: "print", Summary: "print or engrave licence tags and pre-numbered batches; job list", Run: runPrint},
		{Name: "engrave", Summary: "laser station: home, unlock, jog, origin, frame, overrides; G-code export and test grid", Run: runEngrave},
		{Name: "audit", Summary: "compact old lookup events into per-day counts by the configured retention; print the counts", Run: runAudit},
		{Name: "migrate", Summary: "copy an SQLite database into PostgreSQL, or back", Run: runMigrate},
		{Name: "sync", Summary: "offline handheld: look up and queue scans offline, push and pull when online", Run: runSync},
		{Name: "reminders", Summary: "send licence renewal reminders by e-mail, or print letters, once per owner", Run: runReminders},
		{Name: "bench", Summary: "measure lookups, scans, import, demodulation, tags and memory against their targets", Run: runBench},
	}
}

func main() { cmdline.Main("chipdesk", commands()) }
