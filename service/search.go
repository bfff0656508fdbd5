package service

import "context"

// SearchService finds records the way a clerk types them, each through
// an index (no query reads every row): words of an owner's name or
// address, words of a pet's name (each word a prefix of a word kept),
// the digits of a phone number, the first digits of a chip.
type SearchService interface {
	// SearchOwners returns owners whose name, address, city or postcode
	// hold, for every word of words, a word starting with it. Words are
	// lower-case letters and digits only (package lookup makes them).
	SearchOwners(ctx context.Context, words []string, limit int) ([]*Owner, error)
	// SearchAnimals returns animals whose name holds, for every word of
	// words, a word starting with it.
	SearchAnimals(ctx context.Context, words []string, limit int) ([]*Animal, error)
	// FindOwnersByPhone returns owners whose phone, its punctuation and
	// spaces left out, is one of digits.
	FindOwnersByPhone(ctx context.Context, digits []string, limit int) ([]*Owner, error)
	// FindChipsByPrefix returns chips whose code starts with prefix.
	FindChipsByPrefix(ctx context.Context, prefix string, limit int) ([]*Chip, error)
}
