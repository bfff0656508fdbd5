package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"
	_ "time/tzdata" // the profiles' zones, also where the system has no zoneinfo

	"github.com/BurntSushi/toml"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service/jobs"
	"github.com/chipdesk/chipdesk/service/ratelimit"
	"github.com/chipdesk/chipdesk/service/rules"
)

// config is the service's configuration. Values come, each overriding
// the one before, from the defaults, the config file (TOML), the
// environment (CHIPDESK_*), and the command line.
type config struct {
	// DB is the SQLite database file, or a postgres:// URL.
	DB string `toml:"db"`
	// Listen is the HTTP address; loopback by default, so that nothing
	// is exposed until asked for.
	Listen string `toml:"listen"`
	// Readers are KIND:PORT[,opt=value...] specifications.
	Readers []string `toml:"readers"`
	// Printers are the printers and engravers that make the tags queued
	// on the pages and the API: KIND:ADDRESS[,option=value...]
	// specifications read by jobs.ParseSpec ("zpl:10.0.0.7:9100",
	// "grbl:/dev/ttyUSB0,power=0.6"). Without any, queued tags wait for
	// "chipdesk print run".
	Printers []string `toml:"printers"`
	// Previews, when set, is a folder that receives a PNG of every tag
	// the printers make.
	Previews string `toml:"previews"`
	// Site names this installation on scans of local readers.
	Site string `toml:"site"`
	// Jurisdiction is the profile (minneapolis, chanhassen) that applies
	// to an animal when nothing in its record names one; its time zone
	// is the store's.
	Jurisdiction string `toml:"jurisdiction"`
	// Locale names chip manufacturers (en_US, en_AU, ...).
	Locale string `toml:"locale"`
	// LogLevel is debug, info, warn or error; LogFormat text or json.
	LogLevel  string `toml:"log_level"`
	LogFormat string `toml:"log_format"`
	// MaxBodyBytes limits request bodies.
	MaxBodyBytes int64 `toml:"max_body_bytes"`
	// SiteScoped scopes intake and officer tokens to their site, for a
	// county with several shelters (httpapi.Opts.SiteScoped).
	SiteScoped bool `toml:"site_scoped"`
	// Limits are the rate limits of sign-in attempts, bad tokens and
	// public lookups ([limits] sign_in, bad_token, public_lookup, each
	// with per_minute and burst).
	Limits ratelimit.Config `toml:"limits"`
	// Audit is the audit log's retention ([audit]; "chipdesk audit
	// compact" applies it).
	Audit auditPolicy `toml:"audit"`
	// DevKeys allows the public development tag keys (serve --dev-keys;
	// the demo sets it).
	DevKeys bool `toml:"-"`
}

// defaultConfig is the configuration before any file, environment or flag.
func defaultConfig() config {
	return config{
		DB:           "chipdesk.db",
		Listen:       "127.0.0.1:8080",
		Jurisdiction: "minneapolis",
		Locale:       "en_US",
		LogLevel:     "info",
		LogFormat:    "text",
		MaxBodyBytes: 1 << 20,
		Limits:       ratelimit.DefaultConfig(),
		Audit:        auditPolicy{KeepLookupsDays: defaultKeepLookupsDays},
	}
}

// configEnv lists the environment variables and what they set.
var configEnv = []struct {
	name string
	set  func(c *config, v string) error
}{
	{"CHIPDESK_DB", func(c *config, v string) error { c.DB = v; return nil }},
	{"CHIPDESK_LISTEN", func(c *config, v string) error { c.Listen = v; return nil }},
	{"CHIPDESK_READERS", func(c *config, v string) error {
		// Several readers are separated by spaces or semicolons.
		c.Readers = strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ';' })
		return nil
	}},
	{"CHIPDESK_PRINTERS", func(c *config, v string) error {
		// Like the readers: separated by spaces or semicolons.
		c.Printers = strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ';' })
		return nil
	}},
	{"CHIPDESK_PREVIEWS", func(c *config, v string) error { c.Previews = v; return nil }},
	{"CHIPDESK_SITE", func(c *config, v string) error { c.Site = v; return nil }},
	{"CHIPDESK_JURISDICTION", func(c *config, v string) error { c.Jurisdiction = v; return nil }},
	{"CHIPDESK_LOCALE", func(c *config, v string) error { c.Locale = v; return nil }},
	{"CHIPDESK_LOG_LEVEL", func(c *config, v string) error { c.LogLevel = v; return nil }},
	{"CHIPDESK_LOG_FORMAT", func(c *config, v string) error { c.LogFormat = v; return nil }},
}

// loadConfigFile reads a TOML file over c. A missing file is an error
// only when must is set (it was named explicitly).
func loadConfigFile(c *config, path string, must bool) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !must {
		return nil
	} else if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	md, err := toml.Decode(string(b), c)
	if err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return fmt.Errorf("config: %s: unknown key %q", path, und[0].String())
	}
	return nil
}

// applyEnv overrides c with the CHIPDESK_* variables getenv returns.
func applyEnv(c *config, getenv func(string) string) error {
	for _, e := range configEnv {
		if v := getenv(e.name); v != "" {
			if err := e.set(c, v); err != nil {
				return fmt.Errorf("config: %s: %w", e.name, err)
			}
		}
	}
	return nil
}

// stringsFlag is a repeatable string flag.
type stringsFlag struct {
	vals *[]string
	set  bool
}

func (f *stringsFlag) String() string {
	if f.vals == nil {
		return ""
	}
	return strings.Join(*f.vals, " ")
}

// Set appends; the first use replaces what the file or environment gave.
func (f *stringsFlag) Set(v string) error {
	if !f.set {
		*f.vals, f.set = nil, true
	}
	*f.vals = append(*f.vals, v)
	return nil
}

// serviceFlags defines the flags shared by serve and demo on fs, writing
// into c. Flags are applied after the file and environment: call
// loadConfig first with the --config value found by preParseConfig.
func serviceFlags(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.DB, "db", c.DB, "SQLite database `file` or postgres:// URL")
	fs.StringVar(&c.Listen, "listen", c.Listen, "HTTP listen `address`")
	fs.Var(&stringsFlag{vals: &c.Readers}, "reader", "reader `KIND:PORT[,opt=value]` (repeatable)")
	fs.Var(&stringsFlag{vals: &c.Printers}, "printer", "printer or engraver `KIND:ADDRESS[,option=value]` that makes queued tags (repeatable)")
	fs.StringVar(&c.Previews, "previews", c.Previews, "write a PNG of every tag made to `dir`")
	fs.StringVar(&c.Site, "site", c.Site, "site `name` stamped on local scans")
	fs.StringVar(&c.Jurisdiction, "jurisdiction", c.Jurisdiction, "default jurisdiction `profile` (minneapolis, chanhassen)")
	fs.StringVar(&c.Locale, "locale", c.Locale, "`locale` for manufacturer names")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "log `level`: debug, info, warn, error")
	fs.StringVar(&c.LogFormat, "log-format", c.LogFormat, "log `format`: text or json")
}

// configPath finds --config PATH (or --config=PATH) in args before the
// flag set parses them, so file values can be overridden by flags.
func configPath(args []string) (string, bool) {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, "config="); ok {
			return v, true
		}
		if a == "config" && i+1 < len(args) && strings.HasPrefix(args[i], "-") {
			return args[i+1], true
		}
	}
	return "", false
}

// loadConfig builds the configuration from defaults, file, environment
// and args, for the subcommand named by fs.
func loadConfig(fs *flag.FlagSet, args []string, getenv func(string) string) (config, error) {
	c := defaultConfig()
	path, named := configPath(args)
	if !named {
		path = getenv("CHIPDESK_CONFIG")
		named = path != ""
	}
	if named {
		if err := loadConfigFile(&c, path, true); err != nil {
			return c, err
		}
	}
	if err := applyEnv(&c, getenv); err != nil {
		return c, err
	}
	serviceFlags(fs, &c)
	fs.String("config", path, "TOML config `file` (also CHIPDESK_CONFIG)")
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return c, cmdline.FlagError(err)
	}
	return c, c.check()
}

// check validates c.
func (c *config) check() error {
	if c.DB == "" {
		return errors.New("config: db required")
	}
	if c.Listen == "" {
		return errors.New("config: listen address required")
	}
	if _, err := c.level(); err != nil {
		return err
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return fmt.Errorf("config: log format %q: want text or json", c.LogFormat)
	}
	if err := c.Audit.check(); err != nil {
		return err
	}
	if _, err := jobs.PendingDevices(c.Printers); err != nil {
		return fmt.Errorf("config: printer: %w", err)
	}
	return nil
}

func (c *config) level() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return 0, fmt.Errorf("config: log level %q: want debug, info, warn or error", c.LogLevel)
	}
	return l, nil
}

// logger returns the structured logger the configuration asks for.
func (c *config) logger(w io.Writer) *slog.Logger {
	l, _ := c.level()
	o := &slog.HandlerOptions{Level: l}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

// loadRules returns the embedded jurisdiction profiles and the zone of
// the home jurisdiction (the store's "today").
func loadRules(home string) (*rules.Set, *time.Location, error) {
	rs, err := rules.Embedded()
	if err != nil {
		return nil, nil, err
	}
	p := rs.Profile(home)
	if p == nil {
		return nil, nil, fmt.Errorf("config: unknown jurisdiction %q (want one of %s)", home, strings.Join(rs.IDs(), ", "))
	}
	return rs, p.Location(), nil
}

// openStore opens the store named by target (an SQLite file or a
// PostgreSQL URL) for the admin commands, with the home jurisdiction's
// zone.
func openStore(ctx context.Context, target string, now func() time.Time) (backend, error) {
	_, loc, err := loadRules(envOr("CHIPDESK_JURISDICTION", defaultConfig().Jurisdiction))
	if err != nil {
		return nil, err
	}
	return openBackend(ctx, target, now, loc)
}
