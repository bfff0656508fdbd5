package offline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// MaxPush is the most events one push may carry.
const MaxPush = 1000

// HandlerOpts configure Handler. A nil *HandlerOpts serves without
// authentication (tests, or behind a proxy that authenticates).
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
//	POST events   body: JSON array of service.DeviceEvent; answer: JSON array of Outcome
//	GET  replica  answer: one minimal service.Record per line (application/x-ndjson), then an end line
//
// Internal errors are logged and answered with status 500 and no detail.
func Handler(c Central, o *HandlerOpts) http.Handler {
	if o == nil {
		o = &HandlerOpts{}
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
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
			http.Error(w, "offline: body must be a JSON array of device events", http.StatusBadRequest)
			return
		}
		if len(events) > MaxPush {
			http.Error(w, fmt.Sprintf("offline: at most %d events per push", MaxPush), http.StatusRequestEntityTooLarge)
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
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("GET /replica", func(w http.ResponseWriter, req *http.Request) {
		// A whole replica takes longer than a server's write timeout
		// allows an ordinary answer; the request's context still ends it
		// when the client goes away.
		http.NewResponseController(w).SetWriteDeadline(time.Time{})
		if o.Audit != nil {
			ev := &service.AuditEvent{Actor: "anonymous", Action: "replica.pull", Entity: "record"}
			if t := callerOf(req); t != nil {
				ev.Actor, ev.Role, ev.Site, ev.TokenID = t.Name, t.Role, t.Site, t.ID
			}
			if err := o.Audit.CreateAuditEvent(req.Context(), ev); err != nil {
				log.Error("offline: audit pull", "err", err)
				http.Error(w, "internal error", http.StatusInternalServerError)
				return
			}
		}
		w.Header().Set("Content-Type", "application/x-ndjson")
		bw := bufio.NewWriter(w)
		enc := json.NewEncoder(bw)
		err := c.Pull(req.Context(), func(r *service.Record) error { return enc.Encode(r) })
		if err != nil {
			// The status is sent already: cut the stream short without
			// the end line, so the client sees it incomplete.
			log.Error("offline: pull", "err", err)
			return
		}
		fmt.Fprintln(bw, endLine)
		bw.Flush()
	})
	if o.Tokens == nil {
		return mux
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		scheme, secret, _ := strings.Cut(req.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || secret == "" {
			http.Error(w, "offline: bearer token required", http.StatusUnauthorized)
			return
		}
		t, err := o.Tokens.Authenticate(req.Context(), strings.TrimSpace(secret))
		if err != nil {
			if service.ErrorCode(err) == service.EINTERNAL {
				log.Error("offline: authenticate", "err", err)
				http.Error(w, "internal error", http.StatusInternalServerError)
				return
			}
			http.Error(w, "offline: invalid or revoked token", http.StatusUnauthorized)
			return
		}
		if t.Role != service.RoleOfficer && t.Role != service.RoleAdmin {
			http.Error(w, "offline: the "+string(t.Role)+" role may not sync a handheld", http.StatusForbidden)
			return
		}
		mux.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), callerKey{}, t)))
	})
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

// callerOf is the token that authenticated req, nil without one.
func callerOf(req *http.Request) *service.Token {
	t, _ := req.Context().Value(callerKey{}).(*service.Token)
	return t
}

// endLine closes a complete replica stream, so that a stream cut short
// (a dropped connection, a failed read) is never taken for all of it.
const endLine = `{"end":true}`

// HTTPClient is a Central reached over HTTP at a Handler.
type HTTPClient struct {
	// URL is where the Handler is mounted, e.g.
	// "https://chipdesk.example/api/v1/sync".
	URL string
	// Token is sent as a bearer token.
	Token string
	// Client is the HTTP client; nil means http.DefaultClient.
	Client *http.Client
}

var _ Central = (*HTTPClient)(nil)

func (h *HTTPClient) do(ctx context.Context, method, path string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(h.URL, "/")+"/"+path, body)
	if err != nil {
		return nil, err
	}
	if h.Token != "" {
		req.Header.Set("Authorization", "Bearer "+h.Token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	c := h.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		resp.Body.Close()
		return nil, fmt.Errorf("offline: %s %s: %s: %s", method, path, resp.Status, strings.TrimSpace(string(msg)))
	}
	return resp, nil
}

// Push implements Central.
func (h *HTTPClient) Push(ctx context.Context, events []service.DeviceEvent) ([]Outcome, error) {
	body, err := json.Marshal(events)
	if err != nil {
		return nil, err
	}
	resp, err := h.do(ctx, http.MethodPost, "events", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out []Outcome
	b, err := io.ReadAll(resp.Body)
	if err == nil {
		err = unmarshal(b, &out)
	}
	if err != nil {
		return nil, fmt.Errorf("offline: push answer: %w", err)
	}
	return out, nil
}

// Pull implements Central. A stream without its end line is an error.
func (h *HTTPClient) Pull(ctx context.Context, fn func(*service.Record) error) error {
	resp, err := h.do(ctx, http.MethodGet, "replica", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var line json.RawMessage
		if err := dec.Decode(&line); errors.Is(err, io.EOF) {
			return errors.New("offline: replica stream ended early")
		} else if err != nil {
			return fmt.Errorf("offline: replica stream: %w", err)
		}
		if string(line) == endLine {
			return nil
		}
		var r service.Record
		if err := unmarshal(line, &r); err != nil {
			return fmt.Errorf("offline: replica stream: %w", err)
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
}
