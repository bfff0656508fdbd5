package lookup

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/chipdesk/chipdesk/service"
)

// Search is what a clerk's search box found (Service.Search).
type Search struct {
	Query string `json:"query"`
	// Kind says how the text was read: "chip", "partial-chip", "tag",
	// "phone", "words" or "" (nothing to search for).
	Kind string `json:"kind"`
	// Note says, in plain words, how the text was read and what was
	// found or is missing ("3 digits still missing").
	Note string `json:"note,omitempty"`
	// Answer is the record of one chip or one tag.
	Answer *Answer `json:"answer,omitempty"`
	// Tags are the records of a tag number several cities issued: each
	// city's animal.
	Tags []*Answer `json:"tags,omitempty"`
	// Candidates are the chips a number could be; the person chooses.
	Candidates []*Chip `json:"candidates,omitempty"`
	// Hits are the animals found by owner, phone, pet name, address or
	// partial chip, each with its status.
	Hits []Hit `json:"hits,omitempty"`
	// Owners are the owners found who have no animal on file.
	Owners []*service.Owner `json:"owners,omitempty"`
	// MissingDigits is how many digits a partial chip still lacks.
	MissingDigits int `json:"missing_digits,omitempty"`
	// More is true when there were more hits than shown.
	More bool `json:"more,omitempty"`
}

// Hit is one animal a search found, with what the person must see in
// the list: dangerous, under quarantine, in custody, licence expired.
type Hit struct {
	Animal *service.Animal `json:"animal"`
	Owner  *service.Owner  `json:"owner,omitempty"`
	// Chip is the chip that matched a partial chip, or the animal's first.
	Chip   string    `json:"chip,omitempty"`
	Status HitStatus `json:"status"`
	// Why says what matched: "owner", "phone", "pet name", "chip".
	Why string `json:"why"`
}

// HitStatus are the warnings of a search row.
type HitStatus struct {
	// Dangerous is the designation's level ("dangerous", "potentially
	// dangerous"), empty when none.
	Dangerous      string `json:"dangerous,omitempty"`
	Quarantine     bool   `json:"quarantine"`
	InCustody      bool   `json:"in_custody"`
	LicenceExpired bool   `json:"licence_expired"`
	Deceased       bool   `json:"deceased"`
}

// MaxHits bounds the animals a search lists.
const MaxHits = 25

// isoDigits is the length of an ISO 11784 chip's number.
const isoDigits = 15

var (
	// tagText is a licence tag as typed: "2026/1234", "minneapolis
	// 2026/1234", "MPLS 1234".
	tagText = regexp.MustCompile(`^(?:([\p{L}-]+)\s+)?(?:(\d{4})\s*/\s*)?(\d{1,6})$`)
	// phoneText is a text of digits and the punctuation of phone numbers
	// only.
	phoneText = regexp.MustCompile(`^\+?[\d\s().-]+$`)
	// digitsText is a number typed with spaces or dashes at most.
	digitsText = regexp.MustCompile(`^[\d\s-]+$`)
)

// Words splits text into the lower-case words a search matches: runs of
// letters and digits. Punctuation, wildcards ("%", "_") and spaces are
// never part of a word, so that no text matches everything.
func Words(text string) []string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(f) > 8 {
		f = f[:8]
	}
	return f
}

func digitsOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if '0' <= r && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Search reads what a clerk typed, the way they type it: a chip in any
// form reader/chipid reads; a phone number in any format (ten digits,
// or eleven with the leading 1, is a phone, never a chip); a licence tag
// ("2026/1", listing every city's tag of that number and saying so); the
// first digits of a chip (saying how many are missing); else words of an
// owner's name or address or of a pet's name, in any order ("Ortega,
// Luis" is "Luis Ortega"). Every match comes from an index of the store
// (service.SearchService); a store without them (a handheld's copy)
// answers a chip or a tag, and says so of any other text.
func (s *Service) Search(ctx context.Context, text string) (*Search, error) {
	q := strings.TrimSpace(text)
	if len([]rune(q)) > 100 {
		q = string([]rune(q)[:100])
	}
	res := &Search{Query: q}
	words := Words(q)
	if len(words) == 0 {
		if q != "" {
			res.Note = "Type a chip number, a tag number, a phone number, or a name or address."
		}
		return res, nil
	}
	if m := tagText.FindStringSubmatch(q); m != nil && (m[1] != "" || m[2] != "" || len(m[3]) <= 6) {
		found, err := s.searchTag(ctx, res, m[1], m[2], m[3])
		if err != nil || found {
			return res, err
		}
	}
	if d := digitsOf(q); phoneText.MatchString(q) && (len(d) == 10 || len(d) == 11 && d[0] == '1') {
		if s.search == nil {
			return unsearchable(res), nil
		}
		return res, s.searchPhone(ctx, res, d)
	}
	id, err := s.ParseChip(q)
	var amb *AmbiguousChipError
	switch {
	case err == nil:
		res.Kind = "chip"
		if res.Answer, err = s.ByID(ctx, id); err != nil || res.Answer.Found {
			return res, err
		}
		// A short number nobody registered may be the start of an ISO
		// chip, as a clerk types it from a worn label.
		if d := digitsOf(q); s.search != nil && digitsText.MatchString(q) && len(d) >= 3 && len(d) < isoDigits {
			part := &Search{Query: q}
			if err := s.searchChipPrefix(ctx, part, d); err != nil || len(part.Hits) > 0 {
				return part, err
			}
		}
		return res, nil
	case errors.As(err, &amb):
		res.Kind, res.Candidates = "chip", amb.Candidates
		res.Note = service.ErrorMessage(err)
		return res, nil
	}
	if s.search == nil {
		return unsearchable(res), nil
	}
	if d := digitsOf(q); digitsText.MatchString(q) && len(d) >= 3 && len(d) < isoDigits {
		return res, s.searchChipPrefix(ctx, res, d)
	}
	return res, s.searchWords(ctx, res, words)
}

// unsearchable is res saying that the store keeps no search indexes (a
// handheld's offline copy): it reads a chip or a tag, nothing else.
func unsearchable(res *Search) *Search {
	res.Note = "This copy of the register finds an animal by its chip or its licence tag only: type the chip's number, or the tag's city, year and number (Minneapolis 2026/1234)."
	return res
}

// searchTag finds tag number n of year (this year when empty) in the
// jurisdiction named, or in every jurisdiction when none is; false when
// no city issued it.
func (s *Service) searchTag(ctx context.Context, res *Search, place, year, n string) (bool, error) {
	tag, _ := strconv.Atoi(n)
	y, _ := strconv.Atoi(year)
	ids := s.rules.IDs()
	if place != "" {
		p, err := s.rules.Resolve(place)
		if err != nil {
			return false, nil // a word before a number: not a place, so words
		}
		ids = []string{p.ID}
	}
	for _, id := range ids {
		a, err := s.ByTag(ctx, id, y, tag)
		if err != nil {
			return false, err
		}
		if a.Found {
			res.Tags = append(res.Tags, a)
		}
	}
	if len(res.Tags) == 0 {
		if place != "" || year != "" {
			res.Kind = "tag"
			res.Note = fmt.Sprintf("No city here issued tag %s.", res.Query)
			return true, nil
		}
		return false, nil
	}
	res.Kind = "tag"
	if len(res.Tags) == 1 {
		res.Answer, res.Tags = res.Tags[0], nil
		return true, nil
	}
	var cities []string
	for _, a := range res.Tags {
		if _, d, err := s.Resolve(a.Jurisdiction); err == nil {
			cities = append(cities, d)
		}
	}
	res.Note = fmt.Sprintf("Tag %s is used by %d cities (%s): check the city stamped on the tag.", res.Query, len(res.Tags), strings.Join(cities, ", "))
	return true, nil
}

func (s *Service) searchPhone(ctx context.Context, res *Search, d string) error {
	res.Kind = "phone"
	ten := d[len(d)-10:]
	owners, err := s.search.FindOwnersByPhone(ctx, []string{ten, "1" + ten}, MaxHits)
	if err != nil {
		return err
	}
	shown := ten[:3] + "-" + ten[3:6] + "-" + ten[6:]
	if err := s.ownersHits(ctx, res, owners, "phone"); err != nil {
		return err
	}
	if len(owners) == 0 {
		res.Note = fmt.Sprintf("Read as the phone number %s: no owner has it.", shown)
		return nil
	}
	res.Note = fmt.Sprintf("Read as the phone number %s.", shown)
	return nil
}

func (s *Service) searchChipPrefix(ctx context.Context, res *Search, d string) error {
	res.Kind, res.MissingDigits = "partial-chip", isoDigits-len(d)
	chips, err := s.search.FindChipsByPrefix(ctx, d, MaxHits+1)
	if err != nil {
		return err
	}
	if len(chips) > MaxHits {
		chips, res.More = chips[:MaxHits], true
	}
	for _, c := range chips {
		if err := s.addHit(ctx, res, c.AnimalID, nil, c.Code, "chip"); err != nil {
			return err
		}
	}
	digits := "digits are"
	if res.MissingDigits == 1 {
		digits = "digit is"
	}
	res.Note = fmt.Sprintf("Read as the start of a chip number: %d %s still missing (a chip has %d). %d chip(s) start so.",
		res.MissingDigits, digits, isoDigits, len(res.Hits))
	return nil
}

func (s *Service) searchWords(ctx context.Context, res *Search, words []string) error {
	res.Kind = "words"
	// A word of one letter would match a good part of the index (every
	// word starting so): it narrows nothing worth its cost.
	long := words[:0:0]
	for _, w := range words {
		if len([]rune(w)) > 1 {
			long = append(long, w)
		}
	}
	if len(long) == 0 {
		res.Note = "Type at least two letters of a name or address."
		return nil
	}
	words = long
	owners, err := s.search.SearchOwners(ctx, words, MaxHits)
	if err != nil {
		return err
	}
	if err := s.ownersHits(ctx, res, owners, "owner"); err != nil {
		return err
	}
	animals, err := s.search.SearchAnimals(ctx, words, MaxHits)
	if err != nil {
		return err
	}
	for _, a := range animals {
		if len(res.Hits) >= MaxHits {
			res.More = true
			break
		}
		if err := s.addHit(ctx, res, a.ID, nil, "", "pet name"); err != nil {
			return err
		}
	}
	if len(res.Hits) == 0 && len(res.Owners) == 0 {
		res.Note = fmt.Sprintf("Nothing matches %q.", res.Query)
	}
	return nil
}

// ownersHits adds the animals of owners.
func (s *Service) ownersHits(ctx context.Context, res *Search, owners []*service.Owner, why string) error {
	for _, o := range owners {
		as, _, err := s.search.FindAnimals(ctx, service.AnimalFilter{OwnerID: &o.ID, Limit: MaxHits})
		if err != nil {
			return err
		}
		if len(as) == 0 {
			res.Owners = append(res.Owners, o)
		}
		for _, a := range as {
			if len(res.Hits) >= MaxHits {
				res.More = true
				return nil
			}
			if err := s.addHit(ctx, res, a.ID, o, "", why); err != nil {
				return err
			}
		}
	}
	return nil
}

// addHit adds animal id with its status from its record (once).
func (s *Service) addHit(ctx context.Context, res *Search, id int64, o *service.Owner, chip, why string) error {
	for _, h := range res.Hits {
		if h.Animal.ID == id {
			return nil
		}
	}
	rec, err := s.store.FindRecordByAnimal(ctx, id)
	if service.ErrorCode(err) == service.ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	a := s.build(rec, nil, 0)
	an := rec.Animal
	h := Hit{Animal: &an, Owner: o, Chip: chip, Why: why}
	if h.Owner == nil && rec.Owner != nil {
		ow := *rec.Owner
		h.Owner = &ow
	}
	if h.Chip == "" && len(rec.Chips) > 0 {
		h.Chip = rec.Chips[0].Code
	}
	if a.Dangerous != nil {
		h.Status.Dangerous = strings.ReplaceAll(string(a.Dangerous.Level), "-", " ")
	}
	h.Status.Quarantine = a.Quarantine != nil
	for _, im := range a.Impounds {
		if im.Open {
			h.Status.InCustody = true
		}
	}
	h.Status.LicenceExpired = a.Licence != nil && a.Licence.Status == "expired"
	h.Status.Deceased = !rec.Animal.DiedOn.IsZero()
	res.Hits = append(res.Hits, h)
	return nil
}

// searchStore is what Search needs of the store: its search indexes and
// the animals of an owner.
type searchStore interface {
	service.SearchService
	FindAnimals(ctx context.Context, f service.AnimalFilter) ([]*service.Animal, int, error)
}
