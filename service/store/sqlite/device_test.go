package sqlite_test

import (
	"testing"
	"time"

	"github.com/chipdesk/chipdesk/service/store/storetest"
)

func TestDeviceEvents(t *testing.T) {
	t.Parallel()
	storetest.RunDeviceEvents(t, func(t *testing.T, now func() time.Time) storetest.DeviceEventStore { return MustOpen(t, now) })
}
