package bench

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
	"github.com/chipdesk/chipdesk/service/money/smtptest"
	"github.com/chipdesk/chipdesk/service/rules"
	"github.com/chipdesk/chipdesk/service/store/sqlite"
)

// Reminder run figures (issue: money, renewal reminders).
const (
	targetRemind      = 60      // s for 100,000 licences
	remindFull        = 100_000 // licences at the full size
	remindConns       = 4       // the reminders command's --smtp-conns
	remindBatch       = 1       // and its --batch
	remindMinLicences = 500
)

// FillReminders writes n owners, each with a dog and a Minneapolis
// licence, straight into a new SQLite database at path (the store's own
// writes would take minutes at these sizes): licences issued through
// 2026 on its days in turn, all expiring on 2027-01-31. A domain gives
// every owner an e-mail address there ("owner17@domain"); "" none.
func FillReminders(ctx context.Context, path string, n int, domain string) error {
	st, err := sqlite.Open(ctx, path, nil) // makes the schema
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	st.Close()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(OFF)&_pragma=cache_size(-262144)")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer db.Close()
	email := "''"
	if domain != "" {
		email = "'owner' || i || '@" + strings.ReplaceAll(domain, "'", "") + "'"
	}
	const stamp = "'2026-01-01T00:00:00.000000000Z'"
	for _, q := range []string{
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO owners (id, name, address, city, email, created_at, updated_at)
		SELECT i, 'Owner ' || i, i || ' Lake St', 'Minneapolis', ` + email + `, ` + stamp + `, ` + stamp + ` FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO animals (id, owner_id, name, species, altered, created_at, updated_at)
		SELECT i, i, 'Rex', CASE i % 3 WHEN 0 THEN 'cat' ELSE 'dog' END, i % 2, ` + stamp + `, ` + stamp + ` FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO licences (id, animal_id, kind, jurisdiction, year, tag_number, issued_on, expires_on, status, fee_cents,
			fee_code, issued_by, created_at)
		SELECT i, i, 'licence', 'minneapolis', 2026, i, date('2026-01-01', '+' || (i % 365) || ' days'), '2027-01-31', 'active',
			CASE i % 2 WHEN 1 THEN 1500 ELSE 3000 END, CASE i % 2 WHEN 1 THEN 'altered' ELSE 'unaltered' END, 'office', ` + stamp + ` FROM n`,
		`ANALYZE`,
	} {
		if _, err := db.ExecContext(ctx, q, n); err != nil {
			return fmt.Errorf("bench: filling the reminder database: %w", err)
		}
	}
	return nil
}

// RemindersBefore is the window's end that FillReminders' licences fall
// in.
var RemindersBefore = service.MustDate("2027-02-01")

// remindLicences is the number of licences the reminder run covers for
// a data set of n animals: 100,000 at the full size, in proportion.
func remindLicences(n int) int {
	return max(remindMinLicences, int(int64(n)*remindFull/fullSize))
}

// reminderFigures times a reminder run (money.Service.Remind, as
// "chipdesk reminders" runs it: remindConns connections, batch
// remindBatch) over remindLicences(n) licences, each owner with an
// e-mail address, against the SMTP server o.SMTP names (the local
// aiosmtpd of the test command), else the in-process smtptest server.
// When the server is a local process this one may read, its CPU time
// per message is added beside: what the server alone costs each
// message, the run's floor on this machine.
func reminderFigures(ctx context.Context, r *Report, o *Opts, now func() time.Time, dir string, n int, step func(string, ...any)) error {
	k := remindLicences(n)
	if o.Reminders > 0 {
		k = o.Reminders
	}
	target := targetRemind * float64(k) / remindFull
	path := filepath.Join(dir, "reminders.db")
	for _, p := range []string{path, path + "-wal", path + "-shm", sqlite.AuditPath(path)} {
		os.Remove(p)
	}
	domain := fmt.Sprintf("bench%d-%d.example.org", os.Getpid(), time.Now().UnixNano())
	step("filling %s licences for the reminder run", thousands(float64(k)))
	if err := FillReminders(ctx, path, k, domain); err != nil {
		return err
	}
	addr, server := o.SMTP, ""
	count := func() int { return -1 }
	if addr == "" {
		srv, err := smtptest.Start(nil)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer srv.Close()
		addr, server = srv.Addr(), "the in-process test server (smtptest)"
		count = func() int { return len(srv.Messages()) }
	}
	pid, name := listenerProcess(addr)
	if server == "" {
		server = "the SMTP server at " + addr
		if name != "" {
			server = name + " at " + addr
		}
	}
	st, err := sqlite.Open(ctx, path, &sqlite.Opts{Now: now})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer st.Close()
	rs, err := rules.Embedded()
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	m, err := money.New(&money.Opts{Store: st, Rules: rs, Now: now})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	ro := &money.RemindOpts{Before: RemindersBefore, Batch: remindBatch, City: "City of Minneapolis",
		RenewURL: "https://counter.example.org/renew?licence="}
	for range remindConns {
		mailer, err := money.NewSMTP(&money.SMTPOpts{Addr: addr, From: "licensing@minneapolismn.gov", TLS: money.TLSAuto, Now: now})
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer mailer.Close()
		ro.Mailers = append(ro.Mailers, mailer)
	}
	step("reminder run of %s licences against %s", thousands(float64(k)), server)
	var cpu0 time.Duration
	if pid > 0 {
		if cpu0, err = procCPU(pid); err != nil {
			pid = 0
		}
	}
	t0 := time.Now()
	res, err := m.Remind(ctx, ro)
	elapsed := time.Since(t0)
	var serverCPU time.Duration
	if pid > 0 && err == nil {
		if cpu1, cerr := procCPU(pid); cerr == nil {
			serverCPU = cpu1 - cpu0
		} else {
			pid = 0
		}
	}
	if o.SMTPMaildir != "" && o.SMTP != "" {
		// The messages of this run leave the server's Maildir.
		if got := smtptest.RemoveDelivered(o.SMTPMaildir, domain); got != k && err == nil {
			return fmt.Errorf("bench: the Maildir %s holds %d messages of the reminder run, want %d", o.SMTPMaildir, got, k)
		}
	}
	if err != nil {
		return fmt.Errorf("bench: reminder run: %w", err)
	}
	if res.Sent != k || (count() != -1 && count() != k) {
		return fmt.Errorf("bench: reminder run sent %d (%d received), want %d", res.Sent, count(), k)
	}
	note := fmt.Sprintf("against %s; %d connections, batch %d; %.2f ms per message", server, remindConns, remindBatch, msf(elapsed)/float64(k))
	if k != remindFull {
		note += "; target 60 s for 100,000, in proportion"
	}
	r.add(Figure{Name: "reminder run, " + thousands(float64(k)) + " licences", Value: elapsed.Seconds(), Unit: "s",
		Target: target, Better: Lower, Note: note})
	switch {
	case pid > 0:
		per := serverCPU / time.Duration(k)
		r.add(Figure{Name: "  SMTP server CPU per message", Value: msf(per), Unit: "ms",
			Note: fmt.Sprintf("%s (pid %d), utime+stime of /proc before and after the run: 100,000 messages cost it %s of one core, the run's floor", orName(name), pid,
				format(per.Seconds()*remindFull, "s"))})
	case o.SMTP != "":
		r.add(Figure{Name: "  SMTP server CPU per message", Unit: "ms", Skipped: "the server at " + addr + " is not a process of this machine that can be read"})
	}
	return nil
}

func orName(s string) string {
	if s == "" {
		return "the server"
	}
	return s
}

// listenerProcess finds the local process listening on addr (an IPv4
// "host:port") from /proc/net/tcp and the sockets among the processes'
// descriptors (proc(5)), and names it: "aiosmtpd" when its command line
// says so, else its command. It answers 0 when there is none or it
// cannot be read (another user's process, not Linux).
func listenerProcess(addr string) (int, string) {
	_, ps, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, ""
	}
	port, err := strconv.Atoi(ps)
	if err != nil {
		return 0, ""
	}
	inode := ""
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			// local_address rem_address st ... inode (the tenth field);
			// st 0A is LISTEN.
			if len(fs) < 10 || fs[3] != "0A" {
				continue
			}
			i := strings.LastIndexByte(fs[1], ':')
			if p, err := strconv.ParseUint(fs[1][i+1:], 16, 16); err == nil && int(p) == port {
				inode = fs[9]
				break
			}
		}
		if inode != "" {
			break
		}
	}
	if inode == "" || inode == "0" {
		return 0, ""
	}
	want := "socket:[" + inode + "]"
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if l, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name())); err == nil && l == want {
				return pid, processName(pid)
			}
		}
	}
	return 0, ""
}

func processName(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return ""
	}
	cmd := strings.ReplaceAll(strings.TrimRight(string(b), "\x00"), "\x00", " ")
	if strings.Contains(cmd, "aiosmtpd") {
		return "aiosmtpd"
	}
	if f := strings.Fields(cmd); len(f) > 0 {
		return filepath.Base(f[0])
	}
	return ""
}
