package sqlite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"
)

func TestParseBody(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []any
		err      bool
	}{
		{name: "no rows", in: `[]`, want: []any{}},
		{name: "empty row", in: `[[]]`, want: []any{[]any{}}},
		{name: "scalars", in: `[[1,-42,"a",null,0]]`, want: []any{[]any{int64(1), int64(-42), "a", nil, int64(0)}}},
		{name: "rows and space", in: ` [ [1 , "x"] ,[ "c" ] ] `, want: []any{[]any{int64(1), "x"}, []any{"c"}}},
		{name: "escapes", in: `[["q\"b\\s\/\b\f\n\r\t\u00e9\ud83d\udc15"]]`, want: []any{[]any{"q\"b\\s/\b\f\n\r\t\u00e9\U0001F415"}}},
		{name: "lone surrogate", in: `[["\ud83dx"]]`, want: []any{[]any{"\uFFFDx"}}},
		{name: "raw utf-8", in: `[["Åsa Bjørk"]]`, want: []any{[]any{"Åsa Bjørk"}}},
		{name: "int64 limits", in: `[[9223372036854775807,-9223372036854775808]]`, want: []any{[]any{int64(9223372036854775807), int64(-9223372036854775808)}}},
		{name: "overflow", in: `[[9223372036854775808]]`, err: true},
		{name: "real", in: `[[1.5]]`, err: true},
		{name: "exponent", in: `[[1e3]]`, err: true},
		{name: "leading zero", in: `[[01]]`, err: true},
		{name: "minus alone", in: `[[-]]`, err: true},
		{name: "object", in: `[[{}]]`, err: true},
		{name: "true", in: `[[true]]`, err: true},
		{name: "trailing comma", in: `[[1,]]`, err: true},
		{name: "unterminated", in: `[[1]`, err: true},
		{name: "unterminated string", in: `[["ab`, err: true},
		{name: "control in string", in: "[[\"a\nb\"]]", err: true},
		{name: "bad escape", in: `[["\x"]]`, err: true},
		{name: "short unicode escape", in: `[["\u12"]]`, err: true},
		{name: "text after", in: `[] []`, err: true},
		{name: "scalar row", in: `[1]`, err: true},
		{name: "array in a row", in: `[[[1]]]`, err: true},
		{name: "nothing", in: ``, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRows(tc.in)
			if tc.err {
				if !errors.Is(err, errBodySyntax) {
					t.Fatalf("parseBody(%q) = %v, %v; want an errBodySyntax", tc.in, got, err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(rowsAny(got), tc.want) {
				t.Fatalf("parseBody(%q) = %#v, %v; want %#v", tc.in, rowsAny(got), err, tc.want)
			}
		})
	}
}

// rowsAny is rows as encoding/json's values (numbers as int64).
func rowsAny(rows []cols) []any {
	out := []any{}
	for _, r := range rows {
		row := []any{}
		for _, v := range r {
			switch v.kind {
			case valInt:
				row = append(row, v.n)
			case valText:
				row = append(row, v.s)
			default:
				row = append(row, nil)
			}
		}
		out = append(out, row)
	}
	return out
}

// TestParseBodyOfSQLite parses what SQLite's json_array writes for
// awkward column values, the bodies' only producer.
func TestParseBodyOfSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, nil)
	values := []any{"plain", "quote \" backslash \\ slash /", "tab\tnew\nline\r\x01\x1f\x7f", "Åsa 🐕 \u2028", "", int64(-1),
		int64(1 << 62), nil, "123", "null"}
	var body string
	if err := db.rdb.QueryRowContext(ctx, `SELECT json_array(json_array(?, ?, ?, ?, ?, ?, ?, ?, ?, ?))`, values...).Scan(&body); err != nil {
		t.Fatal(err)
	}
	got, err := parseRows(body)
	if err != nil {
		t.Fatalf("parseBody(%s): %v", body, err)
	}
	if want := []any{values}; !reflect.DeepEqual(rowsAny(got), want) {
		t.Fatalf("parseBody(%s) = %#v, want %#v", body, got, want)
	}
}

// FuzzParseBody: no input panics; what parses is encoding/json's reading
// of it too, and marshals back to text that parses to the same value.
func FuzzParseBody(f *testing.F) {
	for _, s := range []string{`[]`, `[["A",1,"a",null],["C",2,"985141000000001"]]`, `[["\u00e9\ud83d\udc15\n"]]`, `[[-0]]`, `[[["deep"]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := parseRows(string(data))
		if err != nil {
			if !errors.Is(err, errBodySyntax) {
				t.Fatalf("parseBody(%q) error %v is no errBodySyntax", data, err)
			}
			return
		}
		v := rowsAny(rows)
		var std any
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		if err := d.Decode(&std); err != nil {
			t.Fatalf("parseBody(%q) = %#v, but encoding/json: %v", data, v, err)
		}
		if !validUTF8Strings(v) {
			return // encoding/json replaces bad UTF-8; the body keeps SQLite's bytes
		}
		if n := numbersToInt(std); !reflect.DeepEqual(n, any(v)) {
			t.Fatalf("parseBody(%q) = %#v, encoding/json reads %#v", data, v, n)
		}
		text, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := parseRows(string(text))
		if err != nil || !reflect.DeepEqual(rowsAny(back), v) {
			t.Fatalf("parseBody(Marshal(%#v)) = %#v, %v", v, rowsAny(back), err)
		}
	})
}

// parseRows is parseBody's rows, each copied out of the slice it reuses.
func parseRows(body string) ([]cols, error) {
	rows := []cols{}
	err := parseBody(body, nil, func(c cols) error {
		rows = append(rows, slices.Clone(c))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// numbersToInt turns encoding/json's numbers into int64, recursively.
func numbersToInt(v any) any {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			return x
		}
		return n
	case []any:
		for i := range x {
			x[i] = numbersToInt(x[i])
		}
	}
	return v
}

// validUTF8Strings reports whether every string in v is valid UTF-8.
func validUTF8Strings(v any) bool {
	switch x := v.(type) {
	case string:
		return utf8.ValidString(x)
	case []any:
		for _, e := range x {
			if !validUTF8Strings(e) {
				return false
			}
		}
	}
	return true
}

// BenchmarkParseBody parses the body of one record's lookup row as the
// store writes it: the animal, its owner, a chip, two licences and a
// vaccination, one with an escaped name.
func BenchmarkParseBody(b *testing.B) {
	body := `[["A",1,1,"Rex","dog","Labrador","black",1,0,"2026-02-01T00:00:00Z",null],` +
		`["O",1,"Owner 1","1 Main St","Minneapolis","MN","55401","612-555-2333","owner1@example.com",null],` +
		`["C",1,1,"985000000000001","iso11784","2026-02-01T00:00:00Z"],` +
		`["L",1,1,"minneapolis","licence",2026,1,"2026-02-01","2027-01-31",1500,null],` +
		`["L",2,1,"minneapolis","licence",2025,7,"2025-02-01","2026-01-31",1500,"\u00c5sa \"Bj\u00f8rk\""],` +
		`["V",1,1,"2025-06-01","2028-06-01","Dr. Lee",null]]`
	row := make(cols, 0, 16)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := parseBody(body, row, func(cols) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
