package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
		keep           string // with KeepInvalidUTF8, when it differs
		err            bool
	}{
		{name: "plain", in: `"abc"`, want: "abc"},
		{name: "empty", in: ` "" `, want: ""},
		{name: "escapes", in: `"q\"b\\s\/\b\f\n\r\t"`, want: "q\"b\\s/\b\f\n\r\t"},
		{name: "unicode escape", in: `"\u00e9\u00C5"`, want: "éÅ"},
		{name: "surrogate pair", in: `"\ud83d\udc15"`, want: "\U0001F415"},
		{name: "lone high surrogate", in: `"\ud83dx"`, want: "\uFFFDx"},
		{name: "lone low surrogate", in: `"\udc15"`, want: "\uFFFD"},
		{name: "high then not low", in: `"\ud83d\u0041"`, want: "\uFFFDA"},
		{name: "two highs", in: `"\ud83d\ud83d\udc15"`, want: "\uFFFD\U0001F415"},
		{name: "raw utf-8", in: `"Åsa Bjørk 🐕"`, want: "Åsa Bjørk 🐕"},
		{name: "bad utf-8", in: "\"a\xffb\"", want: "a\uFFFDb", keep: "a\xffb"},
		{name: "bad utf-8 and escape", in: "\"\xfe\\n\"", want: "\uFFFD\n", keep: "\xfe\n"},
		{name: "encoded surrogate", in: "\"\xed\xa0\x80\"", want: "\uFFFD\uFFFD\uFFFD", keep: "\xed\xa0\x80"},
		{name: "truncated utf-8", in: "\"\xe2\x82\"", want: "\uFFFD\uFFFD", keep: "\xe2\x82"},
		{name: "control", in: "\"a\nb\"", err: true},
		{name: "bad escape", in: `"\x"`, err: true},
		{name: "short unicode escape", in: `"\u12"`, err: true},
		{name: "bad pair half", in: `"\ud83d\uZZZZ"`, err: true},
		{name: "unterminated", in: `"ab`, err: true},
		{name: "unterminated escape", in: `"ab\`, err: true},
		{name: "not a string", in: `12`, err: true},
		{name: "nothing", in: ``, err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, keep := range []bool{false, true} {
				want := tc.want
				if keep && tc.keep != "" {
					want = tc.keep
				}
				s := New(tc.in)
				s.KeepInvalidUTF8 = keep
				got, err := s.String()
				b := New([]byte(tc.in))
				b.KeepInvalidUTF8 = keep
				gotb, errb := b.String()
				if (err == nil) != (errb == nil) || got != string(gotb) {
					t.Fatalf("String(%q) = %q, %v over a string, %q, %v over bytes", tc.in, got, err, gotb, errb)
				}
				if tc.err {
					var e *Error
					if !errors.As(err, &e) {
						t.Fatalf("String(%q) = %q, %v; want an *Error", tc.in, got, err)
					}
					continue
				}
				if err != nil || got != want || s.End() != nil {
					t.Fatalf("String(%q), keep %v = %q, %v; want %q", tc.in, keep, got, err, want)
				}
			}
		})
	}
}

// TestStringIsZeroCopy: a string without escapes is a slice of the text.
func TestStringIsZeroCopy(t *testing.T) {
	text := []byte(`"Åsa"`)
	s := New(text)
	got, err := s.String()
	if err != nil || &got[0] != &text[1] {
		t.Fatalf("String(%s) = %q, %v, not a slice of the text", text, got, err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		s := New(`"Åsa Bjørk"`)
		if _, err := s.String(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("String of a plain string allocates %v times", allocs)
	}
}

func TestNumbers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in     string
		number string // "" when not a number
		int    int64
		isInt  bool
	}{
		{in: `0`, number: "0", isInt: true},
		{in: `-0`, number: "-0", isInt: true},
		{in: ` 42 `, number: "42", int: 42, isInt: true},
		{in: `-42`, number: "-42", int: -42, isInt: true},
		{in: `9223372036854775807`, number: "9223372036854775807", int: 9223372036854775807, isInt: true},
		{in: `-9223372036854775808`, number: "-9223372036854775808", int: -9223372036854775808, isInt: true},
		{in: `9223372036854775808`, number: "9223372036854775808"},
		{in: `-9223372036854775809`, number: "-9223372036854775809"},
		{in: `99999999999999999999`, number: "99999999999999999999"},
		{in: `1.5`, number: "1.5"},
		{in: `1.0`, number: "1.0"},
		{in: `1e3`, number: "1e3"},
		{in: `-1.25E-7`, number: "-1.25E-7"},
		{in: `1E+2`, number: "1E+2"},
		{in: `-`},
		{in: `+1`},
		{in: `.5`},
		{in: `1.`},
		{in: `1e`},
		{in: `1e+`},
		{in: `"1"`},
		{in: ``},
	} {
		s := New(tc.in)
		lit, err := s.Number()
		if (err == nil) != (tc.number != "") || lit != tc.number {
			t.Errorf("Number(%q) = %q, %v; want %q", tc.in, lit, err, tc.number)
		}
		s = New(tc.in)
		n, err := s.Int64()
		if (err == nil) != tc.isInt || n != tc.int {
			t.Errorf("Int64(%q) = %d, %v; want %d (an integer: %v)", tc.in, n, err, tc.int, tc.isInt)
		}
	}
	// A literal ends where its grammar does: 01 is 0, then 1.
	s := New(`01`)
	if lit, err := s.Number(); err != nil || lit != "0" || s.End() == nil {
		t.Errorf("Number(01) = %q, %v, then End %v", lit, err, s.End())
	}
}

func TestLiterals(t *testing.T) {
	t.Parallel()
	s := New(` null true false nul`)
	if !s.Null() {
		t.Fatal("no null")
	}
	if v, err := s.Bool(); err != nil || !v {
		t.Fatalf("Bool = %v, %v", v, err)
	}
	if v, err := s.Bool(); err != nil || v {
		t.Fatalf("Bool = %v, %v", v, err)
	}
	if s.Null() {
		t.Fatal("nul read as null")
	}
	if _, err := s.Bool(); err == nil {
		t.Fatal("nul read as a bool")
	}
}

func TestSkip(t *testing.T) {
	t.Parallel()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, in := range []string{
		`0`, `-1.5e3`, `"a\"b"`, `"\u00e9"`, `true`, `false`, `null`, `[]`, `{}`, ` [ 1 , [ ] , { } ] `,
		`{"a":{"b":[1,"]",{"c":null}]},"d":"}"}`, "\"\xff\"",
		deep(MaxDepth), deep(MaxDepth + 1), `[{"a":` + deep(MaxDepth-1) + `}]`, `[{"a":` + deep(MaxDepth) + `}]`,
		`[1,]`, `[1 2]`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{1:2}`, `{"a":1`, `[`, `"\x"`, `"\u12"`, `tru`, `nul`, `01`,
		`-`, `1.`, `"ab`, "\"a\tb\"", `]`, ``, ` `,
	} {
		for _, s := range []Scanner[string]{New(in), New(in + " ,")} {
			want := json.Valid([]byte(in))
			err := s.Skip()
			if got := err == nil && s.Pos() == len(strings.TrimRight(in, " \t\r\n")); got != want {
				t.Errorf("Skip(%.40q) = %v at %d; json.Valid %v", in, err, s.Pos(), want)
			}
		}
	}
}

func TestObjectAndArray(t *testing.T) {
	t.Parallel()
	s := New([]byte(` { "a" : [ 1 , "x" ] , "b\u00e9" : { } , "c" : [ ] } `))
	var keys []string
	var items []string
	err := s.Object(func(key []byte) error {
		keys = append(keys, string(key))
		if string(key) != "a" {
			return s.Skip()
		}
		n, err := s.Array(func(i int) error {
			if i == 0 {
				n, err := s.Int64()
				items = append(items, string(rune('0'+n)))
				return err
			}
			v, err := s.String()
			items = append(items, string(v))
			return err
		})
		if n != 2 {
			t.Errorf("Array read %d elements", n)
		}
		return err
	})
	if err != nil || s.End() != nil {
		t.Fatal(err, s.End())
	}
	if want := []string{"a", "bé", "c"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
	if want := []string{"1", "x"}; !reflect.DeepEqual(items, want) {
		t.Errorf("elements %q, want %q", items, want)
	}
	for _, in := range []string{`[1 2]`, `[1,]`, `{"a":1 "b":2}`, `{"a" 1}`, `{1:1}`, `[`, `{`, `1`, `null`} {
		s := New(in)
		var err error
		if strings.HasPrefix(in, "[") {
			_, err = s.Array(func(int) error { return s.Skip() })
		} else {
			err = s.Object(func(string) error { return s.Skip() })
		}
		if err == nil {
			t.Errorf("%s read without an error", in)
		}
	}
}

// decodeAny reads one value as encoding/json reads it into an any with
// UseNumber, by the Scanner's pieces alone.
func decodeAny[T Text](s *Scanner[T]) (any, error) {
	switch c := s.Peek(); {
	case c == '{':
		m := map[string]any{}
		err := s.Object(func(key T) error {
			v, err := decodeAny(s)
			m[string(key)] = v
			return err
		})
		return m, err
	case c == '[':
		a := []any{}
		_, err := s.Array(func(int) error {
			v, err := decodeAny(s)
			a = append(a, v)
			return err
		})
		return a, err
	case c == '"':
		v, err := s.String()
		return string(v), err
	case c == 't' || c == 'f':
		return s.Bool()
	case c == 'n':
		if s.Null() {
			return nil, nil
		}
	}
	n, err := s.Number()
	return json.Number(n), err
}

// FuzzScanner holds the Scanner to encoding/json, over a string and over
// bytes: a value read to the end is one json.Valid accepts, decoded as
// json.Unmarshal decodes it (every string equal); Skip consumes exactly
// the value; Int64 reads what json.Unmarshal into an int64 reads; and
// with KeepInvalidUTF8 a string without escapes is its bytes.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,"x\u00e9\ud83d\udc15",true,false,null],"b":{}}`, `"\ud83dx"`,
		"\"a\xffb\\n\"", `-9223372036854775808`, `9223372036854775808`, `[[["deep"]]]`, `{"a":1,"a":2}`, ` 01 `,
		`"\u12"`, `[1,]`, `{"A":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		var want any
		if valid {
			d := json.NewDecoder(bytes.NewReader(data))
			d.UseNumber()
			if err := d.Decode(&want); err != nil {
				t.Fatalf("json.Valid(%q), but Decode: %v", data, err)
			}
		}
		check := func(kind string, got any, err, end error) {
			t.Helper()
			if ok := err == nil && end == nil; ok != valid {
				t.Fatalf("over %s, %q reads as %#v, %v, then %v; json.Valid %v", kind, data, got, err, end, valid)
			}
			if valid && !reflect.DeepEqual(got, want) {
				t.Fatalf("over %s, %q reads as %#v; encoding/json %#v", kind, data, got, want)
			}
		}
		s := New(string(data))
		got, err := decodeAny(&s)
		check("a string", got, err, s.End())
		b := New(data)
		got, err = decodeAny(&b)
		check("bytes", got, err, b.End())

		// Skip consumes the value and nothing after it.
		b = New(append(append([]byte(nil), data...), " ,"...))
		err = b.Skip()
		if skipped := err == nil && b.Pos() == len(bytes.TrimRight(data, " \t\r\n")); skipped != valid {
			t.Fatalf("Skip(%q) = %v at %d; json.Valid %v", data, err, b.Pos(), valid)
		}

		if first := bytes.TrimLeft(data, " \t\r\n"); valid && len(first) > 0 && first[0] != 'n' {
			var n int64
			uerr := json.Unmarshal(data, &n)
			b = New(data)
			got, err := b.Int64()
			if (uerr == nil) != (err == nil && b.End() == nil) || got != n {
				t.Fatalf("Int64(%q) = %d, %v; json.Unmarshal %d, %v", data, got, err, n, uerr)
			}
		}

		b = New(data)
		b.KeepInvalidUTF8 = true
		raw, err := b.String()
		if tok := data[len(data)-len(bytes.TrimLeft(data, " \t\r\n")) : b.Pos()]; err == nil && !bytes.ContainsRune(tok, '\\') {
			if !bytes.Equal(raw, tok[1:len(tok)-1]) {
				t.Fatalf("String(%q) keeping bytes = %q", data, raw)
			}
		}
		if err == nil && utf8.Valid(data) {
			s := New(data)
			if plain, _ := s.String(); !bytes.Equal(plain, raw) {
				t.Fatalf("String(%q) = %q, keeping bytes %q", data, plain, raw)
			}
		}
	})
}
