package money

import (
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/chipdesk/chipdesk/service"
)

// Bar is one bar of a chart.
type Bar struct {
	Label string
	Value int64
}

// Chart geometry, in SVG user units.
const (
	chartW, chartH = 720, 300
	chartLeft      = 70
	chartBottom    = 40
	chartTop       = 30
)

// BarChart renders bars as a self-contained SVG image: no script, no
// font or style from elsewhere, so that a page shows it offline and
// prints it. unit formats the axis values (Money for cents).
func BarChart(title string, bars []Bar, unit func(int64) string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" role="img" aria-label="%s" class="chart">`,
		chartW, chartH, html.EscapeString(title))
	fmt.Fprintf(&b, `<title>%s</title>`, html.EscapeString(title))
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="14" font-family="sans-serif">%s</text>`, chartLeft, html.EscapeString(title))
	var top int64
	for _, x := range bars {
		top = max(top, x.Value)
	}
	plotH := chartH - chartBottom - chartTop
	base := chartH - chartBottom
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, chartLeft, base, chartW-10, base)
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" font-family="sans-serif" text-anchor="end">%s</text>`,
		chartLeft-6, chartTop+4, html.EscapeString(unit(top)))
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" font-family="sans-serif" text-anchor="end">%s</text>`,
		chartLeft-6, base, html.EscapeString(unit(0)))
	if n := len(bars); n > 0 {
		slot := (chartW - chartLeft - 10) / n
		w := max(slot*7/10, 1)
		for i, x := range bars {
			h := 0
			if top > 0 {
				h = int(x.Value * int64(plotH) / top)
			}
			xpos := chartLeft + i*slot + (slot-w)/2
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#3b6ea5"><title>%s: %s</title></rect>`,
				xpos, base-h, w, h, html.EscapeString(x.Label), html.EscapeString(unit(x.Value)))
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10" font-family="sans-serif" text-anchor="middle">%s</text>`,
				xpos+w/2, base+14, html.EscapeString(x.Label))
		}
	}
	b.WriteString(`</svg>`)
	return []byte(b.String())
}

// Count formats a count for a chart axis.
func Count(n int64) string { return strconv.FormatInt(n, 10) }

// Dollars formats cents for a chart axis and a table ("$25.00").
func Dollars(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s$%d.%02d", sign, c/100, c%100)
}

// SalesReport is the licences sold in a period, by month, jurisdiction,
// species and fee line.
type SalesReport struct {
	From, To service.Date       `json:"-"`
	Rows     []service.SalesRow `json:"rows"`
	Count    int                `json:"count"`
	Cents    int64              `json:"cents"`
}

// Sales reports the licences issued from..to.
func (s *Service) Sales(ctx context.Context, from, to service.Date) (*SalesReport, error) {
	if from.IsZero() || to.IsZero() || to < from {
		return nil, service.Errorf(service.EINVALID, "from and to required (YYYY-MM-DD), from before to.")
	}
	rows, err := s.store.LicenceSales(ctx, from, to)
	if err != nil {
		return nil, err
	}
	r := &SalesReport{From: from, To: to, Rows: rows}
	if r.Rows == nil {
		r.Rows = []service.SalesRow{}
	}
	for _, x := range rows {
		r.Count += x.Count
		r.Cents += x.Cents
	}
	return r, nil
}

// ByMonth is a bar per month of the period, counting licences.
func (r *SalesReport) ByMonth() []Bar {
	var bars []Bar
	idx := map[string]int{}
	for m := r.From.AddDays(1 - r.From.Day()); m <= r.To; m = m.AddMonths(1) {
		k := m.String()[:7]
		idx[k] = len(bars)
		bars = append(bars, Bar{Label: k})
	}
	for _, x := range r.Rows {
		if i, ok := idx[x.Month]; ok {
			bars[i].Value += int64(x.Count)
		}
	}
	return bars
}

// WriteCSV writes the report's rows as CSV with a header.
func (r *SalesReport) WriteCSV(w io.Writer) error {
	c := csv.NewWriter(w)
	c.Write([]string{"month", "jurisdiction", "species", "fee_code", "count", "cents"})
	for _, x := range r.Rows {
		c.Write([]string{x.Month, x.Jurisdiction, x.Species, x.FeeCode, strconv.Itoa(x.Count), strconv.FormatInt(x.Cents, 10)})
	}
	c.Flush()
	return c.Error()
}

// Intakes reports intakes and outcomes by month from..to.
func (s *Service) Intakes(ctx context.Context, from, to service.Date) ([]service.IntakeRow, error) {
	if from.IsZero() || to.IsZero() || to < from {
		return nil, service.Errorf(service.EINVALID, "from and to required (YYYY-MM-DD), from before to.")
	}
	rows, err := s.store.IntakeOutcomes(ctx, from, to)
	if rows == nil {
		rows = []service.IntakeRow{}
	}
	return rows, err
}

// WriteIntakesCSV writes intake rows as CSV with a header.
func WriteIntakesCSV(w io.Writer, rows []service.IntakeRow) error {
	c := csv.NewWriter(w)
	c.Write([]string{"month", "intakes", "reclaimed", "adopted", "disposed_of"})
	for _, x := range rows {
		c.Write([]string{x.Month, strconv.Itoa(x.Intakes), strconv.Itoa(x.Reclaimed), strconv.Itoa(x.Adopted), strconv.Itoa(x.DisposedOf)})
	}
	c.Flush()
	return c.Error()
}

// WriteCashUpCSV writes a cash-up as CSV: one row per method and per
// fee, then the totals.
func WriteCashUpCSV(w io.Writer, day string, cu *service.CashUp) error {
	c := csv.NewWriter(w)
	c.Write([]string{"date", "group", "name", "cents"})
	for _, k := range sortedKeys(cu.ByMethod) {
		c.Write([]string{day, "method", k, strconv.FormatInt(cu.ByMethod[k], 10)})
	}
	for _, k := range sortedKeys(cu.ByFee) {
		c.Write([]string{day, "fee", k, strconv.FormatInt(cu.ByFee[k], 10)})
	}
	c.Write([]string{day, "refunds", strconv.Itoa(cu.Refunds), strconv.FormatInt(-cu.RefundCents, 10)})
	c.Write([]string{day, "voids", strconv.Itoa(cu.Voids), strconv.FormatInt(-cu.VoidCents, 10)})
	c.Write([]string{day, "waived", "", strconv.FormatInt(cu.WaivedCents, 10)})
	c.Write([]string{day, "total", "", strconv.FormatInt(cu.TotalCents, 10)})
	c.Flush()
	return c.Error()
}

// MethodBars and FeeBars chart a cash-up.
func MethodBars(cu *service.CashUp) []Bar { return mapBars(cu.ByMethod) }

// FeeBars is a bar per fee of a cash-up.
func FeeBars(cu *service.CashUp) []Bar { return mapBars(cu.ByFee) }

func mapBars(m map[string]int64) []Bar {
	var out []Bar
	for _, k := range sortedKeys(m) {
		out = append(out, Bar{Label: k, Value: m[k]})
	}
	return out
}

func sortedKeys(m map[string]int64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
