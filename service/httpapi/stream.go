package httpapi

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/events"
)

const streamRoute = "GET /api/v1/scans/stream"

// keepAlive is how often an idle stream gets a comment line, so proxies
// and browsers keep the connection open.
const keepAlive = 15 * time.Second

// handleStream serves scan events as Server-Sent Events (WHATWG HTML
// 9.2): one "scan" event per scan, its data the ScanEvent JSON, its id
// the hub's event id. ?reader=NAME limits the stream to one reader; a
// reconnecting browser's Last-Event-ID header (or ?since=ID) replays the
// events it missed that the hub still holds.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	if s.hub == nil {
		s.writeError(w, r, service.Errorf(service.ENOTFOUND, "No scan stream on this server."))
		return
	}
	caller := callerOf(r.Context())
	if caller != nil && caller.Role == service.RoleClinic {
		// Scans carry any owner's address: not a clinic's (see scope),
		// as GET /api/v1/scans is not.
		s.writeError(w, r, service.Errorf(service.EFORBIDDEN, "The clinic role may not follow the scan stream."))
		return
	}
	site, scoped := s.siteOf(caller) // a scoped desk follows its own site's scans
	rc := http.NewResponseController(w)
	readerName := r.URL.Query().Get("reader")
	since := r.Header.Get("Last-Event-ID")
	if q := r.URL.Query().Get("since"); q != "" {
		since = q
	}
	var sub *events.Sub
	if since == "" {
		sub = s.hub.Subscribe(readerName)
	} else {
		after, err := strconv.ParseUint(since, 10, 64)
		if err != nil {
			s.writeError(w, r, service.Errorf(service.EINVALID, "Last-Event-ID must be a number."))
			return
		}
		sub = s.hub.SubscribeSince(readerName, after)
	}
	defer sub.Close()
	// An event stream lives long: lift the server's write deadline.
	_ = rc.SetWriteDeadline(time.Time{})

	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// retry: how long a browser waits before reconnecting.
	if _, err := fmt.Fprintf(w, "retry: 2000\n: chipdesk scan stream reader=%q\n\n", readerName); err != nil {
		return
	}
	if err := rc.Flush(); err != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	buf := make([]byte, 0, 4096)
	// A revocation anywhere ends a stream of a revoked or expired token
	// (within the watcher's poll of the revoke). The channel is taken
	// before the token is checked, so a revocation between the check and
	// the wait is never missed.
	revoked := func() bool {
		return caller != nil && (s.access.TokenRevoked(caller.ID) || !caller.Usable(s.now()))
	}
	changed := s.access.Changed()
	if revoked() {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-changed:
			if changed = s.access.Changed(); revoked() {
				return
			}
			continue
		case <-tick.C:
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
		case ev, ok := <-sub.C():
			if !ok {
				return
			}
			if scoped && ev.Site != "" && ev.Site != site {
				continue
			}
			buf = buf[:0]
			buf = append(buf, "id: "...)
			buf = strconv.AppendUint(buf, ev.ID, 10)
			buf = append(buf, "\nevent: scan\ndata: "...)
			buf = append(buf, ev.Data...) // single-line JSON
			buf = append(buf, "\n\n"...)
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
}
