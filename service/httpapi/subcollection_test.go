package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestAnimalSubCollectionsOfMissingAnimal: a list under an animal that
// does not exist is 404 ENOTFOUND, not an empty list; an animal that
// exists but has nothing under it is 200 with an empty list.
func TestAnimalSubCollectionsOfMissingAnimal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sd := h.seed()
	const missing = 987654
	for _, sub := range []string{"chips", "vaccinations", "record"} {
		t.Run(sub, func(t *testing.T) {
			path := fmt.Sprintf("/api/v1/animals/%d/%s", missing, sub)
			code, b := h.do(service.RoleIntake, "GET", path, nil)
			var e struct {
				Error struct{ Code string } `json:"error"`
			}
			json.Unmarshal(b, &e)
			if code != http.StatusNotFound || e.Error.Code != service.ENOTFOUND {
				t.Errorf("GET %s = %d %s, want 404 %s", path, code, b, service.ENOTFOUND)
			}
			// The stray cat has no chips and no vaccinations: it exists.
			path = fmt.Sprintf("/api/v1/animals/%d/%s", sd.stray, sub)
			if code, b := h.do(service.RoleIntake, "GET", path, nil); code != http.StatusOK {
				t.Errorf("GET %s = %d %s, want 200", path, code, b)
			}
		})
	}
}
