package bench

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	// The same driver as the SQLite store.
	_ "modernc.org/sqlite"

	"github.com/chipdesk/chipdesk/service/store/postgres"
)

// The bare-stack floor: a minimal server of the same stack as chipdesk
// serve (net/http, encoding/json, and modernc SQLite or pgx) on the same
// data, with one denormalised row per chip and nothing else: no token,
// no rules, no audit event. Driven by the same load in the same run, its
// rate is what the stack itself allows on this machine, and a lookup's
// rate is judged as a share of it.

// barePath is the route the bare server answers, the lookup's own, so
// that the load is the same request.
const barePath = "/api/v1/lookup"

// bareColumns are the bare row's columns after chip, as the answer
// names them.
var bareColumns = []string{"kind", "animal_id", "name", "species", "breed", "colour", "sex", "altered",
	"owner", "phone", "address", "city", "jurisdiction", "year", "tag_number", "expires", "status", "rabies"}

// bareSelect reads the bare rows from a store's tables, prefixed by src
// ("src." for an attached SQLite file). It is the same SQL on both
// stores: dates as text, the licence the animal's latest.
func bareSelect(src string) string {
	return `SELECT c.code, c.kind, a.id, a.name, a.species, a.breed, a.colour, a.sex, CAST(a.altered AS INTEGER),
		COALESCE(o.name, ''), COALESCE(o.phone, ''), COALESCE(o.address, ''), COALESCE(o.city, ''),
		COALESCE(l.jurisdiction, ''), COALESCE(l.year, 0), COALESCE(l.tag_number, 0),
		COALESCE(CAST(l.expires_on AS TEXT), ''), COALESCE(l.status, ''),
		COALESCE((SELECT CAST(MAX(v.date) AS TEXT) FROM ` + src + `vaccinations v WHERE v.animal_id = a.id), '')
	FROM ` + src + `chips c JOIN ` + src + `animals a ON a.id = c.animal_id
	LEFT JOIN ` + src + `owners o ON o.id = a.owner_id
	LEFT JOIN ` + src + `licences l ON l.id = (SELECT l2.id FROM ` + src + `licences l2 WHERE l2.animal_id = a.id
		ORDER BY l2.issued_on DESC, l2.id DESC LIMIT 1)`
}

const bareTable = `CREATE TABLE bare_lookup (chip TEXT PRIMARY KEY, kind TEXT, animal_id BIGINT, name TEXT, species TEXT,
	breed TEXT, colour TEXT, sex TEXT, altered INTEGER, owner TEXT, phone TEXT, address TEXT, city TEXT,
	jurisdiction TEXT, year INTEGER, tag_number INTEGER, expires TEXT, status TEXT, rabies TEXT)`

// BarePath is the bare server's SQLite file beside the store's file at
// db: a file of its own, so that the store's file and its size are the
// store's alone.
func BarePath(db string) string { return db + "-bare" }

// BuildBare builds the bare rows from the store at db (an SQLite file or
// a postgres:// URL): in the file BarePath(db), or in table bare_lookup
// of the PostgreSQL schema.
func BuildBare(ctx context.Context, db string) error {
	if postgres.IsDSN(db) {
		conn, err := pgx.Connect(ctx, db)
		if err != nil {
			return fmt.Errorf("bench: bare rows: %w", err)
		}
		defer conn.Close(context.WithoutCancel(ctx))
		for _, q := range []string{`DROP TABLE IF EXISTS bare_lookup`, bareTable,
			`INSERT INTO bare_lookup ` + bareSelect(""), `ANALYZE bare_lookup`} {
			if _, err := conn.Exec(ctx, q); err != nil {
				return fmt.Errorf("bench: bare rows: %w", err)
			}
		}
		return nil
	}
	path := BarePath(db)
	os.Remove(path)
	lite, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_pragma=journal_mode(WAL)")
	if err != nil {
		return fmt.Errorf("bench: bare rows: %w", err)
	}
	defer lite.Close()
	lite.SetMaxOpenConns(1) // ATTACH is a connection's
	for _, q := range []string{`ATTACH DATABASE '` + strings.ReplaceAll(db, "'", "''") + `' AS src`,
		bareTable + ` WITHOUT ROWID`, `INSERT INTO bare_lookup ` + bareSelect("src."), `DETACH DATABASE src`} {
		if _, err := lite.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("bench: bare rows: %w", err)
		}
	}
	return nil
}

// bareAnswer is the bare server's answer: the row as JSON.
type bareAnswer struct {
	Chip         string `json:"chip"`
	Kind         string `json:"kind"`
	AnimalID     int64  `json:"animal_id"`
	Name         string `json:"name"`
	Species      string `json:"species"`
	Breed        string `json:"breed"`
	Colour       string `json:"colour"`
	Sex          string `json:"sex"`
	Altered      bool   `json:"altered"`
	Owner        string `json:"owner"`
	Phone        string `json:"phone"`
	Address      string `json:"address"`
	City         string `json:"city"`
	Jurisdiction string `json:"jurisdiction"`
	Year         int    `json:"year"`
	TagNumber    int    `json:"tag_number"`
	Expires      string `json:"expires"`
	Status       string `json:"status"`
	Rabies       string `json:"rabies"`

	altered int // the column, 0 or 1 (pgx scans no integer into a bool)
}

func (a *bareAnswer) dest() []any {
	return []any{&a.Chip, &a.Kind, &a.AnimalID, &a.Name, &a.Species, &a.Breed, &a.Colour, &a.Sex, &a.altered,
		&a.Owner, &a.Phone, &a.Address, &a.City, &a.Jurisdiction, &a.Year, &a.TagNumber, &a.Expires, &a.Status, &a.Rabies}
}

var bareQuery = `SELECT chip, ` + strings.Join(bareColumns, ", ") + ` FROM bare_lookup WHERE chip = `

// ServeBare serves the bare rows of db (built by BuildBare) on listen
// until ctx is done, logging "url=http://..." on log once it listens:
// the line StartServer waits for.
func ServeBare(ctx context.Context, db, listen string, log io.Writer) error {
	var row func(ctx context.Context, chip string, a *bareAnswer) error
	if postgres.IsDSN(db) {
		pool, err := pgxpool.New(ctx, db)
		if err != nil {
			return fmt.Errorf("bench: bare server: %w", err)
		}
		defer pool.Close()
		q := bareQuery + `$1`
		row = func(ctx context.Context, chip string, a *bareAnswer) error {
			return pool.QueryRow(ctx, q, chip).Scan(a.dest()...)
		}
	} else {
		lite, err := sql.Open("sqlite", "file:"+(&url.URL{Path: BarePath(db)}).EscapedPath()+"?_pragma=query_only(1)")
		if err != nil {
			return fmt.Errorf("bench: bare server: %w", err)
		}
		defer lite.Close()
		lite.SetMaxOpenConns(4)
		lite.SetMaxIdleConns(4)
		st, err := lite.PrepareContext(ctx, bareQuery+`?`)
		if err != nil {
			return fmt.Errorf("bench: bare server: %w", err)
		}
		defer st.Close()
		row = func(ctx context.Context, chip string, a *bareAnswer) error {
			return st.QueryRowContext(ctx, chip).Scan(a.dest()...)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+barePath, func(w http.ResponseWriter, r *http.Request) {
		var a bareAnswer
		switch err := row(r.Context(), r.URL.Query().Get("chip"), &a); {
		case errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows):
			http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
			return
		case err != nil:
			http.Error(w, `{"error":"internal"}`, http.StatusInternalServerError)
			return
		}
		a.Altered = a.altered != 0
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(&a)
	})
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("bench: bare server: %w", err)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(log, "msg=serving url=http://%s\n", ln.Addr())
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("bench: bare server: %w", err)
	}
	return nil
}
