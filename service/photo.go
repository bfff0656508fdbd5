package service

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"strings"
)

// A photo reference (Animal.Photo) is an id that the server issued for
// an uploaded image: 32 lowercase hexadecimal digits (128 random bits)
// and the extension of the image's type, e.g.
// "3f2a...9c.jpg". Nothing else is accepted, so that a reference can
// never be a path out of the photos folder, another page of the site
// or a script URL (OWASP ASVS 12.3.1, 5.1.3).

// PhotoTypes maps the extensions of accepted images to their types.
var PhotoTypes = map[string]string{
	".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp", ".gif": "image/gif",
}

// ValidPhotoID reports whether s is a photo id as the server issues
// them.
func ValidPhotoID(s string) bool {
	base, ext, ok := strings.Cut(s, ".")
	if !ok || len(base) != 32 || PhotoTypes["."+ext] == "" {
		return false
	}
	for _, c := range base {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// photoExt maps the image types accepted to the extension of their id.
var photoExt = func() map[string]string {
	m := map[string]string{}
	for ext, typ := range PhotoTypes {
		m[typ] = ext
	}
	return m
}()

// MaxPhotoBytes bounds an uploaded photograph.
const MaxPhotoBytes = 8 << 20

// SavePhoto keeps image b, a JPEG, PNG, WebP or GIF (its type read from
// its first bytes, never from what a client says), in root under a new
// id (ValidPhotoID), and returns the id. Anything else is EINVALID for
// the field "photo". The file is new (O_EXCL) and readable by the owner
// only; a failed write leaves none.
func SavePhoto(root *os.Root, b []byte) (string, error) {
	ext := photoExt[http.DetectContentType(b)]
	if ext == "" || len(b) == 0 {
		return "", Invalidf("photo", "The photograph must be a JPEG, PNG, WebP or GIF image.")
	}
	if len(b) > MaxPhotoBytes {
		return "", Invalidf("photo", "The photograph is larger than %d MB.", MaxPhotoBytes>>20)
	}
	var rnd [16]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", err
	}
	name := hex.EncodeToString(rnd[:]) + ext
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		root.Remove(name)
		return "", err
	}
	if err := f.Close(); err != nil {
		root.Remove(name)
		return "", err
	}
	return name, nil
}
