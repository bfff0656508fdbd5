package check

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Errors returned by Parse, Verify and the key loaders.
var (
	// ErrSyntax: the text is not a tag payload.
	ErrSyntax = errors.New("check: not a tag payload")
	// ErrMismatch: the payload is well formed but its check code is
	// not the one issued for that jurisdiction, year and number.
	ErrMismatch = errors.New("check: check code does not match")
	// ErrNoKey: the keyring holds no key for that jurisdiction and year.
	ErrNoKey = errors.New("check: no key for jurisdiction and year")
	// ErrKeyFile: a key file line is malformed.
	ErrKeyFile = errors.New("check: bad key file")
)

// Limits of the payload fields.
const (
	MinYear      = 2000
	MaxYear      = 2099
	MaxNumber    = 999999999
	NumberDigits = 6 // the number is zero-padded to at least this many digits
	CodeLen      = 5 // characters of check code (25 bits)
	MinKeyBytes  = 16
)

// alphabet is Crockford's base 32.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// Payload is the content of a tag's machine-readable symbol.
type Payload struct {
	Jurisdiction string // 2-6 letters A-Z, e.g. "MPLS"
	Year         int    // 2000-2099
	Number       int    // register number, 1-999999999
	Code         string // CodeLen characters of Crockford base 32
}

// String returns the payload text, e.g. "MPLS26-001234-7KQ2M".
func (p Payload) String() string {
	return fmt.Sprintf("%s%02d-%0*d-%s", p.Jurisdiction, p.Year%100, NumberDigits, p.Number, p.Code)
}

// URL returns the payload as the last segment of prefix, which should
// end in "/" and be upper case so that a QR stays in alphanumeric mode.
func (p Payload) URL(prefix string) string { return prefix + p.String() }

// ValidJurisdiction reports whether j can be a payload jurisdiction code.
func ValidJurisdiction(j string) bool {
	if len(j) < 2 || len(j) > 6 {
		return false
	}
	for i := 0; i < len(j); i++ {
		if j[i] < 'A' || j[i] > 'Z' {
			return false
		}
	}
	return true
}

func validFields(j string, year, number int) error {
	switch {
	case !ValidJurisdiction(j):
		return fmt.Errorf("%w: jurisdiction %q is not 2-6 letters A-Z", ErrSyntax, j)
	case year < MinYear || year > MaxYear:
		return fmt.Errorf("%w: year %d outside %d-%d", ErrSyntax, year, MinYear, MaxYear)
	case number < 1 || number > MaxNumber:
		return fmt.Errorf("%w: number %d outside 1-%d", ErrSyntax, number, MaxNumber)
	}
	return nil
}

// Parse reads a payload in its canonical form, or as the last path
// segment of a URL. It checks the syntax only; use Keyring.Verify to
// check the code. Parse(p.String()) returns p for every valid p.
func Parse(text string) (Payload, error) {
	s := text
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		if !strings.Contains(s[:i], "://") {
			return Payload{}, fmt.Errorf("%w: %q", ErrSyntax, text)
		}
		s = s[i+1:]
	}
	var p Payload
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	p.Jurisdiction = s[:i]
	rest := s[i:]
	parts := strings.Split(rest, "-")
	if len(parts) != 3 || len(parts[0]) != 2 || !digits(parts[0]) ||
		len(parts[1]) < NumberDigits || len(parts[1]) > 9 || !digits(parts[1]) ||
		len(parts[2]) != CodeLen {
		return Payload{}, fmt.Errorf("%w: %q", ErrSyntax, text)
	}
	yy, _ := strconv.Atoi(parts[0])
	p.Year = 2000 + yy
	p.Number, _ = strconv.Atoi(parts[1])
	if len(parts[1]) > NumberDigits && parts[1][0] == '0' {
		return Payload{}, fmt.Errorf("%w: %q: number not in canonical form", ErrSyntax, text)
	}
	for j := 0; j < CodeLen; j++ {
		if strings.IndexByte(alphabet, parts[2][j]) < 0 {
			return Payload{}, fmt.Errorf("%w: %q: check code not in base 32", ErrSyntax, text)
		}
	}
	p.Code = parts[2]
	if err := validFields(p.Jurisdiction, p.Year, p.Number); err != nil {
		return Payload{}, fmt.Errorf("%w (in %q)", err, text)
	}
	return p, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

type keyID struct {
	j    string
	year int
}

// Keyring holds the check-code keys, one per jurisdiction and year.
// A Keyring is read-only after it is made and safe for concurrent use.
type Keyring struct {
	keys map[keyID][]byte
	dev  bool
}

// developmentSeed is public: keys derived from it protect nothing.
const developmentSeed = "chipdesk DEVELOPMENT tag keys - public, for demos and tests only"

// DevelopmentKeys returns a keyring that derives a key for any
// jurisdiction and year from a fixed public string. It is for demos and
// tests only: anyone can forge codes made with it.
func DevelopmentKeys() *Keyring { return &Keyring{dev: true} }

// Development reports whether k is the public development keyring.
func (k *Keyring) Development() bool { return k.dev }

// ParseKeys reads key lines "JURISDICTION YEAR HEXSECRET" (at least 16
// bytes of secret); blank lines and lines starting with # are skipped.
func ParseKeys(r io.Reader) (*Keyring, error) {
	k := &Keyring{keys: map[keyID][]byte{}}
	if err := k.add(r, "keys"); err != nil {
		return nil, err
	}
	return k, nil
}

func (k *Keyring) add(r io.Reader, name string) error {
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '#' {
			continue
		}
		f := strings.Fields(t)
		if len(f) != 3 {
			return fmt.Errorf("%w: %s:%d: want JURISDICTION YEAR HEXSECRET", ErrKeyFile, name, line)
		}
		year, err := strconv.Atoi(f[1])
		if err != nil || year < MinYear || year > MaxYear || !ValidJurisdiction(f[0]) {
			return fmt.Errorf("%w: %s:%d: bad jurisdiction or year", ErrKeyFile, name, line)
		}
		secret, err := hex.DecodeString(f[2])
		if err != nil || len(secret) < MinKeyBytes {
			return fmt.Errorf("%w: %s:%d: secret must be at least %d bytes of hex", ErrKeyFile, name, line, MinKeyBytes)
		}
		id := keyID{f[0], year}
		if _, dup := k.keys[id]; dup {
			return fmt.Errorf("%w: %s:%d: second key for %s %d", ErrKeyFile, name, line, f[0], year)
		}
		k.keys[id] = secret
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("check: reading %s: %w", name, err)
	}
	return nil
}

// LoadKeys reads a key file, or every "*.keys" file of a directory, in
// the format of ParseKeys. Keep these files out of the database and its
// dumps, readable only by the service account.
func LoadKeys(path string) (*Keyring, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("check: %w", err)
	}
	files := []string{path}
	if st.IsDir() {
		files, err = filepath.Glob(filepath.Join(path, "*.keys"))
		if err != nil {
			return nil, fmt.Errorf("check: %w", err)
		}
		sort.Strings(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("%w: no *.keys file in %s", ErrKeyFile, path)
		}
	}
	k := &Keyring{keys: map[keyID][]byte{}}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("check: %w", err)
		}
		err = k.add(f, filepath.Base(name))
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return k, nil
}

// FormatKey returns a key file line for secret.
func FormatKey(j string, year int, secret []byte) string {
	return fmt.Sprintf("%s %d %s", j, year, hex.EncodeToString(secret))
}

func (k *Keyring) key(j string, year int) ([]byte, error) {
	if k.dev {
		m := hmac.New(sha256.New, []byte(developmentSeed))
		fmt.Fprintf(m, "%s\x00%d", j, year)
		return m.Sum(nil), nil
	}
	s, ok := k.keys[keyID{j, year}]
	if !ok {
		return nil, fmt.Errorf("%w: %s %d", ErrNoKey, j, year)
	}
	return s, nil
}

// code computes the check code of (j, year, number) with secret.
func code(secret []byte, j string, year, number int) string {
	m := hmac.New(sha256.New, secret)
	fmt.Fprintf(m, "chipdesk-tag-v1\x00%s\x00%d\x00%d", j, year, number)
	sum := m.Sum(nil)
	v := uint32(sum[0])<<24 | uint32(sum[1])<<16 | uint32(sum[2])<<8 | uint32(sum[3])
	var b [CodeLen]byte
	for i := range b {
		b[i] = alphabet[v>>27]
		v <<= 5
	}
	return string(b[:])
}

// Issue returns the payload for an issued tag.
func (k *Keyring) Issue(j string, year, number int) (Payload, error) {
	if err := validFields(j, year, number); err != nil {
		return Payload{}, err
	}
	secret, err := k.key(j, year)
	if err != nil {
		return Payload{}, err
	}
	return Payload{Jurisdiction: j, Year: year, Number: number, Code: code(secret, j, year, number)}, nil
}

// Verify parses text (as Parse does) and checks its code. It returns
// the parsed payload with ErrSyntax, ErrNoKey or ErrMismatch when the
// tag is not an issued one.
func (k *Keyring) Verify(text string) (Payload, error) {
	p, err := Parse(text)
	if err != nil {
		return p, err
	}
	secret, err := k.key(p.Jurisdiction, p.Year)
	if err != nil {
		return p, err
	}
	want := code(secret, p.Jurisdiction, p.Year, p.Number)
	if !hmac.Equal([]byte(want), []byte(p.Code)) {
		return p, fmt.Errorf("%w: %s", ErrMismatch, p)
	}
	return p, nil
}
