package web

import (
	"fmt"
	"html/template"
	"io/fs"
	"strings"
	"time"

	"github.com/chipdesk/chipdesk/service"
	"github.com/chipdesk/chipdesk/service/licensing"
)

// funcs are the template helpers. None computes law: money and dates are
// only formatted.
var funcs = template.FuncMap{
	"money": licensing.Money,
	"date": func(d service.Date) string {
		if d.IsZero() {
			return "—"
		}
		return d.String()
	},
	"title": func(s string) string {
		if s == "" {
			return ""
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
	"str":   func(v any) string { return fmt.Sprint(v) },
	"say":   say, // words.go: the one glossary of codes
	"lower": strings.ToLower,
	// fieldOf is one input of a form that may have been refused and is
	// shown again (form.go): what was typed, or def, and its error.
	"fieldOf": func(f *Form, action, name, def, label, typ string, focus bool) fieldView {
		return fieldView{Name: name, Label: label, Type: typ, Value: f.Value(action, name, def),
			Error: f.Error(action, name), Focus: focus && !f.For(action) || f.Error(action, name) != ""}
	},
	"searchIn": func(action, q string) searchBox { return searchBox{Action: action, Q: q} },
}

// searchBox is the search form: where it goes, what was searched.
type searchBox struct{ Action, Q string }

// fieldView is one input as the "field" template draws it.
type fieldView struct {
	Name, Label, Type, Value, Error string
	Focus                           bool
}

// parsePages parses layout.html and partials.html once per page file, so
// each page defines its own "content".
func parsePages(display func(string) string, loc *time.Location) (map[string]*template.Template, error) {
	fm := template.FuncMap{
		"place": display, // "minneapolis" shown as "Minneapolis"
		// Times are shown on the desk's clock (the home jurisdiction's
		// zone), never in UTC.
		"clock": func(t time.Time) string { return t.In(loc).Format("15:04:05") },
		"when":  func(t time.Time) string { return t.In(loc).Format("2006-01-02 15:04") },
	}
	base, err := template.New("").Funcs(funcs).Funcs(fm).ParseFS(templateFS, "templates/layout.html", "templates/partials.html")
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if name == "layout" || name == "partials" {
			continue
		}
		t, err := template.Must(base.Clone()).ParseFS(templateFS, n)
		if err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
		pages[name] = t
	}
	pages["fragments"] = base
	return pages, nil
}
