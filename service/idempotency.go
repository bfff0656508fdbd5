package service

import (
	"context"
	"time"
)

// IdempotencyTTL is how long a stored Idempotency-Key answers retries:
// 24 hours from the request that created the record. A store deletes
// older keys as it writes new ones; a key older than this is unknown
// and a request carrying it is a new request.
const IdempotencyTTL = 24 * time.Hour

// IdempotentRequest is a create request that carried an
// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header). The HTTP
// layer puts it in the request's context (WithIdempotency); the store
// method that creates the record keeps the key, with the answer, in the
// same transaction as the record, so that a crash leaves either both or
// neither.
type IdempotentRequest struct {
	// Key is the client's key; Actor the token it is scoped to.
	Key, Actor string
	// Method, Path and BodyHash (hex SHA-256 of the body) identify the
	// request: a retry must repeat them.
	Method, Path, BodyHash string
	// Status is the answer's status code on success (201).
	Status int
	// Encode renders the created record as the answer's body.
	Encode func(v any) ([]byte, error)
}

// IdempotencyRecord is a stored key with the answer it gave.
type IdempotencyRecord struct {
	Key, Actor, Method, Path, BodyHash string
	Status                             int
	Body                               []byte
	CreatedAt                          time.Time
}

// IdempotencyService keeps Idempotency-Keys. Keys are written by the
// create methods CreateLicence, CreateOwner, CreateAnimal and
// CreateVaccination when the context carries
// an IdempotentRequest; a second record with the same Actor and Key is
// ECONFLICT and leaves nothing behind.
type IdempotencyService interface {
	// FindIdempotencyKey returns the key's stored answer, ENOTFOUND
	// when there is none younger than IdempotencyTTL.
	FindIdempotencyKey(ctx context.Context, actor, key string) (*IdempotencyRecord, error)
}

type idempotencyKey struct{}

// WithIdempotency returns ctx carrying req.
func WithIdempotency(ctx context.Context, req *IdempotentRequest) context.Context {
	return context.WithValue(ctx, idempotencyKey{}, req)
}

// IdempotencyOf returns the IdempotentRequest ctx carries, or nil.
func IdempotencyOf(ctx context.Context) *IdempotentRequest {
	r, _ := ctx.Value(idempotencyKey{}).(*IdempotentRequest)
	return r
}

// Answer renders the stored answer of req for the created record v.
func (req *IdempotentRequest) Answer(v any) (*IdempotencyRecord, error) {
	body, err := req.Encode(v)
	if err != nil {
		return nil, err
	}
	return &IdempotencyRecord{Key: req.Key, Actor: req.Actor, Method: req.Method, Path: req.Path,
		BodyHash: req.BodyHash, Status: req.Status, Body: body}, nil
}
