package service

import "strings"

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
