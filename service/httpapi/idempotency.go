package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// IdempotencyHeader names the request header that makes a create
// request safe to retry (draft-ietf-httpapi-idempotency-key-header):
// the store keeps the key, scoped to the caller's token, in the
// transaction that creates the record, with the answer. A retry with
// the same key, method, path and body gets the stored answer and
// creates nothing; the same key with another request is 409 ECONFLICT,
// as is a retry while the first request is still being written. Keys
// are kept service.IdempotencyTTL (24 h). Answers other than success
// are not kept: such a request may be retried with its key.
const IdempotencyHeader = "Idempotency-Key"

// ReplayedHeader is set ("true") on an answer replayed for a key.
const ReplayedHeader = "Idempotent-Replayed"

// maxIdempotencyKey is the longest key accepted, in bytes.
const maxIdempotencyKey = 255

// idempotent wraps a handler whose one store write creates a record
// with a store method that keeps the key (CreateLicence, CreateOwner,
// CreateAnimal, CreateVaccination), so that it honours
// IdempotencyHeader. A handler that creates two records must not be
// wrapped: the second would find the key taken.
func (s *Server) idempotent(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key, ok, err := idempotencyKeyOf(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		t := callerOf(r.Context())
		if !ok || t == nil {
			h(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sum := sha256.Sum256(body)
		req := &service.IdempotentRequest{Key: key, Actor: "token:" + strconv.FormatInt(t.ID, 10),
			Method: r.Method, Path: r.URL.Path, BodyHash: hex.EncodeToString(sum[:]),
			Status: http.StatusCreated, Encode: encodeAnswer}
		prev, err := s.store.FindIdempotencyKey(r.Context(), req.Actor, key)
		switch {
		case err == nil:
			if prev.Method != req.Method || prev.Path != req.Path || prev.BodyHash != req.BodyHash {
				s.writeError(w, r, service.Errorf(service.ECONFLICT,
					"This Idempotency-Key was used for another request: use a new key for a new request."))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set(ReplayedHeader, "true")
			w.WriteHeader(prev.Status)
			_, _ = w.Write(prev.Body)
		case service.ErrorCode(err) == service.ENOTFOUND:
			h(w, r.WithContext(service.WithIdempotency(r.Context(), req)))
		default:
			s.writeError(w, r, err)
		}
	}
}

// idempotencyKeyOf reads IdempotencyHeader: printable ASCII, at most
// maxIdempotencyKey bytes, bare or as a structured-field string
// (RFC 8941 section 3.3.3, "key").
func idempotencyKeyOf(r *http.Request) (string, bool, error) {
	vs := r.Header.Values(IdempotencyHeader)
	if len(vs) == 0 {
		return "", false, nil
	}
	k := strings.TrimSpace(vs[0])
	if len(k) >= 2 && k[0] == '"' && k[len(k)-1] == '"' {
		k = k[1 : len(k)-1]
	}
	bad := len(vs) > 1 || k == "" || len(k) > maxIdempotencyKey
	for i := 0; i < len(k) && !bad; i++ {
		bad = k[i] < 0x21 || k[i] > 0x7e
	}
	if bad {
		return "", false, service.Errorf(service.EINVALID,
			"Idempotency-Key must be one value of 1 to %d printable ASCII characters.", maxIdempotencyKey)
	}
	return k, true, nil
}

// encodeAnswer renders a created record as writeJSON does.
func encodeAnswer(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
