package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/chipdesk/chipdesk/internal/cmdline"
	"github.com/chipdesk/chipdesk/service/csvio"
)

// runExport is "chipdesk export --db PATH DIR": every table as a CSV
// file in DIR (made if missing), in the format import reads.
func runExport(ctx context.Context, e *cmdline.Env, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	db := fs.String("db", envOr("CHIPDESK_DB", defaultConfig().DB), "SQLite database `file` or postgres:// URL")
	quiet := fs.Bool("q", false, "no progress bar")
	if _, err := cmdline.ParseArgs(fs, args); err != nil {
		return cmdline.FlagError(err)
	}
	if fs.NArg() != 1 {
		return cmdline.UsageError("export: want one directory")
	}
	dir := fs.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	st, err := openStore(ctx, *db, e.Now)
	if err != nil {
		return err
	}
	defer st.Close()
	bar := newProgress(e.Stderr, "rows", 0, *quiet)
	for _, t := range csvio.Tables {
		if err := exportTable(ctx, st, t, filepath.Join(dir, t.File()), bar); err != nil {
			return err
		}
	}
	bar.done()
	fmt.Fprintf(e.Stdout, "exported %d rows to %s\n", bar.n, dir)
	return nil
}

// exportTable writes one table to path through a temporary file, so a
// failed export leaves no half file.
func exportTable(ctx context.Context, st backend, t csvio.Table, path string, bar *progress) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+t.File()+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 256<<10)
	if err := csvio.Export(ctx, st, t, &lineCounter{w: bw, p: bar}); err != nil {
		tmp.Close()
		return fmt.Errorf("export %s: %w", t, err)
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// The header line is not a row.
	bar.add(-1)
	return os.Rename(tmp.Name(), path)
}

// lineCounter counts the lines written, one per CSV row (the export
// quotes no newlines inside fields it writes; a quoted newline would
// count as one more).
type lineCounter struct {
	w io.Writer
	p *progress
}

func (l *lineCounter) Write(b []byte) (int, error) {
	n, err := l.w.Write(b)
	var lines int64
	for _, c := range b[:n] {
		if c == '\n' {
			lines++
		}
	}
	l.p.add(lines)
	return n, err
}
