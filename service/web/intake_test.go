package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestIntakeLatestScansNameTheAnimal: the latest scans table names the
// animal a chip resolved to, with its species, linked to its record;
// an unregistered chip says so.
func TestIntakeLatestScansNameTheAnimal(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	for _, sc := range []*service.Scan{
		{At: start, Reader: "desk", ChipCode: chipRex, ChipKind: "iso11784", Site: "shelter", AnimalID: f.rex},
		{At: start, Reader: "desk", ChipCode: "900000000000001", ChipKind: "iso11784", Site: "shelter"},
	} {
		if err := f.store.CreateScan(ctx, sc); err != nil {
			t.Fatal(err)
		}
	}
	c := f.client()
	c.login(service.RoleIntake)
	st, body := c.get("/intake")
	if st != http.StatusOK {
		t.Fatalf("GET /intake = %d, want 200", st)
	}
	for _, want := range []string{
		fmt.Sprintf(`<a href="/animals/%d">Rex (dog)</a>`, f.rex),
		"not registered",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("GET /intake lacks %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, fmt.Sprintf("record %d", f.rex)) {
		t.Errorf("GET /intake shows the animal as a record number")
	}
}
