package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/lookup"
)

// errorBody is the JSON body of every error answer.
type errorBody struct {
	Error errorDetail `json:"error"`
}

// errorDetail is {"code", "message", "field"}: field names the request
// field at fault, when one is.
type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	// Candidates are the chips an ambiguous chip number could be.
	Candidates []*lookup.Chip `json:"candidates,omitempty"`
}

// jsonBuf is a buffer and its encoder, kept in Server.jsonBufs between
// answers so that encoding an answer allocates nothing of its size.
type jsonBuf struct {
	b   bytes.Buffer
	enc *json.Encoder
}

// maxPooledJSON bounds the buffers kept for reuse: the one of a rare
// large answer (a long page of a list) is left to the collector.
const maxPooledJSON = 64 << 10

func newJSONBuf() any {
	jb := &jsonBuf{}
	jb.enc = json.NewEncoder(&jb.b)
	return jb
}

// writeJSON answers v as JSON with status: the bytes of json.Marshal and
// a newline, with Content-Length, so that no answer is chunked.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	jb := s.jsonBufs.Get().(*jsonBuf)
	defer s.putJSONBuf(jb)
	jb.b.Reset()
	if err := jb.enc.Encode(v); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.send(w, status, jb.b.Bytes())
}

func (s *Server) putJSONBuf(jb *jsonBuf) {
	if jb.b.Cap() <= maxPooledJSON {
		s.jsonBufs.Put(jb)
	}
}

// send writes an encoded JSON answer. The header fields are set by their
// canonical names, as Header.Set would.
func (s *Server) send(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = s.jsonType
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeError answers err as a JSON error. Application errors (*service.Error)
// carry their code and message; any other error is logged with the request
// and answered "Internal error." so no internal detail reaches a client.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := service.ErrorCode(err), service.ErrorMessage(err)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		s.writeJSON(w, r, http.StatusRequestEntityTooLarge, errorBody{errorDetail{Code: service.EINVALID, Message: "Request body too large."}})
		return
	}
	if code == service.EINTERNAL {
		s.log.LogAttrs(r.Context(), slog.LevelError, "httpapi: internal error",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	if code == service.EUNAUTHORIZED {
		w.Header().Set("WWW-Authenticate", `Bearer realm="chipdesk"`)
	}
	d := errorDetail{Code: code, Message: msg, Field: service.ErrorField(err)}
	var amb *lookup.AmbiguousChipError
	if errors.As(err, &amb) {
		d.Candidates = amb.Candidates
	}
	s.writeJSON(w, r, service.HTTPStatus(code), errorBody{d})
}

// decodeJSON reads the request body into v. The body is already limited
// by the server's size limit; unknown fields and trailing data are
// errors, reported as EINVALID.
func decodeJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err // a *http.MaxBytesError, answered 413
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var de *service.DateError
		if errors.As(err, &de) {
			// A date that is no calendar date ("2026-02-30"): name the
			// field that held it.
			f := fieldHolding(body, de.Text)
			return service.Invalidf(f, "%s: %q is not a calendar date (YYYY-MM-DD).", f, de.Text)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return service.Invalidf(te.Field, "Invalid JSON body: %s.", jsonProblem(err))
		}
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok && len(f) < 64 {
			return service.Invalidf(strings.Trim(f, `"`), "Invalid JSON body: %s.", jsonProblem(err))
		}
		return service.Errorf(service.EINVALID, "Invalid JSON body: %s.", jsonProblem(err))
	}
	if dec.More() {
		return service.Errorf(service.EINVALID, "Invalid JSON body: trailing data.")
	}
	return nil
}

// fieldHolding returns the key path ("issued_on", "vaccination.date") of
// the first string value equal to text in the JSON body, "" when none.
func fieldHolding(body []byte, text string) string {
	var doc any
	if json.Unmarshal(body, &doc) != nil {
		return ""
	}
	var walk func(v any, path string) (string, bool)
	walk = func(v any, path string) (string, bool) {
		switch x := v.(type) {
		case string:
			return path, x == text
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if f, ok := walk(x[k], p); ok {
					return f, true
				}
			}
		case []any:
			for i, e := range x {
				if f, ok := walk(e, path+"["+strconv.Itoa(i)+"]"); ok {
					return f, true
				}
			}
		}
		return "", false
	}
	f, _ := walk(doc, "")
	return f
}

// jsonProblem describes a decoding error without internal detail.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return "syntax error"
	case errors.As(err, &te):
		if te.Field != "" {
			return "wrong type for field " + te.Field
		}
		return "wrong type"
	case errors.Is(err, io.EOF):
		return "empty body"
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok && len(f) < 64 {
		return "unknown field " + f
	}
	return "cannot decode"
}
