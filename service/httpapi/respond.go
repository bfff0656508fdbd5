package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// errorBody is the JSON body of every error answer.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// statusOf maps an application error code to an HTTP status.
func statusOf(code string) int {
	switch code {
	case service.EINVALID:
		return http.StatusBadRequest
	case service.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case service.EFORBIDDEN:
		return http.StatusForbidden
	case service.ENOTFOUND:
		return http.StatusNotFound
	case service.ECONFLICT:
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

// writeJSON answers v as JSON with status.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b = append(b, '\n')
	_, _ = w.Write(b)
}

// writeError answers err as a JSON error. Application errors (*service.Error)
// carry their code and message; any other error is logged with the request
// and answered "Internal error." so no internal detail reaches a client.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code, msg := service.ErrorCode(err), service.ErrorMessage(err)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		b, _ := json.Marshal(errorBody{errorDetail{Code: service.EINVALID, Message: "Request body too large."}})
		_, _ = w.Write(append(b, '\n'))
		return
	}
	if code == service.EINTERNAL {
		s.log.LogAttrs(r.Context(), slog.LevelError, "httpapi: internal error",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	if code == service.EUNAUTHORIZED {
		w.Header().Set("WWW-Authenticate", `Bearer realm="chipdesk"`)
	}
	b, _ := json.Marshal(errorBody{errorDetail{Code: code, Message: msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(statusOf(code))
	_, _ = w.Write(append(b, '\n'))
}

// decodeJSON reads the request body into v. The body is already limited
// by the server's size limit; unknown fields and trailing data are
// errors, reported as EINVALID.
func decodeJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return service.Errorf(service.EINVALID, "Invalid JSON body: %s.", jsonProblem(err))
	}
	if dec.More() {
		return service.Errorf(service.EINVALID, "Invalid JSON body: trailing data.")
	}
	return nil
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
