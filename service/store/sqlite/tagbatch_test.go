package sqlite_test

import (
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service/store/storetest"
)

func TestTagBatches(t *testing.T) {
	t.Parallel()
	storetest.RunTagBatches(t, func(t *testing.T, now func() time.Time) storetest.TagBatchStore { return MustOpen(t, now) })
}
