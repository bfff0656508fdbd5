package csvio

// Spreadsheet formulas: a cell that begins with =, +, -, @, a tab or a
// carriage return is run as a formula when a clerk opens the file in a
// spreadsheet (OWASP, "CSV Injection"). Export writes such a cell with
// a leading apostrophe, which spreadsheets show as text and do not
// keep; import removes it again, so an export read back is the store it
// came from.
//
// The apostrophe also escapes a cell that begins with apostrophes
// before one of those characters, so that a value "'=x" and a value
// "=x" stay apart: Neutralise("=x") is "'=x", Neutralise("'=x") is
// "''=x", and Restore undoes exactly one.

// formulaStart reports whether a spreadsheet would evaluate s.
func formulaStart(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	case '\'':
		return formulaStart(s[1:])
	}
	return false
}

// Neutralise returns s as written to a CSV cell.
func Neutralise(s string) string {
	if formulaStart(s) {
		return "'" + s
	}
	return s
}

// Restore returns the value of a CSV cell written by Neutralise. Any
// other cell is returned as it is.
func Restore(s string) string {
	if len(s) > 1 && s[0] == '\'' && formulaStart(s[1:]) {
		return s[1:]
	}
	return s
}
