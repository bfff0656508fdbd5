package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/access"
)

// runUser is "chipdesk user create|passwd|disable|list": the staff
// accounts people sign in to the pages with. create and passwd read the
// password from standard input, one line, so it stays out of the
// process list and the shell history. A disabled account's sessions end
// within a second in every running service (service/access).
func runUser(ctx context.Context, e *cmdline.Env, args []string) error {
	if len(args) == 0 {
		return cmdline.UsageError("user: want create, passwd, disable or list")
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("user "+sub, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	var (
		db   = fs.String("db", envOr("CHIPDESK_DB", defaultConfig().DB), "SQLite database `file` or postgres:// URL")
		name = fs.String("name", "", "account `name`, as the person signs in and the audit log names them")
		role = fs.String("role", "", "`role`: admin, clinic, intake or officer (create)")
		site = fs.String("site", "", "`site` or clinic the account belongs to (create)")
	)
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	}
	if fs.NArg() != 0 {
		return cmdline.UsageError("user %s: unexpected argument %q", sub, fs.Arg(0))
	}
	if sub != "list" && *name == "" {
		return cmdline.UsageError("user %s: --name required", sub)
	}
	open := func() (backend, service.UserService, error) {
		st, err := openStore(ctx, *db, e.Now)
		if err != nil {
			return nil, nil, err
		}
		us, ok := st.(service.UserService)
		if !ok {
			st.Close()
			return nil, nil, fmt.Errorf("user: %T keeps no accounts", st)
		}
		return st, us, nil
	}
	// change runs fn under a context carrying the change's audit event,
	// which the store writes in fn's transaction.
	change := func(st backend, action string, id int64, detail string, fn func(ctx context.Context) (int64, error)) error {
		cctx, ch := service.WithChange(ctx, &service.AuditEvent{At: e.Now().UTC(), Actor: "chipdesk user", Action: action,
			Entity: "user", EntityID: id, Detail: detail})
		id, err := fn(cctx)
		if err != nil || ch.Stored() {
			return err
		}
		if ch.Event.EntityID == 0 {
			ch.Event.EntityID = id
		}
		return st.CreateAuditEvent(ctx, ch.Event)
	}
	// byName is the id of the account named.
	byName := func(us service.UserService) (int64, error) {
		u, err := us.FindUserByName(ctx, *name)
		if err != nil {
			return 0, err
		}
		return u.ID, nil
	}
	switch sub {
	case "create", "passwd":
		r := service.Role(*role)
		if sub == "create" && (!r.Valid() || r == service.RolePublic) {
			return cmdline.UsageError("user create: --role must be admin, clinic, intake or officer")
		}
		pw, err := readPassword(e.Stdin)
		if err != nil {
			return err
		}
		hash, err := access.HashPassword(pw)
		if err != nil {
			return err
		}
		st, us, err := open()
		if err != nil {
			return err
		}
		defer st.Close()
		if sub == "passwd" {
			id, err := byName(us)
			if err != nil {
				return err
			}
			if err := change(st, "user.passwd", id, "", func(ctx context.Context) (int64, error) {
				return id, us.SetUserPassword(ctx, *name, hash)
			}); err != nil {
				return err
			}
			fmt.Fprintf(e.Stderr, "account %q: password changed\n", *name)
			return nil
		}
		u := &service.User{Name: *name, Role: r, Site: *site, Hash: hash}
		if err := change(st, "user.create", 0, string(r), func(ctx context.Context) (int64, error) {
			err := us.CreateUser(ctx, u)
			return u.ID, err
		}); err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "account %d %q, role %s created\n", u.ID, u.Name, u.Role)
		return nil
	case "disable":
		st, us, err := open()
		if err != nil {
			return err
		}
		defer st.Close()
		id, err := byName(us)
		if err != nil {
			return err
		}
		if err := change(st, "user.disable", id, "", func(ctx context.Context) (int64, error) {
			return id, us.DisableUser(ctx, *name)
		}); err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "account %q disabled\n", *name)
		return nil
	case "list":
		st, us, err := open()
		if err != nil {
			return err
		}
		defer st.Close()
		all, err := us.FindUsers(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tROLE\tSITE\tCREATED\tSTATE")
		for _, u := range all {
			state := "active"
			if !u.Usable() {
				state = "disabled"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", u.ID, u.Name, u.Role, u.Site, u.CreatedAt.Format(time.DateOnly), state)
		}
		return tw.Flush()
	}
	return cmdline.UsageError("user: unknown subcommand %q (want create, passwd, disable or list)", sub)
}

// readPassword reads one line from r: the password, without its line
// ending.
func readPassword(r io.Reader) (string, error) {
	if r == nil {
		return "", errors.New("user: the password is read from standard input")
	}
	line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("user: reading the password: %w", err)
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", errors.New("user: no password on standard input (one line)")
	}
	return line, nil
}
