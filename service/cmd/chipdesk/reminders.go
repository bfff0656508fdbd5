package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/money"
)

// runReminders is "chipdesk reminders": one renewal reminder to each
// owner of a licence expiring in the window, by e-mail through SMTP or,
// for owners without an address, as a printable letter. The outbox in
// the database makes a second run, or a run after a crash, send none
// twice.
func runReminders(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("reminders", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	var (
		db       = fs.String("db", envOr("CHIPDESK_DB", defaultConfig().DB), "SQLite database `file` or postgres:// URL")
		before   = fs.String("expiring-before", "", "remind of licences expiring before this `date` (YYYY-MM-DD)")
		after    = fs.String("expiring-after", "", "and on or after this `date` (default: any)")
		addr     = fs.String("smtp", envOr("CHIPDESK_SMTP", ""), "SMTP server `host:port`; without it e-mails stay queued")
		from     = fs.String("from", envOr("CHIPDESK_MAIL_FROM", ""), "sender `address`")
		tlsMode  = fs.String("smtp-tls", money.TLSAuto, "`mode`: auto (STARTTLS when offered), required, none")
		ca       = fs.String("smtp-ca", "", "PEM `file` of the CA that signed the server's certificate (default: the system's)")
		user     = fs.String("smtp-user", envOr("CHIPDESK_SMTP_USER", ""), "SMTP AUTH `user`; the password is $CHIPDESK_SMTP_PASSWORD")
		letters  = fs.String("letters", "", "write the letters for owners without e-mail to this HTML `file` (one page each)")
		renewURL = fs.String("renew-url", envOr("CHIPDESK_RENEW_URL", ""), "renewal page `url` of the counter; the licence id is added")
		batch    = fs.Int("batch", 1, "e-mails claimed per commit and connection; a run killed outright leaves at most this many per connection in doubt")
		permits  = fs.Bool("permits", false, "remind permit holders too: permits expiring in the window (a kennel's renewal application due by December 1, Chanhassen 5-18(c)) and stables whose registration falls due in it (June 1, 5-105(a))")
		conns    = fs.Int("smtp-conns", 4, "`connections` to the SMTP server sending at the same time")
		jur      = fs.String("jurisdiction", envOr("CHIPDESK_JURISDICTION", defaultConfig().Jurisdiction), "the `city` whose rules and name apply")
	)
	if pos, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	} else if len(pos) > 0 {
		return cmdline.UsageError("reminders: unexpected argument %q", pos[0])
	}
	end, err := service.ParseDate(*before)
	if err != nil || end.IsZero() {
		return cmdline.UsageError("reminders: --expiring-before must be a date (YYYY-MM-DD)")
	}
	var start service.Date
	if *after != "" {
		if start, err = service.ParseDate(*after); err != nil {
			return cmdline.UsageError("reminders: --expiring-after must be a date (YYYY-MM-DD)")
		}
	}
	if *conns < 1 || *conns > 64 {
		return cmdline.UsageError("reminders: --smtp-conns must be 1 to 64")
	}
	if *addr != "" && *from == "" {
		return cmdline.UsageError("reminders: --from is required with --smtp")
	}
	rs, loc, err := loadRules(*jur)
	if err != nil {
		return err
	}
	st, err := openBackend(ctx, *db, e.Now, loc)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := money.New(&money.Opts{Store: st, Rules: rs, Now: e.Now})
	if err != nil {
		return err
	}
	o := &money.RemindOpts{Before: end, From: start, RenewURL: *renewURL, City: rs.Profile(*jur).Name, Batch: *batch, Permits: *permits}
	if *addr != "" {
		cfg, err := smtpTLS(*addr, *ca)
		if err != nil {
			return err
		}
		for range *conns {
			mailer, err := money.NewSMTP(&money.SMTPOpts{Addr: *addr, From: *from, TLS: *tlsMode, TLSConfig: cfg,
				Username: *user, Password: os.Getenv("CHIPDESK_SMTP_PASSWORD"), Now: e.Now})
			if err != nil {
				return cmdline.UsageError("reminders: %v", err)
			}
			defer mailer.Close()
			o.Mailers = append(o.Mailers, mailer)
		}
	}
	var lf *os.File
	if *letters != "" {
		// Written beside and renamed into place, so that a crash leaves
		// no half a batch.
		if lf, err = os.CreateTemp(filepath.Dir(*letters), ".letters-*"); err != nil {
			return err
		}
		defer os.Remove(lf.Name())
		defer lf.Close()
		o.Letters = lf
		o.SaveLetters = func() error {
			if err := lf.Sync(); err != nil {
				return err
			}
			if err := lf.Close(); err != nil {
				return err
			}
			return os.Rename(lf.Name(), *letters)
		}
	}
	res, err := m.Remind(ctx, o)
	if res != nil {
		fmt.Fprintf(e.Stdout, "sent %d e-mail reminders, %d letters, %d failed, %d in doubt (%d queued now)\n",
			res.Sent, res.Letters, res.Failed, res.InDoubt, res.Queued)
		if *permits {
			fmt.Fprintf(e.Stdout, "%d permit reminders queued now\n", res.PermitsQueued)
		}
		if res.NoHolder > 0 {
			fmt.Fprintf(e.Stderr, "reminders: %d expiring permits have no holder on file as an owner; write to them by hand\n", res.NoHolder)
		}
		if res.InDoubt > 0 {
			fmt.Fprintf(e.Stderr, "reminders: %d were being sent when a run stopped and are not sent again; check them\n", res.InDoubt)
		}
	}
	if err != nil {
		return err
	}
	return nil
}

// smtpTLS is the TLS configuration for server addr, trusting the CA in
// file ca when given.
func smtpTLS(addr, ca string) (*tls.Config, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, cmdline.UsageError("reminders: --smtp must be HOST:PORT")
	}
	cfg := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if ca != "" {
		pem, err := os.ReadFile(ca)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, cmdline.UsageError("reminders: --smtp-ca %s holds no PEM certificate", ca)
		}
	}
	return cfg, nil
}
