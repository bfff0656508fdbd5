package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
)

// runToken is "chipdesk token create|revoke|list".
func runToken(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 {
		return cmdline.UsageError("token: want create, revoke or list")
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("token "+sub, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	db := fs.String("db", envOr("CHIPDESK_DB", defaultConfig().DB), "SQLite database `file` or postgres:// URL")
	var (
		role = fs.String("role", "", "`role`: admin, clinic, intake, officer or public (create)")
		name = fs.String("name", "", "token `name`, shown in the audit log (create; default ROLE-DATE)")
		site = fs.String("site", "", "`site` or clinic the token belongs to (create)")
		ttl  = fs.Duration("expires-in", 0, "token lifetime, e.g. 8760h; 0 never expires (create)")
	)
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	}
	switch sub {
	case "create":
		if fs.NArg() != 0 {
			return cmdline.UsageError("token create: unexpected argument %q", fs.Arg(0))
		}
		r := service.Role(*role)
		if !r.Valid() {
			return cmdline.UsageError("token create: --role must be admin, clinic, intake, officer or public")
		}
		st, err := openStore(ctx, *db, e.Now)
		if err != nil {
			return err
		}
		defer st.Close()
		t := &service.Token{Name: *name, Role: r, Site: *site}
		if t.Name == "" {
			t.Name = fmt.Sprintf("%s-%s", r, e.Now().UTC().Format("20060102-150405"))
		}
		if *ttl > 0 {
			t.ExpiresAt = e.Now().Add(*ttl).UTC()
		}
		// The event commits with the token (service.WithChange).
		cctx, ch := service.WithChange(ctx, &service.AuditEvent{At: e.Now().UTC(), Actor: "chipdesk token", Action: "token.create", Entity: "token", Detail: string(r)})
		secret, err := st.CreateToken(cctx, t)
		if err != nil {
			return err
		}
		if !ch.Stored() {
			ch.Event.EntityID = t.ID
			if err := st.CreateAuditEvent(ctx, ch.Event); err != nil {
				return err
			}
		}
		fmt.Fprintln(e.Stdout, secret)
		fmt.Fprintf(e.Stderr, "token %d %q, role %s: keep the secret above, it is not shown again\n", t.ID, t.Name, t.Role)
		return nil
	case "revoke":
		if fs.NArg() != 1 {
			return cmdline.UsageError("token revoke: want one token id")
		}
		id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
		if err != nil || id <= 0 {
			return cmdline.UsageError("token revoke: bad id %q", fs.Arg(0))
		}
		st, err := openStore(ctx, *db, e.Now)
		if err != nil {
			return err
		}
		defer st.Close()
		cctx, ch := service.WithChange(ctx, &service.AuditEvent{At: e.Now().UTC(), Actor: "chipdesk token", Action: "token.revoke", Entity: "token", EntityID: id})
		if err := st.RevokeToken(cctx, id); err != nil {
			return err
		}
		if !ch.Stored() {
			if err := st.CreateAuditEvent(ctx, ch.Event); err != nil {
				return err
			}
		}
		fmt.Fprintf(e.Stderr, "token %d revoked\n", id)
		return nil
	case "list":
		st, err := openStore(ctx, *db, e.Now)
		if err != nil {
			return err
		}
		defer st.Close()
		ts, err := st.FindTokens(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tROLE\tSITE\tCREATED\tSTATE")
		for _, t := range ts {
			state := "active"
			switch {
			case !t.RevokedAt.IsZero():
				state = "revoked"
			case !t.Usable(e.Now()):
				state = "expired"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.Name, t.Role, t.Site, t.CreatedAt.Format(time.DateOnly), state)
		}
		return tw.Flush()
	}
	return cmdline.UsageError("token: unknown subcommand %q (want create, revoke or list)", sub)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
