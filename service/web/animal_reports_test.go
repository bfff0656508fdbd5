package web_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chipdesk/chipdesk/service"
)

// TestAnimalReportPages: the dangerous-animal register and the
// lapsed-rabies report are pages with a chart drawn on the server and
// the table below it, and a CSV; the requirement states come from the
// incidents layer (64.110(i) sterilisation within 15 days: overdue).
func TestAnimalReportPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	ctx := context.Background()
	if err := f.store.CreateLicence(ctx, &service.Licence{AnimalID: f.tom, Jurisdiction: "minneapolis", Year: 2026, IssuedOn: service.MustDate("2026-02-01"),
		ExpiresOn: service.MustDate("2027-01-31"), FeeCents: 3000}); err != nil {
		t.Fatal(err)
	}
	c := f.client()
	c.login(service.RoleOfficer)
	rex, tom := strconv.FormatInt(f.rex, 10), strconv.FormatInt(f.tom, 10)

	st, body := c.get("/reports/dangerous")
	chart, table := strings.Index(body, `<figure id="register-chart"><svg`), strings.Index(body, `<table id="register">`)
	if st != http.StatusOK || chart < 0 || table < chart {
		t.Fatalf("GET /reports/dangerous = %d; want the SVG chart, then the table", st)
	}
	row := body[strings.Index(body, `data-animal="`+rex+`" data-requirement="sterilisation"`):]
	if row = row[:strings.Index(row, "</tr>")]; !strings.Contains(row, "64.110(i)") || !strings.Contains(row, "overdue") {
		t.Errorf("Rex's sterilisation row = %s; want overdue (64.110(i))", row)
	}
	if st, csv := c.get("/reports/dangerous.csv"); st != http.StatusOK || !strings.HasPrefix(csv, "as_of,animal_id") || !strings.Contains(csv, ",sterilisation,64.110(i),overdue,") {
		t.Errorf("GET /reports/dangerous.csv = %d %.200s", st, csv)
	}

	st, body = c.get("/reports/rabies-lapsed")
	chart, table = strings.Index(body, `<figure id="rabies-chart"><svg`), strings.Index(body, `<table id="rabies">`)
	if st != http.StatusOK || chart < 0 || table < chart {
		t.Fatalf("GET /reports/rabies-lapsed = %d; want the SVG chart, then the table", st)
	}
	if !strings.Contains(body, `data-animal="`+tom+`"`) || !strings.Contains(body, "none on file") || !strings.Contains(body, "66.20") {
		t.Errorf("rabies report lacks the licensed cat with no vaccination on file (66.20)")
	}
	if strings.Contains(body, `data-animal="`+rex+`"`) {
		t.Errorf("rabies report lists Rex, unlicensed and vaccinated")
	}
	if st, csv := c.get("/reports/rabies-lapsed.csv?as_of=2026-06-01"); st != http.StatusOK || !strings.Contains(csv, "2026-06-01,"+tom+",Tom,cat") {
		t.Errorf("GET /reports/rabies-lapsed.csv = %d %.200s", st, csv)
	}
	if st, _ := c.get("/reports/rabies-lapsed?as_of=soon"); st != http.StatusBadRequest {
		t.Errorf("as_of=soon = %d, want 400", st)
	}
	clinic := f.client()
	clinic.login(service.RoleClinic)
	if st, _ := clinic.get("/reports/dangerous"); st != http.StatusForbidden {
		t.Errorf("register as clinic = %d, want 403", st)
	}
}
