package service

import "context"

// ChangeFeed tells which animals' records changed, for the handhelds'
// incremental pull (service/offline). Each store keeps its own change
// sequence, written by the change's own transaction, and its own form of
// cursor: a cursor of another store (or of this store before a restore
// that rewound it) is EINVALID, and the caller pulls in full.
type ChangeFeed interface {
	// ChangeCursor returns the cursor for the next ChangedAnimals: every
	// change that commits after this call is at or after it. Take it
	// before reading what the cursor stands for.
	ChangeCursor(ctx context.Context) (string, error)
	// ChangedAnimals calls fn with the id of every animal (present or
	// deleted) whose record may have changed at or after the cursor since,
	// once each, in no promised order. An animal can be named again by a
	// later call for a change the caller had seen already; it is never
	// left out.
	ChangedAnimals(ctx context.Context, since string, fn func(animalID int64) error) error
}
