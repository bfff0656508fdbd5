package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// Errors of the load generator's HTTP/1.1 client, always wrapped in one
// that names the package and the request.
var (
	// errMalformed reports an answer that is not HTTP/1.1 (RFC 9112).
	errMalformed = errors.New("malformed HTTP answer")
	// errNoAnswer reports a connection closed before any byte of an
	// answer: on a reused connection, the server closed it while idle.
	errNoAnswer = errors.New("connection closed before an answer")
)

// Limits of the response parser.
const (
	// maxLine bounds a status line, header line or chunk-size line; it
	// is the size of the client's read buffer.
	maxLine = 16 << 10
	// maxHeaders bounds the header fields of one response.
	maxHeaders = 256
	// maxInterim bounds the 1xx answers before the final one.
	maxInterim = 16
)

// keepAlive is one simulated client: one HTTP/1.1 connection kept open
// between requests, the way a browser or wrk keeps it, with one request
// in flight at a time. It does not pipeline (RFC 9112 section 9.3.2):
// real clients do not, so neither does the load. The request is written
// from a reused buffer and the answer parsed from a bufio.Reader and
// discarded, so a request costs the client two system calls and no
// allocation.
type keepAlive struct {
	addr    string // host:port dialled
	prefix  string // base path of the service, before each request's path
	tail    []byte // " HTTP/1.1", Host, Authorization, the empty line
	timeout time.Duration
	dialer  net.Dialer

	mu   sync.Mutex // guards conn against abort
	conn net.Conn
	br   *bufio.Reader
	used bool // conn has answered a request already

	req  []byte
	resp respHead
}

// newKeepAlive returns a client of the service at addr (host:port),
// sending host as Host and token, when not empty, as bearer token.
func newKeepAlive(addr, host, prefix, token string, timeout time.Duration) *keepAlive {
	tail := []byte(" HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: chipdesk-bench\r\n")
	if token != "" {
		tail = append(tail, "Authorization: Bearer "+token+"\r\n"...)
	}
	tail = append(tail, "\r\n"...)
	return &keepAlive{addr: addr, prefix: prefix, tail: tail, timeout: timeout}
}

// do sends GET prefix+path and reads the whole answer, whose head is
// then in k.resp. It returns the time from writing the request to
// reading the answer's last byte. A connection the server closed while
// idle is redialled once, as net/http does for idempotent requests.
func (k *keepAlive) do(ctx context.Context, path string) (time.Duration, error) {
	if err := checkTarget(path); err != nil {
		return 0, err
	}
	for attempt := 0; ; attempt++ {
		if k.conn == nil {
			if err := k.dial(ctx); err != nil {
				return 0, err
			}
		}
		t0 := time.Now()
		if err := k.conn.SetDeadline(t0.Add(k.timeout)); err != nil {
			k.drop()
			return 0, fmt.Errorf("bench: %w", err)
		}
		// Checked after the deadline is set: abort, which runs once ctx
		// is done, sets its own deadline after this one.
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		reused := k.used
		err := k.roundTrip(path)
		if err == nil {
			return time.Since(t0), nil
		}
		k.drop()
		if attempt == 0 && reused && errors.Is(err, errNoAnswer) && ctx.Err() == nil {
			continue
		}
		return 0, fmt.Errorf("bench: GET %s: %w", pathOnly(path), err)
	}
}

// roundTrip writes the request and reads the answer on k.conn.
func (k *keepAlive) roundTrip(path string) error {
	k.req = append(k.req[:0], "GET "...)
	k.req = append(k.req, k.prefix...)
	k.req = append(k.req, path...)
	k.req = append(k.req, k.tail...)
	if _, err := k.conn.Write(k.req); err != nil {
		if isTimeout(err) {
			return err
		}
		return fmt.Errorf("%w: %w", errNoAnswer, err)
	}
	if err := readHead(k.br, &k.resp); err != nil {
		return err
	}
	if err := discardBody(k.br, &k.resp); err != nil {
		return err
	}
	k.used = true
	if k.resp.Close || k.resp.framing() == bodyUntilClose {
		k.drop()
	}
	return nil
}

// dial opens a fresh connection.
func (k *keepAlive) dial(ctx context.Context) error {
	c, err := k.dialer.DialContext(ctx, "tcp", k.addr)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if k.br == nil {
		k.br = bufio.NewReaderSize(c, maxLine)
	} else {
		k.br.Reset(c)
	}
	k.mu.Lock()
	k.conn, k.used = c, false
	k.mu.Unlock()
	return nil
}

// drop closes the connection; the next request dials again.
func (k *keepAlive) drop() {
	k.mu.Lock()
	if k.conn != nil {
		k.conn.Close()
		k.conn = nil
	}
	k.mu.Unlock()
}

// abort makes the request in flight, if any, fail at once. It runs on
// another goroutine when the load's context is done.
func (k *keepAlive) abort() {
	k.mu.Lock()
	if k.conn != nil {
		k.conn.SetDeadline(time.Unix(1, 0))
	}
	k.mu.Unlock()
}

func isTimeout(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

// checkTarget refuses a path that would not make one request line: the
// request-target (RFC 9112 section 3.2) holds visible ASCII only.
func checkTarget(path string) error {
	for i := 0; i < len(path); i++ {
		if c := path[i]; c <= ' ' || c >= 0x7f {
			return fmt.Errorf("bench: path %q: byte %#x not allowed in a request target", path, c)
		}
	}
	return nil
}

// pathOnly is path without its query.
func pathOnly(path string) string {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		return path[:i]
	}
	return path
}

// respHead is what a client needs from a response's head (RFC 9112
// sections 4 to 6): the status, how the body is delimited and whether
// the connection stays open.
type respHead struct {
	// Minor is the minor version: HTTP/1.Minor.
	Minor  int
	Status int
	// Reason is the reason phrase; its storage is reused by the next
	// parse.
	Reason []byte
	// Length is Content-Length, -1 when absent.
	Length int64
	// Chunked is set when the final transfer coding is chunked;
	// Encoded when any Transfer-Encoding is given.
	Chunked, Encoded bool
	// Close is set when the server closes the connection after this
	// answer: "Connection: close", or HTTP/1.0 without keep-alive
	// (RFC 9112 section 9.3).
	Close bool
}

// Body framings (RFC 9112 section 6.3).
const (
	bodyNone = iota
	bodyChunked
	bodyLength
	bodyUntilClose
)

// framing tells how the body of an answer to GET is delimited (RFC 9112
// section 6.3): none for 1xx, 204 and 304; chunked when it is the final
// transfer coding; until close for any other transfer coding;
// Content-Length; else until close.
func (h *respHead) framing() int {
	switch {
	case h.Status < 200 || h.Status == 204 || h.Status == 304:
		return bodyNone
	case h.Chunked:
		return bodyChunked
	case h.Encoded:
		return bodyUntilClose
	case h.Length >= 0:
		return bodyLength
	}
	return bodyUntilClose
}

// readHead reads the head of the final answer into h, skipping interim
// 1xx answers (RFC 9110 section 15.2). A connection closed before the
// answer's first byte gives errNoAnswer.
func readHead(br *bufio.Reader, h *respHead) error {
	for range maxInterim {
		if err := readOneHead(br, h); err != nil {
			return err
		}
		if h.Status == 101 {
			// Switching protocols: what follows is not HTTP/1.1.
			h.Close = true
			return nil
		}
		if h.Status >= 200 {
			return nil
		}
	}
	return fmt.Errorf("%w: more than %d interim answers", errMalformed, maxInterim)
}

// readOneHead reads one status line and its header fields.
func readOneHead(br *bufio.Reader, h *respHead) error {
	line, err := readLine(br)
	if err != nil {
		if len(line) == 0 && !isTimeout(err) {
			return fmt.Errorf("%w: %w", errNoAnswer, err)
		}
		return err
	}
	if err := parseStatusLine(line, h); err != nil {
		return err
	}
	keepAlive := false
	for n := 0; ; n++ {
		line, err := readLine(br)
		if err != nil {
			return err
		}
		if len(line) == 0 {
			break
		}
		if n == maxHeaders {
			return fmt.Errorf("%w: more than %d header fields", errMalformed, maxHeaders)
		}
		if line[0] == ' ' || line[0] == '\t' {
			// obs-fold (RFC 9112 section 5.2): folding is not allowed
			// in a response; refused rather than guessed at.
			return fmt.Errorf("%w: folded header line", errMalformed)
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok || len(name) == 0 || !isToken(name) {
			return fmt.Errorf("%w: header line %q", errMalformed, clip(line))
		}
		value = trimOWS(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := parseLength(value)
			if err != nil {
				return err
			}
			if h.Length >= 0 && h.Length != n {
				return fmt.Errorf("%w: two Content-Length values", errMalformed)
			}
			h.Length = n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			h.Encoded = true
			// The last coding of the last field is the final one
			// (RFC 9112 section 6.1).
			last := value
			if i := bytes.LastIndexByte(value, ','); i >= 0 {
				last = trimOWS(value[i+1:])
			}
			if len(last) > 0 {
				h.Chunked = bytes.EqualFold(last, []byte("chunked"))
			}
		case bytes.EqualFold(name, []byte("Connection")):
			// A comma-separated list of options (RFC 9110 section 7.6.1).
			for opt := range bytes.SplitSeq(value, []byte{','}) {
				opt = trimOWS(opt)
				switch {
				case bytes.EqualFold(opt, []byte("close")):
					h.Close = true
				case bytes.EqualFold(opt, []byte("keep-alive")):
					keepAlive = true
				}
			}
		}
	}
	if h.Minor == 0 && !keepAlive {
		h.Close = true
	}
	return nil
}

// parseStatusLine parses "HTTP/1.x SP 3DIGIT SP reason" (RFC 9112
// section 4) into h, resetting its other fields.
func parseStatusLine(line []byte, h *respHead) error {
	*h = respHead{Reason: h.Reason[:0], Length: -1}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || !isDigit(line[7]) || line[8] != ' ' {
		return fmt.Errorf("%w: status line %q", errMalformed, clip(line))
	}
	h.Minor = int(line[7] - '0')
	code := line[9:12]
	if !isDigit(code[0]) || !isDigit(code[1]) || !isDigit(code[2]) || code[0] == '0' {
		return fmt.Errorf("%w: status line %q", errMalformed, clip(line))
	}
	h.Status = int(code[0]-'0')*100 + int(code[1]-'0')*10 + int(code[2]-'0')
	rest := line[12:]
	if len(rest) > 0 {
		if rest[0] != ' ' {
			return fmt.Errorf("%w: status line %q", errMalformed, clip(line))
		}
		h.Reason = append(h.Reason, rest[1:]...)
	}
	return nil
}

// discardBody reads the body framed as h says and throws it away.
func discardBody(br *bufio.Reader, h *respHead) error {
	switch h.framing() {
	case bodyChunked:
		return discardChunked(br)
	case bodyLength:
		if h.Length > 1<<40 {
			return fmt.Errorf("%w: Content-Length %d", errMalformed, h.Length)
		}
		if _, err := br.Discard(int(h.Length)); err != nil {
			return eofIsUnexpected(err)
		}
	case bodyUntilClose:
		if _, err := io.Copy(io.Discard, br); err != nil {
			return err
		}
	}
	return nil
}

// discardChunked reads a chunked body (RFC 9112 section 7.1): chunks,
// the last chunk, trailer fields and the final empty line.
func discardChunked(br *bufio.Reader) error {
	for {
		line, err := readLine(br)
		if err != nil {
			return err
		}
		size, err := parseChunkSize(line)
		if err != nil {
			return err
		}
		if size == 0 {
			for {
				line, err := readLine(br)
				if err != nil {
					return err
				}
				if len(line) == 0 {
					return nil
				}
			}
		}
		if _, err := br.Discard(int(size)); err != nil {
			return eofIsUnexpected(err)
		}
		line, err = readLine(br)
		if err != nil {
			return err
		}
		if len(line) != 0 {
			return fmt.Errorf("%w: chunk longer than its size", errMalformed)
		}
	}
}

// parseChunkSize parses "1*HEXDIG [BWS ; ext]".
func parseChunkSize(line []byte) (int64, error) {
	var n int64
	i := 0
	for ; i < len(line); i++ {
		c := line[i]
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			goto end
		}
		if i == 10 {
			return 0, fmt.Errorf("%w: chunk size %q too large", errMalformed, clip(line))
		}
		n = n<<4 | int64(d)
	}
end:
	if i == 0 {
		return 0, fmt.Errorf("%w: chunk size %q", errMalformed, clip(line))
	}
	if rest := trimOWS(line[i:]); len(rest) > 0 && rest[0] != ';' {
		return 0, fmt.Errorf("%w: chunk size %q", errMalformed, clip(line))
	}
	return n, nil
}

// parseLength parses a Content-Length value: digits, or a list of equal
// values (RFC 9110 section 8.6).
func parseLength(v []byte) (int64, error) {
	n := int64(-1)
	for part := range bytes.SplitSeq(v, []byte{','}) {
		part = trimOWS(part)
		if len(part) == 0 || len(part) > 15 {
			return 0, fmt.Errorf("%w: Content-Length %q", errMalformed, clip(v))
		}
		var m int64
		for _, c := range part {
			if !isDigit(c) {
				return 0, fmt.Errorf("%w: Content-Length %q", errMalformed, clip(v))
			}
			m = m*10 + int64(c-'0')
		}
		if n >= 0 && m != n {
			return 0, fmt.Errorf("%w: Content-Length %q", errMalformed, clip(v))
		}
		n = m
	}
	return n, nil
}

// readLine returns the next line without its CRLF (or bare LF, RFC 9112
// section 2.2). The line is valid until the next read.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Errorf("%w: line longer than %d bytes", errMalformed, maxLine)
	case err != nil:
		return line, eofIsUnexpected(err)
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

func eofIsUnexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// trimOWS trims optional white space (RFC 9110 section 5.6.3).
func trimOWS(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isToken reports whether b is a token (RFC 9110 section 5.6.2).
func isToken(b []byte) bool {
	for _, c := range b {
		if !isTchar(c) {
			return false
		}
	}
	return true
}

func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// clip shortens b for an error message.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}
