// Package ratelimit limits how often one key (a client address, a
// token, an account name) may do something: a token bucket per key
// (Turner, "New directions in communications", 1986; the bucket of
// RFC 2697 without colours) that refills at a steady rate up to a burst.
//
// The service limits sign-in attempts, requests with a bad token and
// public chip lookups per address and per token (OWASP ASVS 2.2.1,
// 11.1.4), so that a password or a token cannot be guessed and the
// found-pet lookup cannot walk the registry. The limits are in the
// config file ([limits]).
package ratelimit
