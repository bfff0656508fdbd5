package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"
)

// body is the answer of the test servers, about the size of a lookup's.
var body = bytes.Repeat([]byte("0123456789abcdef"), 96)

// hijack answers raw bytes on the connection and closes it.
func hijack(w http.ResponseWriter, raw string) {
	c, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	c.Write([]byte(raw))
	c.Close()
}

// TestLoadKeepAlive drives httptest servers answering in every framing
// of RFC 9112 section 6.3 and failing in the ways a load meets.
func TestLoadKeepAlive(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		handler  http.HandlerFunc
		clients  int
		requests int
		timeout  time.Duration
		want     map[int]int
		// wantConns is the number of connections the server accepts; 0
		// means at most one per client (keep-alive: a client that starts
		// after the others took every request dials none).
		wantConns int
		wantFirst string
	}{
		{name: "content-length body, connections reused", clients: 3, requests: 60, want: map[int]int{200: 60},
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				w.Write(body)
			}},
		{name: "chunked body (RFC 9112 section 7.1), connections reused", clients: 2, requests: 40, want: map[int]int{200: 40},
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Write(body[:100])
				w.(http.Flusher).Flush()
				w.Write(body)
			}},
		{name: "chunked body larger than the read buffer", clients: 2, requests: 10, want: map[int]int{200: 10},
			handler: func(w http.ResponseWriter, r *http.Request) {
				for range 3 {
					w.Write(bytes.Repeat(body, 20))
					w.(http.Flusher).Flush()
				}
			}},
		{name: "empty 204 answers", clients: 1, requests: 10, want: map[int]int{204: 10}, wantFirst: "/x: 204 No Content",
			handler: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }},
		{name: "connection close (RFC 9112 section 9.6): a dial per request", clients: 2, requests: 20, want: map[int]int{200: 20}, wantConns: 20,
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Connection", "close")
				w.Write(body)
			}},
		{name: "HTTP/1.0 body until close", clients: 1, requests: 5, want: map[int]int{200: 5}, wantConns: 5,
			handler: func(w http.ResponseWriter, r *http.Request) {
				hijack(w, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n"+string(body))
			}},
		{name: "server closes idle connections unannounced: redialled, not errors", clients: 1, requests: 5, want: map[int]int{200: 5}, wantConns: 5,
			handler: func(w http.ResponseWriter, r *http.Request) {
				hijack(w, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
			}},
		{name: "500 counted by status", clients: 2, requests: 10, want: map[int]int{500: 10}, wantFirst: "/x: 500 Internal Server Error",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "boom", http.StatusInternalServerError)
			}},
		{name: "server hangs: the request deadline ends it", clients: 1, requests: 2, timeout: 50 * time.Millisecond, want: map[int]int{0: 2}, wantConns: 2,
			wantFirst: "i/o timeout",
			handler:   func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }},
		{name: "server closes mid-body", clients: 1, requests: 3, want: map[int]int{0: 3}, wantConns: 3, wantFirst: "unexpected EOF",
			handler: func(w http.ResponseWriter, r *http.Request) {
				hijack(w, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc")
			}},
		{name: "server closes mid-chunk", clients: 1, requests: 3, want: map[int]int{0: 3}, wantConns: 3, wantFirst: "unexpected EOF",
			handler: func(w http.ResponseWriter, r *http.Request) {
				hijack(w, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc")
			}},
		{name: "malformed answer", clients: 1, requests: 2, want: map[int]int{0: 2}, wantConns: 2, wantFirst: "malformed HTTP answer",
			handler: func(w http.ResponseWriter, r *http.Request) { hijack(w, "SSH-2.0-OpenSSH\r\n\r\n") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var conns atomic.Int64
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Authorization") != "Bearer tok" || r.URL.Path != "/base/x" || r.URL.RawQuery != "n=1" {
					http.Error(w, "wrong request", http.StatusBadRequest)
					return
				}
				tt.handler(w, r)
			}))
			srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
				if s == http.StateNew {
					conns.Add(1)
				}
			}
			srv.Start()
			defer srv.Close()
			timeout := cmpOr(tt.timeout, 5*time.Second)
			res, err := load(context.Background(), &LoadOpts{URL: srv.URL + "/base", Token: "tok", Clients: tt.clients, Requests: tt.requests,
				Duration: time.Minute, Path: func(*rand.Rand) string { return "/x?n=1" }}, timeout)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(res.Status) != fmt.Sprint(tt.want) {
				t.Errorf("Load: status %v, want %v (first error %q)", res.Status, tt.want, res.FirstError)
			}
			wantErrors := 0
			for code, n := range tt.want {
				if code != 200 {
					wantErrors += n
				}
			}
			if res.Requests != tt.requests || res.Errors != wantErrors {
				t.Errorf("Load = %d requests, %d errors; want %d, %d", res.Requests, res.Errors, tt.requests, wantErrors)
			}
			if got, want := res.Latency.N, tt.requests-tt.want[0]; got != want {
				t.Errorf("Load: %d latencies, want %d", got, want)
			}
			if !strings.Contains(res.FirstError, tt.wantFirst) || (tt.wantFirst == "") != (res.FirstError == "") {
				t.Errorf("Load: first error %q, want one holding %q", res.FirstError, tt.wantFirst)
			}
			if got := conns.Load(); tt.wantConns == 0 && (got < 1 || got > int64(tt.clients)) || tt.wantConns > 0 && got != int64(tt.wantConns) {
				t.Errorf("Load: server accepted %d connections, want %d (0: 1 to %d)", got, tt.wantConns, tt.clients)
			}
		})
	}
}

func cmpOr[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}

// TestLoadEnds checks that the end of the load, by its duration or by
// its context, ends requests in flight without counting them as errors.
func TestLoadEnds(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	for _, tt := range []struct {
		name     string
		duration time.Duration
		cancel   time.Duration
	}{
		{"duration over", 100 * time.Millisecond, 0},
		{"context cancelled", time.Minute, 100 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel > 0 {
				time.AfterFunc(tt.cancel, cancel)
			}
			t0 := time.Now()
			res, err := Load(ctx, &LoadOpts{URL: srv.URL, Clients: 4, Duration: tt.duration, Path: func(*rand.Rand) string { return "/" }})
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(t0); d > 5*time.Second {
				t.Errorf("Load took %s after its end at 100ms", d)
			}
			if res.Requests != 0 || res.Errors != 0 || res.FirstError != "" {
				t.Errorf("Load = %d requests, %d errors (%q); want none", res.Requests, res.Errors, res.FirstError)
			}
		})
	}
}

func TestLoadRefuses(t *testing.T) {
	t.Parallel()
	path := func(*rand.Rand) string { return "/" }
	for _, tt := range []struct {
		name string
		o    *LoadOpts
	}{
		{"no options", nil},
		{"no paths", &LoadOpts{URL: "http://127.0.0.1:1"}},
		{"https", &LoadOpts{URL: "https://127.0.0.1:1", Path: path}},
		{"query in URL", &LoadOpts{URL: "http://127.0.0.1:1/?a=b", Path: path}},
		{"token with a line break", &LoadOpts{URL: "http://127.0.0.1:1", Token: "a\r\nX-Evil: 1", Path: path}},
	} {
		if res, err := Load(context.Background(), tt.o); err == nil {
			t.Errorf("%s: Load = %+v, nil error; want an error", tt.name, res)
		}
	}
	// A path that cannot be a request target is the request's error.
	res, err := Load(context.Background(), &LoadOpts{URL: "http://127.0.0.1:1", Requests: 1, Clients: 1,
		Path: func(*rand.Rand) string { return "/a b" }})
	if err != nil || res.Status[0] != 1 || !strings.Contains(res.FirstError, "not allowed") {
		t.Errorf("Load(path with a space) = %+v, %v; want one transport error", res, err)
	}
}

// TestReadAnswer parses answers followed by the next one's first bytes:
// after the body the reader must stand exactly on them.
func TestReadAnswer(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		raw     string
		want    respHead
		wantErr error
	}{
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
			respHead{Minor: 1, Status: 200, Reason: []byte("OK"), Length: 5}, nil},
		{"equal content-length list (RFC 9110 section 8.6)", "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\nContent-Length: 5\r\n\r\nhello",
			respHead{Minor: 1, Status: 200, Reason: []byte("OK"), Length: 5}, nil},
		{"bare LF line ends (RFC 9112 section 2.2)", "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi",
			respHead{Minor: 1, Status: 200, Reason: []byte("OK"), Length: 2}, nil},
		{"chunked with extensions and trailers (RFC 9112 section 7.1)",
			"HTTP/1.1 404 Not Found\r\ntransfer-encoding: gzip, CHUNKED\r\n\r\n5;a=b\r\nhello\r\nA \r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n",
			respHead{Minor: 1, Status: 404, Reason: []byte("Not Found"), Length: -1, Chunked: true, Encoded: true}, nil},
		{"transfer coding wins over content-length (RFC 9112 section 6.3)",
			"HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
			respHead{Minor: 1, Status: 200, Reason: []byte("OK"), Length: 99, Chunked: true, Encoded: true}, nil},
		{"interim answer skipped (RFC 9110 section 15.2)", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
			respHead{Minor: 1, Status: 200, Reason: []byte("OK"), Length: 0}, nil},
		{"304 has no body", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
			respHead{Minor: 1, Status: 304, Reason: []byte("Not Modified"), Length: 10}, nil},
		{"no reason phrase", "HTTP/1.1 200\r\nConnection: Upgrade, close\r\nContent-Length: 0\r\n\r\n",
			respHead{Minor: 1, Status: 200, Reason: []byte{}, Length: 0, Close: true}, nil},
		{"HTTP/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx",
			respHead{Minor: 0, Status: 200, Reason: []byte("OK"), Length: 1}, nil},
		{"HTTP/1.0 closes", "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx",
			respHead{Minor: 0, Status: 200, Reason: []byte("OK"), Length: 1, Close: true}, nil},
		{"nothing", "", respHead{}, errNoAnswer},
		{"not HTTP", "HTTP/2 200 OK\r\n\r\n", respHead{}, errMalformed},
		{"status of two digits", "HTTP/1.1 20 OK\r\n\r\n", respHead{}, errMalformed},
		{"two content-lengths", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello", respHead{}, errMalformed},
		{"negative content-length", "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", respHead{}, errMalformed},
		{"header without colon", "HTTP/1.1 200 OK\r\nContent-Length 5\r\n\r\nhello", respHead{}, errMalformed},
		{"folded header (RFC 9112 section 5.2)", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", respHead{}, errMalformed},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", respHead{}, errMalformed},
		{"chunk longer than its size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n", respHead{}, errMalformed},
		{"head cut", "HTTP/1.1 200 OK\r\nContent-Le", respHead{}, io.ErrUnexpectedEOF},
		{"body cut", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello", respHead{}, io.ErrUnexpectedEOF},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw := tt.raw
			if tt.wantErr == nil {
				raw += "NEXT"
			}
			br := bufio.NewReaderSize(strings.NewReader(raw), 64)
			var h respHead
			err := readHead(br, &h)
			if err == nil {
				err = discardBody(br, &h)
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("read(%q) = %v, want %v", tt.raw, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("read(%q) = %v, want nil", tt.raw, err)
			}
			if got, want := describe(&h), describe(&tt.want); got != want {
				t.Errorf("read(%q) = %s, want %s", tt.raw, got, want)
			}
			if rest, _ := io.ReadAll(br); string(rest) != "NEXT" {
				t.Errorf("read(%q) left %q, want NEXT", tt.raw, rest)
			}
		})
	}
}

// describe shows every field of h.
func describe(h *respHead) string {
	return fmt.Sprintf("HTTP/1.%d %d %q, length %d, chunked %t, encoded %t, close %t", h.Minor, h.Status, h.Reason, h.Length, h.Chunked, h.Encoded, h.Close)
}

// appendAnswer formats an answer with head h (Status, Reason, Minor,
// Chunked, Close; Length when not chunked) and body, with one extra
// header field, the way a server writes it.
func appendAnswer(b []byte, h *respHead, name, value string, body []byte) []byte {
	b = fmt.Appendf(b, "HTTP/1.%d %03d %s\r\n", h.Minor, h.Status, h.Reason)
	if name != "" {
		b = fmt.Appendf(b, "%s: %s\r\n", name, value)
	}
	switch {
	case h.Close:
		b = append(b, "Connection: close\r\n"...)
	case h.Minor == 0:
		b = append(b, "Connection: keep-alive\r\n"...)
	}
	if h.Chunked {
		b = append(b, "Transfer-Encoding: chunked\r\n\r\n"...)
		if h.framing() == bodyNone {
			return b
		}
		for rest := body; len(rest) > 0; {
			n := min(len(rest), 1+len(rest)%7)
			b = fmt.Appendf(b, "%x\r\n%s\r\n", n, rest[:n])
			rest = rest[n:]
		}
		return append(b, "0\r\n\r\n"...)
	}
	if h.Length >= 0 {
		b = fmt.Appendf(b, "Content-Length: %d\r\n", h.Length)
	}
	b = append(b, "\r\n"...)
	return append(b, body...)
}

// FuzzAnswerRoundTrip formats an answer from random fields and parses it
// back: the head must come back as formatted and the body be read to its
// last byte, no further.
func FuzzAnswerRoundTrip(f *testing.F) {
	f.Add(uint8(1), uint16(200), "OK", false, true, false, "Content-Type", "application/json", []byte(`{"found":true}`))
	f.Add(uint8(1), uint16(500), "Internal Server Error", true, false, true, "X-A", " b ", []byte("boom"))
	f.Add(uint8(0), uint16(404), "", false, false, false, "", "", []byte("gone"))
	f.Fuzz(func(t *testing.T, minor uint8, status uint16, reason string, chunked, length, closeConn bool, name, value string, body []byte) {
		h := respHead{Minor: int(minor % 2), Status: 200 + int(status%800), Reason: []byte(reason), Length: -1,
			Chunked: chunked, Encoded: chunked, Close: closeConn}
		if !validText(reason) || !validText(value) || (name != "" && !isToken([]byte(name))) {
			return
		}
		switch strings.ToLower(name) {
		case "content-length", "transfer-encoding", "connection":
			return
		}
		if h.Status == 204 || h.Status == 304 {
			body = nil
		}
		if !chunked && length {
			h.Length = int64(len(body))
		}
		untilClose := h.framing() == bodyUntilClose
		raw := appendAnswer(nil, &h, name, value, body)
		if !untilClose {
			raw = append(raw, "NEXT"...)
		}
		br := bufio.NewReaderSize(iotest.OneByteReader(bytes.NewReader(raw)), maxLine)
		var got respHead
		if err := readHead(br, &got); err != nil {
			t.Fatalf("readHead(%q) = %v", raw, err)
		}
		if g, w := describe(&got), describe(&h); g != w {
			t.Fatalf("readHead(%q) = %s, want %s", raw, g, w)
		}
		if err := discardBody(br, &got); err != nil {
			t.Fatalf("discardBody(%q) = %v", raw, err)
		}
		rest, _ := io.ReadAll(br)
		if want := "NEXT"; untilClose && len(rest) != 0 || !untilClose && string(rest) != want {
			t.Fatalf("read(%q) left %q", raw, rest)
		}
	})
}

// validText reports whether s can be a reason phrase or field value
// (RFC 9112 section 4, RFC 9110 section 5.5) that survives trimming.
func validText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// FuzzReadAnswer feeds garbage to the parser: no panic, and a head it
// accepts has a three-digit status.
func FuzzReadAnswer(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x\r\nhello\r\n0\r\nT: 1\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 204 x\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		br := bufio.NewReaderSize(bytes.NewReader(raw), 32)
		var h respHead
		if err := readHead(br, &h); err != nil {
			return
		}
		if h.Status < 100 || h.Status > 999 {
			t.Fatalf("readHead(%q): status %d", raw, h.Status)
		}
		_ = discardBody(br, &h)
	})
}

// BenchmarkClient compares the load's client with net/http's on one
// connection to a server answering a lookup-sized body: the client's
// cost is taken from the cores the measured service could have.
func BenchmarkClient(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer srv.Close()
	b.Run("keepAlive", func(b *testing.B) {
		k := newKeepAlive(srv.Listener.Addr().String(), srv.Listener.Addr().String(), "", "tok", time.Minute)
		defer k.drop()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := k.do(context.Background(), "/api/v1/lookup?chip=985121004515220"); err != nil || k.resp.Status != 200 {
				b.Fatal(err, k.resp.Status)
			}
		}
	})
	b.Run("net/http", func(b *testing.B) {
		hc := &http.Client{Transport: &http.Transport{DisableCompression: true}}
		defer hc.CloseIdleConnections()
		b.ReportAllocs()
		for b.Loop() {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/lookup?chip=985121004515220", nil)
			req.Header.Set("Authorization", "Bearer tok")
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
}
