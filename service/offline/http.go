package offline

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// MaxPush is the most events one push may carry.
const MaxPush = 1000

// HandlerOpts configure Handler. A nil *HandlerOpts serves without
// authentication (tests, or behind a proxy that authenticates); then
// every caller gets the data key of direct pulls (token id 0).
type HandlerOpts struct {
	// Tokens, when set, authenticates every request by its bearer token
	// (RFC 6750): officer and admin tokens may sync. A pushed event's
	// user and site are the token's, whatever the device wrote (a user it
	// named otherwise is kept as ClaimedUser).
	Tokens service.TokenService
	// Logger receives internal errors; nil discards them.
	Logger *slog.Logger
	// Audit, when set, records every replica pull (a bulk export of
	// owners' records) with the token that pulled it.
	Audit service.AuditService
}

// Handler serves a Central over HTTP, under any prefix (mount it with
// http.StripPrefix):
//
//	POST events          body: JSON array of service.DeviceEvent; answer: JSON array of Outcome
//	GET  key             answer: the device's data key {"key_id": ..., "key": base64} (service.DeviceKey)
//	GET  replica?since=C answer: one line per Item (a minimal service.Record, or {"deleted": id}),
//	                     then the end line {"end": true, "cursor": ..., "full": ...} (application/x-ndjson)
//
// Without since= at all, GET replica answers as versions before the
// incremental pull did: every record, and the end line {"end":true}.
// Both answers are gzip-compressed when the request accepts gzip.
// Internal errors are logged and answered with status 500 and no detail.
func Handler(c Central, o *HandlerOpts) http.Handler {
	if o == nil {
		o = &HandlerOpts{}
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	audit := func(req *http.Request, action, detail string) error {
		if o.Audit == nil {
			return nil
		}
		ev := &service.AuditEvent{Actor: "anonymous", Action: action, Entity: "record", Detail: detail}
		if t := callerOf(req); t != nil {
			ev.Actor, ev.Role, ev.Site, ev.TokenID = t.Name, t.Role, t.Site, t.ID
		}
		return o.Audit.CreateAuditEvent(context.WithoutCancel(req.Context()), ev)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /events", func(w http.ResponseWriter, req *http.Request) {
		var events []service.DeviceEvent
		body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, 4<<20))
		if err == nil {
			// A handheld not yet upgraded sends the old names.
			err = unmarshal(body, &events)
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, service.EINVALID, "offline: body must be a JSON array of device events")
			return
		}
		if len(events) == 0 {
			writeError(w, http.StatusBadRequest, service.EINVALID, "offline: a push carries at least one event")
			return
		}
		for i := range events {
			// An event without its shape (no id, no time, no payload) is
			// not one a handheld recorded: the whole push is refused, as
			// its outcome could name no event.
			if err := events[i].Validate(); err != nil {
				writeError(w, http.StatusBadRequest, service.EINVALID, fmt.Sprintf("events[%d]: %s", i, service.ErrorMessage(err)))
				return
			}
		}
		if len(events) > MaxPush {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("offline: at most %d events per push", MaxPush))
			return
		}
		if t := callerOf(req); t != nil {
			for i := range events {
				stampCaller(&events[i], t)
			}
		}
		out, err := c.Push(req.Context(), events)
		if err != nil {
			log.Error("offline: push", "err", err)
			writeError(w, http.StatusInternalServerError, service.EINTERNAL, "internal error")
			return
		}
		var rep Report
		for _, oc := range out {
			rep.count(oc)
		}
		if err := audit(req, "replica.push", fmt.Sprintf("%d events: %d applied, %d duplicates, %d rejected",
			len(out), rep.Applied, rep.Duplicates, rep.Rejected)); err != nil {
			// The events are applied: the answer must reach the device
			// whatever became of the audit entry.
			log.Error("offline: audit push", "err", err)
		}
		w.Header().Set("Content-Type", "application/json")
		zw := compress(w, req)
		json.NewEncoder(zw).Encode(out)
		zw.Close()
	})
	mux.HandleFunc("GET /key", func(w http.ResponseWriter, req *http.Request) {
		// The key itself is never logged: the audit entry names its id.
		k, err := c.DeviceKey(req.Context())
		if err != nil {
			log.Error("offline: device key", "err", err)
			writeError(w, http.StatusInternalServerError, service.EINTERNAL, "internal error")
			return
		}
		if err := audit(req, "replica.key", "key "+k.ID); err != nil {
			log.Error("offline: audit key", "err", err)
			writeError(w, http.StatusInternalServerError, service.EINTERNAL, "internal error")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(k)
	})
	mux.HandleFunc("GET /replica", func(w http.ResponseWriter, req *http.Request) {
		// A whole replica takes longer than a server's write timeout
		// allows an ordinary answer; the request's context still ends it
		// when the client goes away.
		http.NewResponseController(w).SetWriteDeadline(time.Time{})
		since, incremental := req.URL.Query()["since"]
		from := ""
		if incremental {
			from = since[0]
		}
		detail := "full"
		if from != "" {
			detail = "since " + from
		}
		if err := audit(req, "replica.pull", detail); err != nil {
			log.Error("offline: audit pull", "err", err)
			writeError(w, http.StatusInternalServerError, service.EINTERNAL, "internal error")
			return
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		zw := compress(w, req)
		bw := bufio.NewWriterSize(zw, 64<<10)
		enc := json.NewEncoder(bw)
		end, err := c.Pull(req.Context(), from, func(it Item) error {
			if it.Record == nil {
				return enc.Encode(deletedLine{Deleted: it.Deleted})
			}
			return enc.Encode(it.Record)
		})
		if err != nil {
			// The status is sent already: cut the stream short without
			// the end line, so the client sees it incomplete.
			log.Error("offline: pull", "err", err)
			return
		}
		if incremental {
			enc.Encode(endOf{End: true, Pulled: end})
		} else {
			fmt.Fprintln(bw, endLine)
		}
		bw.Flush()
		zw.Close()
	})
	if o.Tokens == nil {
		return mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		scheme, secret, _ := strings.Cut(req.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || secret == "" {
			writeError(w, http.StatusUnauthorized, service.EUNAUTHORIZED, "offline: bearer token required")
			return
		}
		t, err := o.Tokens.Authenticate(req.Context(), strings.TrimSpace(secret))
		if err != nil {
			if service.ErrorCode(err) == service.EINTERNAL {
				log.Error("offline: authenticate", "err", err)
				writeError(w, http.StatusInternalServerError, service.EINTERNAL, "internal error")
				return
			}
			writeError(w, http.StatusUnauthorized, service.EUNAUTHORIZED, "offline: invalid or revoked token")
			return
		}
		if t.Role != service.RoleOfficer && t.Role != service.RoleAdmin {
			writeError(w, http.StatusForbidden, service.EFORBIDDEN, "offline: the "+string(t.Role)+" role may not sync a handheld")
			return
		}
		mux.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), callerKey{}, t)))
	})
}

// writeError answers status with the API's JSON error
// ({"error": {"code", "message"}}).
func writeError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}

// stampCaller makes the pushing token the actor of e, whatever the
// device wrote: its name is the event's (and the scan's) user, its site
// the site, its role and id the audit entry's. A different user the
// device named is kept as claimed, beside it (ClaimedUser).
func stampCaller(e *service.DeviceEvent, t *service.Token) {
	claimed := e.User
	if e.Scan != nil && e.Scan.User != "" && claimed == "" {
		claimed = e.Scan.User
	}
	if claimed != "" && claimed != t.Name {
		e.ClaimedUser = claimed
	}
	e.User, e.Site, e.Role, e.TokenID = t.Name, t.Site, t.Role, t.ID
	if e.Scan != nil {
		e.Scan.User, e.Scan.Site = t.Name, t.Site
	}
}

type callerKey struct{}

// tokenOf is the token that authenticated the request of ctx, nil
// without one.
func tokenOf(ctx context.Context) *service.Token {
	t, _ := ctx.Value(callerKey{}).(*service.Token)
	return t
}

// callerOf is the token that authenticated req, nil without one.
func callerOf(req *http.Request) *service.Token {
	return tokenOf(req.Context())
}

// endLine closes a complete replica stream of the old form (a request
// without since=), so that a stream cut short (a dropped connection, a
// failed read) is never taken for all of it; endOf closes one of the
// incremental form.
const endLine = `{"end":true}`

type endOf struct {
	End bool `json:"end"`
	Pulled
}

// deletedLine tells the handheld to drop an animal.
type deletedLine struct {
	Deleted int64 `json:"deleted"`
}

// compress wraps w in gzip when req accepts it (RFC 9110 8.4.1).
func compress(w http.ResponseWriter, req *http.Request) io.WriteCloser {
	for _, enc := range strings.Split(req.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(enc), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Add("Vary", "Accept-Encoding")
			zw, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
			return zw
		}
	}
	return nopCloser{w}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// SyncPath is where the service mounts Handler, below its base URL.
const SyncPath = "/api/v1/sync"

// HTTPClient is a Central reached over HTTP at a Handler.
type HTTPClient struct {
	// URL is where the Handler is mounted, e.g.
	// "https://chipdesk.example/api/v1/sync" (SyncURL makes it of the
	// service's base URL).
	URL string
	// Token is sent as a bearer token: the handheld's own device token.
	Token string
	// Client is the HTTP client; nil means one with the timeouts below.
	Client *http.Client
	// Timeout bounds a push's request and answer, and how long a pull's
	// answer may stall (no byte received); 0 means DefaultTimeout.
	Timeout time.Duration
	// received counts the bytes read from the wire (compressed), for
	// the report. One client may serve pushes and pulls at once (a
	// shared client, copies of a replica pushed together): every answer
	// adds to it.
	received atomic.Int64
}

// Received is the number of bytes read from the wire (compressed) so
// far, by every request this client made; safe to call while requests
// are in flight.
func (h *HTTPClient) Received() int64 { return h.received.Load() }

// DefaultTimeout is an HTTPClient's timeout when it sets none.
const DefaultTimeout = 30 * time.Second

var _ Central = (*HTTPClient)(nil)

// StatusError is an answer other than 200 OK. A 4xx answer is not worth
// retrying (the same request gets the same answer).
type StatusError struct {
	Method, Path string
	Status       int
	Text         string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("offline: %s %s: %d %s: %s", e.Method, e.Path, e.Status, http.StatusText(e.Status), e.Text)
}

// Permanent reports whether retrying cannot help.
func (e *StatusError) Permanent() bool {
	return e.Status >= 400 && e.Status < 500 && e.Status != http.StatusTooManyRequests
}

func (h *HTTPClient) timeout() time.Duration {
	if h.Timeout > 0 {
		return h.Timeout
	}
	return DefaultTimeout
}

func (h *HTTPClient) client() *http.Client {
	if h.Client != nil {
		return h.Client
	}
	t := h.timeout()
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: t}).DialContext,
		TLSHandshakeTimeout:   t,
		ResponseHeaderTimeout: t,
		// The answer is decompressed here, to count the bytes on the wire.
		DisableCompression: true,
	}}
}

// SyncURL is the URL of the sync handler of the service at base: base
// with SyncPath added when it names no path ("http://host:8080"), else
// base as it is (a handler mounted elsewhere, or SyncPath given).
func SyncURL(base string) string {
	u := strings.TrimSuffix(base, "/")
	if p, err := url.Parse(u); err == nil && p.Path == "" {
		u += SyncPath
	}
	return u
}

// do sends one request; the answer's body is decompressed, counted and
// watched: a body that stalls longer than the timeout ends the request.
func (h *HTTPClient) do(ctx context.Context, method, path, query string, body []byte) (io.ReadCloser, error) {
	ctx, cancel := context.WithCancel(ctx)
	u := strings.TrimSuffix(h.URL, "/") + "/" + path
	if query != "" {
		u += "?" + query
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		cancel()
		return nil, err
	}
	if h.Token != "" {
		req.Header.Set("Authorization", "Bearer "+h.Token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept-Encoding", "gzip")
	stalled := new(atomic.Bool)
	stall := time.AfterFunc(h.timeout(), func() { stalled.Store(true); cancel() })
	resp, err := h.client().Do(req)
	if err != nil {
		stall.Stop()
		cancel()
		var ne net.Error
		if stalled.Load() || errors.As(err, &ne) && ne.Timeout() {
			return nil, fmt.Errorf("offline: %s %s: no answer within %s", method, path, h.timeout())
		}
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		stall.Stop()
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		resp.Body.Close()
		cancel()
		text := strings.TrimSpace(string(msg))
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		if json.Unmarshal(msg, &e) == nil && e.Error.Message != "" {
			text = e.Error.Message
		}
		return nil, &StatusError{Method: method, Path: path, Status: resp.StatusCode, Text: text}
	}
	w := &watched{r: resp.Body, stall: stall, stalled: stalled, every: h.timeout(), n: &h.received, done: func() { stall.Stop(); cancel() }}
	if !strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		return w, nil
	}
	zr, err := gzip.NewReader(w)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("offline: %s %s: %w", method, path, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, w}, nil
}

// watched counts what it reads and pushes its stall timer back on every
// read that gets bytes.
type watched struct {
	r       io.ReadCloser
	stall   *time.Timer
	stalled *atomic.Bool
	every   time.Duration
	n       *atomic.Int64
	done    func()
}

func (w *watched) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if n > 0 {
		w.stall.Reset(w.every)
		w.n.Add(int64(n))
	}
	if err != nil && err != io.EOF && w.stalled.Load() {
		err = fmt.Errorf("the answer stalled for %s: %w", w.every, err)
	}
	return n, err
}

func (w *watched) Close() error {
	err := w.r.Close()
	w.done()
	return err
}

// Push implements Central.
func (h *HTTPClient) Push(ctx context.Context, events []service.DeviceEvent) ([]Outcome, error) {
	body, err := json.Marshal(events)
	if err != nil {
		return nil, err
	}
	rc, err := h.do(ctx, http.MethodPost, "events", "", body)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var out []Outcome
	b, err := io.ReadAll(rc)
	if err == nil {
		err = unmarshal(b, &out)
	}
	if err != nil {
		return nil, fmt.Errorf("offline: push answer: %w", err)
	}
	return out, nil
}

// DeviceKey implements Central: GET key.
func (h *HTTPClient) DeviceKey(ctx context.Context) (*service.DeviceKey, error) {
	rc, err := h.do(ctx, http.MethodGet, "key", "", nil)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var k service.DeviceKey
	b, err := io.ReadAll(rc)
	if err == nil {
		err = json.Unmarshal(b, &k)
	}
	if err == nil && (k.ID == "" || len(k.Key) != 32) {
		err = errors.New("not a 256-bit key with its id")
	}
	if err != nil {
		return nil, fmt.Errorf("offline: device key: %w", err)
	}
	return &k, nil
}

// Pull implements Central. A stream without its end line is an error.
func (h *HTTPClient) Pull(ctx context.Context, since string, fn func(Item) error) (Pulled, error) {
	return h.stream(ctx, since, func(line []byte, deleted int64) error {
		if deleted != 0 {
			return fn(Item{Deleted: deleted})
		}
		var r service.Record
		if err := unmarshal(line, &r); err != nil {
			return fmt.Errorf("offline: replica stream: %w", err)
		}
		return fn(Item{Record: &r})
	})
}

// pullRaw implements rawPuller: each record line is kept as it came
// (upgraded to today's names), checked and decoded only for its keys
// (readKeys).
func (h *HTTPClient) pullRaw(ctx context.Context, since string, fn func(rawItem) error) (Pulled, error) {
	return h.stream(ctx, since, func(line []byte, deleted int64) error {
		if deleted != 0 {
			return fn(rawItem{Deleted: deleted})
		}
		b, err := upgradeJSON(line)
		if err != nil {
			return fmt.Errorf("offline: replica stream: %w", err)
		}
		it := rawItem{Body: bytes.Clone(b)}
		if err := readKeys(b, &it.keys); err != nil || it.keys.Animal.ID <= 0 {
			return fmt.Errorf("offline: replica stream: a record without its animal: %.80s", line)
		}
		return fn(it)
	})
}

// maxLine is the longest line of a pull's answer read: a record is a
// few hundred bytes.
const maxLine = 16 << 20

// stream reads a pull's answer, calling fn with each record line or
// deletion, and returns its end line. A stream without one is an error.
func (h *HTTPClient) stream(ctx context.Context, since string, fn func(line []byte, deleted int64) error) (Pulled, error) {
	rc, err := h.do(ctx, http.MethodGet, "replica", "since="+url.QueryEscape(since), nil)
	if err != nil {
		return Pulled{}, err
	}
	defer rc.Close()
	// The stream is read line by line (Handler writes one JSON value a
	// line), not value by value with a json.Decoder, whose scan of each
	// value came on top of the decoding below; every line is decoded
	// whole below, so a broken one is still refused.
	sc := bufio.NewScanner(rc)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return Pulled{}, fmt.Errorf("offline: replica stream: %w", err)
			}
			return Pulled{}, errors.New("offline: replica stream ended early")
		}
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if bytes.HasPrefix(line, []byte(`{"end":true`)) {
			var end endOf
			if err := json.Unmarshal(line, &end); err != nil || !end.End {
				return Pulled{}, fmt.Errorf("offline: replica stream: bad end line %s", line)
			}
			return end.Pulled, nil
		}
		if bytes.HasPrefix(line, []byte(`{"deleted"`)) {
			var d deletedLine
			if err := json.Unmarshal(line, &d); err != nil || d.Deleted <= 0 {
				return Pulled{}, fmt.Errorf("offline: replica stream: bad line %s", line)
			}
			if err := fn(nil, d.Deleted); err != nil {
				return Pulled{}, err
			}
			continue
		}
		if err := fn(line, 0); err != nil {
			return Pulled{}, err
		}
	}
}
