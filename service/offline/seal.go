package offline

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/chipdesk/chipdesk/service"
)

// A replica's records are sealed at rest (README.md, "Safe to lose"):
// each record's JSON with AES-256-GCM under the device's data key
// (service.DeviceKey, issued by the central service per device token),
// the animal's id as additional data, so a sealed body cannot be moved
// to another animal. The data key is kept only wrapped: sealed with
// AES-256-GCM under a key derived from the officer's PIN by Argon2id
// (RFC 9106), with a random salt. The file names the key it was sealed
// with (meta key_id); neither the PIN nor the bare key is ever stored.

// sealPrefix starts a sealed record body; a body without it is the JSON
// of a copy made before replicas were sealed (until its next pull).
const sealPrefix = "sealed1:"

// Argon2id parameters of the PIN's key: RFC 9106's second recommended
// option with a smaller memory (a handheld), 19 MiB, as OWASP advises.
const (
	kdfTime    = 2
	kdfMemory  = 19 * 1024
	kdfThreads = 1
)

// kdfName records the derivation and its parameters in the file.
var kdfName = fmt.Sprintf("argon2id t=%d m=%d p=%d", kdfTime, kdfMemory, kdfThreads)

// errNoPIN and errWrongPIN are the refusals of a sealed copy.
var (
	errNoPIN = service.Invalidf("pin", "The officer's PIN is required: the offline copy's records are sealed under it (--pin, --pin - to read it from standard input, or $CHIPDESK_PIN).")
	errWrong = service.Invalidf("pin", "Wrong PIN: the offline copy's key does not open with it.")
)

func gcm(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// seal is plain sealed under key with ad, as nonce || ciphertext.
func seal(key, plain, ad []byte) ([]byte, error) {
	a, err := gcm(key)
	if err != nil {
		return nil, err
	}
	return sealWith(a, plain, ad)
}

// sealWith is seal with the key's cipher a.
func sealWith(a cipher.AEAD, plain, ad []byte) ([]byte, error) {
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(plain)+a.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return a.Seal(nonce, nonce, plain, ad), nil
}

// open undoes seal; an error when key or ad is not the one sealed with,
// or the bytes were changed.
func open(key, sealed, ad []byte) ([]byte, error) {
	a, err := gcm(key)
	if err != nil {
		return nil, err
	}
	if len(sealed) < a.NonceSize() {
		return nil, errors.New("sealed value too short")
	}
	return a.Open(nil, sealed[:a.NonceSize()], sealed[a.NonceSize():], ad)
}

func animalAD(id int64) []byte { return []byte("record " + strconv.FormatInt(id, 10)) }

// bodySealer seals records' stored bodies under one key, its cipher set
// up once: a pull seals every record.
type bodySealer struct{ a cipher.AEAD }

func newBodySealer(key []byte) (*bodySealer, error) {
	a, err := gcm(key)
	return &bodySealer{a}, err
}

// seal is a record's stored body: its JSON sealed under the key, as
// seal does.
func (s *bodySealer) seal(animal int64, body []byte) (string, error) {
	b, err := sealWith(s.a, body, animalAD(animal))
	if err != nil {
		return "", err
	}
	return sealPrefix + base64.StdEncoding.EncodeToString(b), nil
}

// pinKey is the key the PIN wraps the data key with.
func pinKey(pin string, salt []byte) []byte {
	return argon2.IDKey([]byte(pin), salt, kdfTime, kdfMemory, kdfThreads, 32)
}

// wrapKey is k wrapped by pin for the replica's meta: key_id, kdf,
// key_salt and key_wrapped, ready for putMeta.
func wrapKey(k *service.DeviceKey, pin string) ([]string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	w, err := seal(pinKey(pin, salt), k.Key, []byte("device key "+k.ID))
	if err != nil {
		return nil, err
	}
	return []string{"key_id", k.ID, "kdf", kdfName, "key_salt", base64.StdEncoding.EncodeToString(salt),
		"key_wrapped", base64.StdEncoding.EncodeToString(w)}, nil
}

// KeyID is the id of the data key the copy's records are sealed with,
// "" when it was never sealed.
func (r *Replica) KeyID(ctx context.Context) (string, error) { return r.meta(ctx, "key_id") }

// dataKey unwraps the copy's data key with the PIN of Opts (once per
// Replica): errNoPIN without one, errWrong when it does not open it.
// A copy never sealed has none (nil, nil).
func (r *Replica) dataKey(ctx context.Context) ([]byte, error) {
	if r.key != nil {
		return r.key, nil
	}
	var id, kdf, salt, wrapped string
	for _, kv := range []struct {
		k string
		v *string
	}{{"key_id", &id}, {"kdf", &kdf}, {"key_salt", &salt}, {"key_wrapped", &wrapped}} {
		v, err := r.meta(ctx, kv.k)
		if err != nil {
			return nil, err
		}
		*kv.v = v
	}
	if id == "" {
		return nil, nil
	}
	if kdf != kdfName {
		return nil, fmt.Errorf("offline: the copy's key is wrapped by %q, which this version does not know", kdf)
	}
	if r.o.PIN == "" {
		return nil, errNoPIN
	}
	s, err1 := base64.StdEncoding.DecodeString(salt)
	w, err2 := base64.StdEncoding.DecodeString(wrapped)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("offline: the copy's wrapped key is damaged")
	}
	k, err := open(pinKey(r.o.PIN, s), w, []byte("device key "+id))
	if err != nil {
		return nil, errWrong
	}
	r.key = k
	return k, nil
}

// Unlock opens the copy's data key with the PIN of Opts, so that a
// door serving the copy refuses a missing or wrong PIN when it starts,
// not at each lookup. A copy never sealed needs no PIN.
func (r *Replica) Unlock(ctx context.Context) error {
	_, err := r.dataKey(ctx)
	return err
}

// unseal is a stored body's JSON.
func (r *Replica) unseal(ctx context.Context, animal int64, body string) ([]byte, error) {
	if !strings.HasPrefix(body, sealPrefix) {
		return []byte(body), nil
	}
	key, err := r.dataKey(ctx)
	if err != nil {
		return nil, err
	}
	if key == nil {
		return nil, fmt.Errorf("offline: record %d is sealed but the copy names no key", animal)
	}
	s, err := base64.StdEncoding.DecodeString(body[len(sealPrefix):])
	if err != nil {
		return nil, fmt.Errorf("offline: record %d: %w", animal, err)
	}
	b, err := open(key, s, animalAD(animal))
	if err != nil {
		return nil, fmt.Errorf("offline: record %d does not open with the copy's key", animal)
	}
	return b, nil
}

// rekey readies a pull with the central's key k: the PIN opens the key
// the copy has when it is k (full is unchanged); a copy sealed with
// another key, or none, takes k wrapped by the PIN (meta, written with
// the pull) and must be pulled in full, so no record stays under the
// old key or in clear.
func (r *Replica) rekey(ctx context.Context, k *service.DeviceKey) (meta []string, full bool, err error) {
	if r.o.PIN == "" {
		return nil, false, errNoPIN
	}
	have, err := r.KeyID(ctx)
	if err != nil {
		return nil, false, err
	}
	if have == k.ID {
		old, err := r.dataKey(ctx)
		if err != nil {
			return nil, false, err
		}
		if string(old) != string(k.Key) {
			return nil, false, fmt.Errorf("offline: the central service sent key %s with other bytes than the copy's", k.ID)
		}
		return nil, false, nil
	}
	meta, err = wrapKey(k, r.o.PIN)
	return meta, true, err
}
