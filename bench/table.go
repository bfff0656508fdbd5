package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Better says which way a figure should go.
type Better string

// Directions of a target.
const (
	Higher Better = "higher" // the figure must be at least the target
	Lower  Better = "lower"  // the figure must be at most the target
)

// Figure is one measured figure and its target.
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Target is the limit in Unit; Better says which side passes. An
	// empty Better means the figure has no target.
	Target float64 `json:"target,omitempty"`
	Better Better  `json:"better,omitempty"`
	// Pass is set for a measured figure with a target.
	Pass *bool `json:"pass,omitempty"`
	// Skipped says why the figure was not measured.
	Skipped string `json:"skipped,omitempty"`
	// Note qualifies the figure (sample size, conditions).
	Note string `json:"note,omitempty"`
}

// judge sets Pass from Value and Target.
func (f *Figure) judge() {
	if f.Skipped != "" || f.Better == "" {
		f.Pass = nil
		return
	}
	ok := f.Value >= f.Target
	if f.Better == Lower {
		ok = f.Value <= f.Target
	}
	f.Pass = &ok
}

// Report is the result of a run.
type Report struct {
	Animals int      `json:"animals"`
	CPUs    int      `json:"cpus"`
	Go      string   `json:"go"`
	Figures []Figure `json:"figures"`
}

// Failed lists the figures that missed their targets.
func (r *Report) Failed() []string {
	var out []string
	for _, f := range r.Figures {
		if f.Pass != nil && !*f.Pass {
			out = append(out, f.Name)
		}
	}
	return out
}

// add appends a figure, judged.
func (r *Report) add(f Figure) {
	f.judge()
	r.Figures = append(r.Figures, f)
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteTable writes the report as one table: each figure, its target
// and a mark (ok, FAIL, or - without a target).
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "chipdesk bench: %s animals, %d CPUs, %s\n\n", thousands(float64(r.Animals)), r.CPUs, r.Go)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tmeasured\ttarget\t\tnote")
	for _, f := range r.Figures {
		val, target, mark := "-", "-", "-"
		if f.Skipped != "" {
			mark = "skip"
			f.Note = strings.TrimSpace(f.Skipped + "; " + f.Note)
			f.Note = strings.TrimSuffix(f.Note, ";")
		} else {
			val = format(f.Value, f.Unit)
		}
		switch f.Better {
		case Higher:
			target = "≥ " + format(f.Target, f.Unit)
		case Lower:
			target = "≤ " + format(f.Target, f.Unit)
		}
		if f.Pass != nil {
			mark = "ok"
			if !*f.Pass {
				mark = "FAIL"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, val, target, mark, f.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if failed := r.Failed(); len(failed) > 0 {
		_, err := fmt.Fprintf(w, "\n%d of the targets missed: %s\n", len(failed), strings.Join(failed, "; "))
		return err
	}
	return nil
}

// format writes v in unit with the precision the unit needs.
func format(v float64, unit string) string {
	switch unit {
	case "/s":
		return thousands(v) + " /s"
	case "M samples/s", "MB":
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
	case "ms", "µs":
		p := 2
		if v >= 100 {
			p = 0
		} else if v >= 10 {
			p = 1
		}
		return strconv.FormatFloat(v, 'f', p, 64) + " " + unit
	case "s":
		return strconv.FormatFloat(v, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + unit
}

// thousands writes v rounded, with thousands separators.
func thousands(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
