package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestWriteJSON checks that answers are the bytes of json.Marshal and a
// newline, with their length, through reused buffers.
func TestWriteJSON(t *testing.T) {
	t.Parallel()
	s := &Server{log: slog.New(slog.DiscardHandler)}
	s.jsonBufs.New = newJSONBuf
	s.jsonType = []string{"application/json"}
	big := strings.Repeat("<chip & tag>", 10000) // larger than a pooled buffer
	for _, tt := range []struct {
		name   string
		status int
		v      any
	}{
		{"object", http.StatusOK, map[string]any{"found": true, "chip": "985121004515220"}},
		{"HTML escaped as by Marshal", http.StatusCreated, []string{"<b>&</b>"}},
		{"larger than net/http's buffer", http.StatusOK, strings.Repeat("x", 5000)},
		{"larger than a pooled buffer", http.StatusOK, big},
		{"short again after a large one", http.StatusOK, 7},
	} {
		w := httptest.NewRecorder()
		s.writeJSON(w, httptest.NewRequest("GET", "/", nil), tt.status, tt.v)
		want, _ := json.Marshal(tt.v)
		want = append(want, '\n')
		if w.Code != tt.status || w.Body.String() != string(want) {
			t.Errorf("%s: writeJSON = %d %.40q, want %d %.40q", tt.name, w.Code, w.Body, tt.status, want)
		}
		if got := w.Header().Get("Content-Length"); got != strconv.Itoa(len(want)) {
			t.Errorf("%s: Content-Length %q, want %d", tt.name, got, len(want))
		}
		if got := w.Header().Get("Content-Type"); got != "application/json" {
			t.Errorf("%s: Content-Type %q, want application/json", tt.name, got)
		}
	}
	// A value that cannot be encoded is an internal error, told without
	// detail.
	w := httptest.NewRecorder()
	s.writeJSON(w, httptest.NewRequest("GET", "/", nil), http.StatusOK, func() {})
	if want := `{"error":{"code":"internal","message":"Internal error."}}` + "\n"; w.Code != http.StatusInternalServerError || w.Body.String() != want {
		t.Errorf("writeJSON(func) = %d %q, want 500 %q", w.Code, w.Body, want)
	}
}
