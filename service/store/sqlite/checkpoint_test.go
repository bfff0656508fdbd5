package sqlite

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service"
)

// walState reads the WAL index (the -shm file, native byte order, which
// is little-endian on the platforms we build for): the last frame
// committed (mxFrame, offset 16 of the index header) and the last frame
// copied into the database (nBackfill, offset 96, after the header's two
// 48-byte copies). See SQLite's wal.c, "WAL-INDEX FORMAT".
func walState(t *testing.T, path string) (mxFrame, nBackfill uint32) {
	t.Helper()
	b, err := os.ReadFile(path + "-shm")
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 100 {
		t.Fatalf("-shm is %d bytes", len(b))
	}
	return binary.LittleEndian.Uint32(b[16:]), binary.LittleEndian.Uint32(b[96:])
}

// TestCheckpointsInBackground checks that a commit does not checkpoint
// (wal_autocheckpoint is off on the write connection) and that the
// committed pages still reach the database file soon after, from the
// store's own checkpoint connection.
func TestCheckpointsInBackground(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ckpt.db")
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var auto int
	if err := db.wdb.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil {
		t.Fatal(err)
	}
	if auto != 0 {
		t.Errorf("write connection wal_autocheckpoint = %d, want 0", auto)
	}
	for i := range 50 {
		ev := &service.AuditEvent{Actor: "test", Action: "lookup.chip", Entity: "animal", EntityID: int64(i)}
		if err := db.CreateAuditEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(10 * checkpointEvery)
	for {
		mx, backfill := walState(t, path)
		if mx > 0 && backfill == mx {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("WAL frames: %d committed, %d checkpointed after %v, want all", mx, backfill, 10*checkpointEvery)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
