// Package access holds who may act: the staff accounts' passwords
// (bcrypt, from golang.org/x/crypto) and the watch that ends, within a
// second and across processes, everything a revoked token or a
// disabled account opened.
//
// A person signs in to the pages with an account (service.User); API
// tokens (service.Token) stay for machines. Revocation goes through the
// database, whichever door made it (the API, the admin page, "chipdesk
// token revoke", "chipdesk user disable"): every process polls the
// tokens and accounts (Watcher, DefaultPoll) and drops cached checks,
// sessions and event streams of what was revoked.
//
// References:
//   - OWASP ASVS 4.0.3, V2.4 (credential storage: bcrypt, cost >= 10),
//     V3.3 (session termination on logout, idle and revocation).
//   - N. Provos, D. Mazières, "A Future-Adaptable Password Scheme"
//     (bcrypt), USENIX 1999.
package access
