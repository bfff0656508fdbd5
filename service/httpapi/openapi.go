package httpapi

import (
	_ "embed"
	"net/http"
)

// openAPI is the OpenAPI 3 description of the API. Tests check that it
// is a valid document, that it lists exactly the routes the server
// registers with the same roles, and that answers match its schemas.
//
//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the OpenAPI 3 document served at /api/v1/openapi.json.
func OpenAPI() []byte { return append([]byte(nil), openAPI...) }

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=300")
	_, _ = w.Write(openAPI)
}
