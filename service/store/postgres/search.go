package postgres

import (
	"context"
	"strings"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/store/columns"
	"github.com/chipdesk/chipdesk/service/store/filter"
)

// The expressions of the indexes of 0110_search.sql, character for
// character, so that the planner uses them.
const (
	ownerWords  = `to_tsvector('simple', name || ' ' || address || ' ' || city || ' ' || postcode)`
	animalWords = `to_tsvector('simple', name)`
	phoneDigits = `regexp_replace(phone, '[^0-9]', '', 'g')`
)

// tsPrefixes is a tsquery for rows holding a word that starts with each
// of words (letters and digits only).
func tsPrefixes(words []string) string {
	q := make([]string, 0, len(words))
	for _, w := range words {
		q = append(q, "'"+strings.ReplaceAll(w, "'", "''")+"':*")
	}
	return strings.Join(q, " & ")
}

// SearchOwners implements service.SearchService through owners_search.
func (db *DB) SearchOwners(ctx context.Context, words []string, limit int) ([]*service.Owner, error) {
	if len(words) == 0 {
		return nil, nil
	}
	out, err := collect(ctx, db.pool, scanOwner, `SELECT `+columns.Owner+` FROM owners WHERE `+ownerWords+
		` @@ to_tsquery('simple', $1) ORDER BY name, id LIMIT $2`, tsPrefixes(words), limit)
	return out, mapErr(err, "Owner")
}

// SearchAnimals implements service.SearchService through animals_search.
func (db *DB) SearchAnimals(ctx context.Context, words []string, limit int) ([]*service.Animal, error) {
	if len(words) == 0 {
		return nil, nil
	}
	out, err := collect(ctx, db.pool, scanAnimal, `SELECT `+columns.Animal+` FROM animals WHERE `+animalWords+
		` @@ to_tsquery('simple', $1) ORDER BY name, id LIMIT $2`, tsPrefixes(words), limit)
	return out, mapErr(err, "Animal")
}

// FindOwnersByPhone implements service.SearchService through
// owners_phone_digits.
func (db *DB) FindOwnersByPhone(ctx context.Context, digits []string, limit int) ([]*service.Owner, error) {
	if len(digits) == 0 {
		return nil, nil
	}
	out, err := collect(ctx, db.pool, scanOwner, `SELECT `+columns.Owner+` FROM owners WHERE `+phoneDigits+
		` = ANY($1) ORDER BY name, id LIMIT $2`, digits, limit)
	return out, mapErr(err, "Owner")
}

// FindChipsByPrefix implements service.SearchService through
// chips_code_prefix.
func (db *DB) FindChipsByPrefix(ctx context.Context, prefix string, limit int) ([]*service.Chip, error) {
	if prefix == "" {
		return nil, nil
	}
	out, err := collect(ctx, db.pool, scanChip, `SELECT `+columns.Chip+` FROM chips WHERE code LIKE $1 ESCAPE '\' ORDER BY code LIMIT $2`,
		filter.EscapeLike(prefix)+"%", limit)
	return out, mapErr(err, "Chip")
}
