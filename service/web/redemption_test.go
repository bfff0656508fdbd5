package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestLookupRedemptionNotSet_5_74: the answer card of an animal held in
// Chanhassen, whose impound and board fees are set by resolution
// (5-74(a)), shows those fees as not set and the total as incomplete,
// never as $0.00.
func TestLookupRedemptionNotSet_5_74(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	c := f.client()
	c.login(service.RoleIntake)
	st, body := c.post(fmt.Sprintf("/animals/%d/impound", f.tom), url.Values{"notice_on": {"2026-06-15"}, "where_found": {"Lake Ann Park"}, "jurisdiction": {"chanhassen"}})
	if st != http.StatusOK || !strings.Contains(body, "Impoundment started.") {
		t.Fatalf("impound = %d, want the stay's page\n%s", st, body)
	}
	st, body = c.get("/search?q=" + url.QueryEscape(chipTom))
	if st != http.StatusOK {
		t.Fatalf("search = %d", st)
	}
	i := strings.Index(body, "Redemption today")
	if i < 0 {
		t.Fatalf("answer card has no redemption:\n%s", body)
	}
	card := body[i:]
	card = card[:strings.Index(card, "</table>")]
	for _, want := range []string{"Set by the city&#39;s fee resolution", "established by resolution", "5-74(a)", "to be added"} {
		if !strings.Contains(card, want) {
			t.Errorf("redemption lacks %q:\n%s", want, card)
		}
	}
	if strings.Contains(card, "$0.00") {
		t.Errorf("redemption shows $0.00 for a fee not set:\n%s", card)
	}
}
