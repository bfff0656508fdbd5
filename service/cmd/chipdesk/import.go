package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/mattn/go-isatty"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service/csvio"
)

// runImport is "chipdesk import --db PATH DIR|FILE...": CSV files named
// after their tables (owners.csv, animals.csv, chips.csv, licences.csv,
// vaccinations.csv) are checked row by row and stored in one
// transaction, or not at all.
func runImport(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	db := fs.String("db", envOr("CHIPDESK_DB", defaultConfig().DB), "SQLite database `file` or postgres:// URL")
	quiet := fs.Bool("q", false, "no progress bar")
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	}
	if fs.NArg() == 0 {
		return cmdline.UsageError("import: want a directory or CSV files (owners.csv, animals.csv, chips.csv, licences.csv, vaccinations.csv)")
	}
	paths, err := csvFiles(fs.Args())
	if err != nil {
		return cmdline.Exit(2, err)
	}
	var total int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		total += fi.Size()
	}
	st, err := openStore(ctx, *db, e.Now)
	if err != nil {
		return err
	}
	defer st.Close()

	bar := newProgress(e.Stderr, "reading", total, *quiet)
	files := map[csvio.Table]io.Reader{}
	for t, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		files[t] = bar.reader(f)
	}
	start := e.Now()
	// The store takes the rows as they are read (csvio.Import), so the
	// bar follows the storing too, all of it in one transaction.
	rep, err := csvio.Import(ctx, st, files)
	bar.done()
	if err != nil {
		var ie *csvio.ImportError
		if errors.As(err, &ie) {
			fmt.Fprintln(e.Stderr, "nothing imported; the files have errors:")
			fmt.Fprintln(e.Stderr, ie.Error())
			return cmdline.Exit(1, nil)
		}
		return fmt.Errorf("nothing imported: %w", err)
	}
	fmt.Fprintf(e.Stdout, "imported %d owners, %d animals, %d chips, %d licences, %d vaccinations in %s\n",
		rep.Owners, rep.Animals, rep.Chips, rep.Licences, rep.Vaccinations, e.Now().Sub(start).Round(time.Millisecond))
	return nil
}

// csvFiles maps tables to the files named: a directory stands for the
// table files in it.
func csvFiles(args []string) (map[csvio.Table]string, error) {
	out := map[csvio.Table]string{}
	add := func(p string) error {
		name := strings.TrimSuffix(filepath.Base(p), ".csv")
		t := csvio.Table(name)
		if _, ok := csvio.Columns[t]; !ok {
			return fmt.Errorf("import: %s: the file name must be a table name (owners, animals, chips, licences, vaccinations) with .csv", p)
		}
		if prev, ok := out[t]; ok {
			return fmt.Errorf("import: %s and %s are both the %s table", prev, p, t)
		}
		out[t] = p
		return nil
	}
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
		if !fi.IsDir() {
			if err := add(a); err != nil {
				return nil, err
			}
			continue
		}
		n := 0
		for _, t := range csvio.Tables {
			p := filepath.Join(a, t.File())
			if _, err := os.Stat(p); err == nil {
				if err := add(p); err != nil {
					return nil, err
				}
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("import: %s holds none of owners.csv, animals.csv, chips.csv, licences.csv, vaccinations.csv", a)
		}
	}
	return out, nil
}

// progress draws a progress bar on a terminal: bytes done of a total,
// or a running count when the total is unknown. Off a terminal (a log,
// a pipe) it prints nothing until done, then one summary line.
type progress struct {
	w     io.Writer
	label string
	total int64
	tty   bool
	quiet bool
	start time.Time

	mu   sync.Mutex
	n    int64
	last time.Time
}

func newProgress(w io.Writer, label string, total int64, quiet bool) *progress {
	p := &progress{w: w, label: label, total: total, quiet: quiet, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		p.tty = isatty.IsTerminal(f.Fd())
	}
	return p
}

// add counts n more units and redraws at most ten times a second.
func (p *progress) add(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += n
	if !p.tty || p.quiet {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond {
		p.last = now
		p.draw()
	}
}

func (p *progress) draw() {
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\r%s %s", p.label, humanize.Comma(p.n))
		return
	}
	frac := min(float64(p.n)/float64(p.total), 1)
	fmt.Fprintf(p.w, "\r%s %s %3.0f%% %s / %s", p.label, barText(p.n, p.total), 100*frac, humanize.Bytes(uint64(p.n)), humanize.Bytes(uint64(p.total)))
}

// barWidth is the width of every progress bar's bar, in characters.
const barWidth = 30

// barText is the bar of every progress display: "[#####.....]", filled
// in proportion to done of total (empty when the total is unknown).
func barText(done, total int64) string {
	fill := 0
	if total > 0 {
		fill = int(min(done, total) * barWidth / total)
	}
	return "[" + strings.Repeat("#", fill) + strings.Repeat(".", barWidth-fill) + "]"
}

// done finishes the bar with a summary line.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.quiet {
		return
	}
	if p.tty {
		p.draw()
		fmt.Fprintln(p.w)
		return
	}
	if p.total > 0 {
		fmt.Fprintf(p.w, "%s: %s in %s\n", p.label, humanize.Bytes(uint64(p.n)), time.Since(p.start).Round(time.Millisecond))
	} else {
		fmt.Fprintf(p.w, "%s: %s\n", p.label, humanize.Comma(p.n))
	}
}

// reader counts the bytes read from r.
func (p *progress) reader(r io.Reader) io.Reader { return &countReader{r: r, p: p} }

type countReader struct {
	r io.Reader
	p *progress
}

func (c *countReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.p.add(int64(n))
	return n, err
}
