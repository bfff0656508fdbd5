package sqlite

import (
	"context"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
)

// phoneDigits is an owner's phone without its punctuation and spaces;
// the index owners_phone_digits (0110_search.sql) is on this expression.
const phoneDigits = `replace(replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', '')`

// The search statements (their plans are checked by TestSearchPlans).
var (
	ownerSearchSQL = `SELECT ` + columns.Owner + ` FROM owners WHERE id IN
		(SELECT rowid FROM search_owners WHERE search_owners MATCH ? LIMIT ?) ORDER BY name, id`
	animalSearchSQL = `SELECT ` + columns.Animal + ` FROM animals WHERE id IN
		(SELECT rowid FROM search_animals WHERE search_animals MATCH ? LIMIT ?) ORDER BY name, id`
	chipPrefixSQL = `SELECT ` + columns.Chip + ` FROM chips WHERE code >= ? AND code < ? ORDER BY code LIMIT ?`
)

// phoneSQL finds owners by n forms of a phone's digits.
func phoneSQL(n int) string {
	return `SELECT ` + columns.Owner + ` FROM owners WHERE ` + phoneDigits + ` IN (?` + strings.Repeat(", ?", n-1) + `) ORDER BY name, id LIMIT ?`
}

// ftsPrefixes is an FTS5 query for rows holding a word that starts with
// each of words (letters and digits only, quoted all the same).
func ftsPrefixes(words []string) string {
	q := make([]string, 0, len(words))
	for _, w := range words {
		q = append(q, `"`+strings.ReplaceAll(w, `"`, `""`)+`"*`)
	}
	return strings.Join(q, " ")
}

// SearchOwners implements service.SearchService through search_owners.
func (db *DB) SearchOwners(ctx context.Context, words []string, limit int) ([]*service.Owner, error) {
	if len(words) == 0 {
		return nil, nil
	}
	out, err := collect(ctx, db.rdb, scanOwner, ownerSearchSQL, ftsPrefixes(words), limit)
	return out, mapErr(err, "Owner")
}

// SearchAnimals implements service.SearchService through search_animals.
func (db *DB) SearchAnimals(ctx context.Context, words []string, limit int) ([]*service.Animal, error) {
	if len(words) == 0 {
		return nil, nil
	}
	out, err := collect(ctx, db.rdb, scanAnimal, animalSearchSQL, ftsPrefixes(words), limit)
	return out, mapErr(err, "Animal")
}

// FindOwnersByPhone implements service.SearchService through
// owners_phone_digits.
func (db *DB) FindOwnersByPhone(ctx context.Context, digits []string, limit int) ([]*service.Owner, error) {
	if len(digits) == 0 {
		return nil, nil
	}
	args := make([]any, 0, len(digits)+1)
	for _, d := range digits {
		args = append(args, d)
	}
	args = append(args, limit)
	out, err := collect(ctx, db.rdb, scanOwner, phoneSQL(len(digits)), args...)
	return out, mapErr(err, "Owner")
}

// FindChipsByPrefix implements service.SearchService: a range of the
// chips' unique index on code.
func (db *DB) FindChipsByPrefix(ctx context.Context, prefix string, limit int) ([]*service.Chip, error) {
	if prefix == "" {
		return nil, nil
	}
	out, err := collect(ctx, db.rdb, scanChip, chipPrefixSQL, prefix, prefix+"\uffff", limit)
	return out, mapErr(err, "Chip")
}
