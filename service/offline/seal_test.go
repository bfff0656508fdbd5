package offline_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
)

// TestSealedCopy: a replica pulled over HTTP with a device token is
// sealed under the key the central service issued that token (the file
// names it); the officer's PIN opens it, a wrong or missing PIN is
// refused with a clear error, an incremental pull keeps it sealed, and a
// revoked device gets no key again. A new token for the device brings a
// new key and a full pull, so nothing stays under the old one.
func TestSealedCopy(t *testing.T) {
	t.Parallel()
	for _, be := range backends {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := be.open(t)
			sd := seed(t, s)
			srv := httptest.NewServer(offline.Handler(&offline.StoreCentral{Store: s}, &offline.HandlerOpts{Tokens: s, Audit: s}))
			defer srv.Close()
			token := func(name string) (string, int64) {
				secret, err := s.CreateToken(ctx, &service.Token{Name: name, Role: service.RoleOfficer})
				if err != nil {
					t.Fatal(err)
				}
				toks, err := s.FindTokens(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return secret, toks[len(toks)-1].ID
			}
			secret, tokID := token("handheld-3")
			c := &offline.HTTPClient{URL: srv.URL, Token: secret}
			path := filepath.Join(t.TempDir(), "handheld.db")
			opts := func(pin string) *offline.Opts {
				return &offline.Opts{Device: "handheld-3", PIN: pin, Now: now}
			}
			r, err := offline.Open(ctx, path, opts(testPIN))
			if err != nil {
				t.Fatal(err)
			}
			if rep := syncOK(t, r, c); !rep.Full || rep.Records != 2 {
				t.Fatalf("first pull = %+v, want full with 2 records", rep)
			}
			keyID, err := r.KeyID(ctx)
			if err != nil || !strings.HasPrefix(keyID, "k"+strconv.FormatInt(tokID, 10)+"-") {
				t.Fatalf("KeyID = %q, %v; want the key of token %d", keyID, err, tokID)
			}

			// The owner changes phone: an incremental pull, still sealed.
			phone := "952-555-0177"
			if _, err := s.UpdateOwner(ctx, sd.dog.OwnerID, service.OwnerUpdate{Phone: &phone}); err != nil {
				t.Fatal(err)
			}
			if rep := syncOK(t, r, c); rep.Full || rep.Pulled != 1 {
				t.Fatalf("second pull = %+v, want incremental with 1 record", rep)
			}
			if rec, err := r.FindRecordByChip(ctx, dogChip); err != nil || rec.Owner.Phone != phone {
				t.Fatalf("lookup after the incremental pull = %+v, %v; want phone %s", rec, err, phone)
			}
			r.Close()
			if all := replicaBytes(t, path); strings.Contains(string(all), phone) || strings.Contains(string(all), "Ada Lund") {
				t.Fatalf("the replica file holds the owner's phone or name in clear")
			}

			// A wrong PIN, or none: refused, naming the PIN.
			for _, pin := range []string{"", "0000"} {
				r, err := offline.Open(ctx, path, opts(pin))
				if err != nil {
					t.Fatal(err)
				}
				_, err = r.FindRecordByChip(ctx, dogChip)
				if service.ErrorCode(err) != service.EINVALID || !strings.Contains(service.ErrorMessage(err), "PIN") {
					t.Errorf("lookup with PIN %q = %v, want a refusal naming the PIN", pin, err)
				}
				if _, err := offline.Sync(ctx, r, c, &offline.SyncOpts{NoPush: true}); service.ErrorCode(err) != service.EINVALID {
					t.Errorf("pull with PIN %q = %v, want a refusal naming the PIN", pin, err)
				}
				// Events are queued whatever the PIN: they hold no owner.
				if _, err := r.RecordScan(ctx, parse(t, dogChip), "handheld-3"); err != nil {
					t.Errorf("scan with PIN %q: %v", pin, err)
				}
				r.Close()
			}

			// Revoked: no key, no pull.
			if err := s.RevokeToken(ctx, tokID); err != nil {
				t.Fatal(err)
			}
			if k, err := c.DeviceKey(ctx); err == nil || !strings.Contains(err.Error(), "401") {
				t.Fatalf("DeviceKey of a revoked token = %v, %v; want 401", k, err)
			}
			r, err = offline.Open(ctx, path, opts(testPIN))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := offline.Sync(ctx, r, c, &offline.SyncOpts{NoPush: true}); err == nil || !strings.Contains(err.Error(), "401") {
				t.Fatalf("pull with a revoked token = %v, want 401", err)
			}

			// A new token: a new key, the copy pulled in full under it.
			secret2, _ := token("handheld-3b")
			rep, err := offline.Sync(ctx, r, &offline.HTTPClient{URL: srv.URL, Token: secret2}, nil)
			if err != nil || !rep.Full || rep.Records != 2 {
				t.Fatalf("pull with a new token = %+v, %v; want a full pull of 2 records", rep, err)
			}
			if id, _ := r.KeyID(ctx); id == keyID || id == "" {
				t.Fatalf("KeyID after a new token = %q, want other than %q", id, keyID)
			}
			if rec, err := r.FindRecordByChip(ctx, dogChip); err != nil || rec.Owner.Phone != phone {
				t.Fatalf("lookup under the new key = %+v, %v", rec, err)
			}
			// The audit log names the keys issued, never the keys.
			evs, _, err := s.FindAuditEvents(ctx, service.AuditFilter{Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, ev := range evs {
				if ev.Action == "replica.key" {
					n++
					if !strings.HasPrefix(ev.Detail, "key k") || len(ev.Detail) > 40 {
						t.Errorf("replica.key audit detail %q", ev.Detail)
					}
				}
			}
			if n != 3 {
				t.Errorf("%d replica.key audit entries, want 3 (two pulls, one with a new token)", n)
			}
		})
	}
}

// TestUnsealedCopySealedByItsNextPull: a copy of a version that sealed
// nothing (its records their JSON) still answers lookups, and its next
// pull, a full one under the device's key, leaves no owner's name or
// phone in the file or its write-ahead log (the old tables' pages are
// zeroed, secure_delete, and given back, incremental vacuum).
func TestUnsealedCopySealedByItsNextPull(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := backends[0].open(t)
	seed(t, s)
	c := &offline.StoreCentral{Store: s}
	path := filepath.Join(t.TempDir(), "handheld.db")
	o := &offline.Opts{Device: "handheld-3", PIN: testPIN, Now: now}
	r, err := offline.Open(ctx, path, o)
	if err != nil {
		t.Fatal(err)
	}
	syncOK(t, r, c)
	unsealCopy(t, r, path)
	if !strings.Contains(string(replicaBytes(t, path)), "Ada Lund") {
		t.Fatal("the unsealed copy holds no owner's name: the check below would pass on any file")
	}

	r, err = offline.Open(ctx, path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if rec, err := r.FindRecordByChip(ctx, dogChip); err != nil || rec.Owner.Name != "Ada Lund" {
		t.Fatalf("lookup in the unsealed copy = %+v, %v", rec, err)
	}
	if rep := syncOK(t, r, c); !rep.Full {
		t.Fatalf("first pull of an unsealed copy = %+v, want a full one", rep)
	}
	if rec, err := r.FindRecordByChip(ctx, dogChip); err != nil || rec.Owner.Name != "Ada Lund" {
		t.Fatalf("lookup after sealing = %+v, %v", rec, err)
	}
	all := string(replicaBytes(t, path))
	for _, secret := range []string{"Ada Lund", "612-555-0101"} {
		if strings.Contains(all, secret) {
			t.Errorf("the sealed copy's file still holds %q", secret)
		}
	}
}

// unsealCopy closes r and rewrites its file at path as a version that
// sealed nothing left it: each record its JSON, no key in the meta.
func unsealCopy(t *testing.T, r *offline.Replica, path string) {
	t.Helper()
	ctx := context.Background()
	plain := map[int64][]byte{}
	var err error
	if err := r.EachRecord(ctx, func(rec *service.Record) error {
		plain[rec.Animal.ID], err = json.Marshal(rec)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	r.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `DELETE FROM meta WHERE key IN ('key_id', 'kdf', 'key_salt', 'key_wrapped')`); err != nil {
		t.Fatal(err)
	}
	for id, b := range plain {
		if _, err := db.ExecContext(ctx, `UPDATE records SET body = ? WHERE animal_id = ?`, string(b), id); err != nil {
			t.Fatal(err)
		}
	}
}
