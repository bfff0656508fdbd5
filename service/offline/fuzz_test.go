package offline_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/reader/chipid"
	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/offline"
)

// fixed is a Central that serves fixed records and takes no events.
type fixed []*service.Record

func (f fixed) Push(context.Context, []service.DeviceEvent) ([]offline.Outcome, error) {
	return nil, nil
}

func (f fixed) DeviceKey(context.Context) (*service.DeviceKey, error) { return service.NewDeviceKey(1) }

func (f fixed) Pull(_ context.Context, _ string, fn func(offline.Item) error) (offline.Pulled, error) {
	for _, r := range f {
		if err := fn(offline.Item{Record: r}); err != nil {
			return offline.Pulled{}, err
		}
	}
	return offline.Pulled{Full: true}, nil
}

// FuzzReplicaStream: records served by Handler come out of
// HTTPClient.Pull as they went in (a round trip through the replica
// stream), and a stream of any bytes is read without a panic and is
// accepted only when it ends with the end line.
func FuzzReplicaStream(f *testing.F) {
	f.Add("Rex", "Ada Lund", "985141000123456", 7, int32(739690), []byte(`{"animal":{"id":1,"species":"dog"}}`+"\n"+`{"end":true}`+"\n"))
	f.Add("", "", "", 0, int32(0), []byte(`{"end":true}`))
	f.Add("\u00e9\"\\\n", "x", "0A1B2C3D4E", -1, int32(1), []byte(`{"animal":`))
	f.Fuzz(func(t *testing.T, name, owner, chip string, tag int, day int32, stream []byte) {
		// Text in the stores is UTF-8 (PostgreSQL refuses anything else),
		// as JSON is.
		name, owner, chip = strings.ToValidUTF8(name, "?"), strings.ToValidUTF8(owner, "?"), strings.ToValidUTF8(chip, "?")
		d := service.Date(day)
		if d < 0 || d > service.NewDate(9999, 12, 31) {
			d = 0
		}
		want := &service.Record{
			Animal:      service.Animal{ID: 1, Name: name, Species: service.Dog},
			Owner:       &service.Owner{ID: 2, Name: owner},
			Chips:       []service.Chip{{ID: 3, AnimalID: 1, Code: chip, Kind: chipid.KindISO}},
			Licences:    []service.Licence{{ID: 4, AnimalID: 1, Jurisdiction: "minneapolis", Year: 2026, TagNumber: tag, ExpiresOn: d}},
			Quarantines: []service.Quarantine{}, Impounds: []service.Impoundment{}, Bites: []service.BiteIncident{},
		}
		srv := httptest.NewServer(offline.Handler(fixed{want, want}, nil))
		defer srv.Close()
		var got []*service.Record
		if _, err := (&offline.HTTPClient{URL: srv.URL}).Pull(context.Background(), "", func(it offline.Item) error {
			got = append(got, it.Record)
			return nil
		}); err != nil {
			t.Fatalf("Pull: %v", err)
		}
		if len(got) != 2 || !reflect.DeepEqual(got[0], want) {
			wj, _ := json.Marshal(want)
			gj, _ := json.Marshal(got)
			t.Fatalf("Pull = %s, want twice %s", gj, wj)
		}

		c := &offline.HTTPClient{URL: "http://replica.test", Client: &http.Client{Transport: bodyTransport(stream)}}
		n := 0
		_, err := c.Pull(context.Background(), "", func(offline.Item) error { n++; return nil })
		if err == nil && !strings.Contains(string(stream), `{"end":true`) {
			t.Fatalf("Pull accepted a stream without the end line: %q", stream)
		}
	})
}

// bodyTransport answers every request with status 200 and body.
type bodyTransport []byte

func (b bodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Body: io.NopCloser(strings.NewReader(string(b))),
		Header: http.Header{}, Request: req}, nil
}
