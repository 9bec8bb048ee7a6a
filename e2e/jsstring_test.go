package e2e_test

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gohooks/hook/internal/verdict"
)

// JSString is a JavaScript string value: a sequence of UTF-16 code units.
// Unlike a Go string it can hold lone surrogates, which Claude Code (a
// JavaScript program) keeps when it parses "\ud800" and writes back when it
// calls JSON.stringify. Two JSON texts mean the same string to Claude Code
// exactly when they decode to equal JSStrings.
type JSString []uint16

// ParseJSString decodes one JSON string literal, quotes included, as
// JavaScript's JSON.parse does (internal/verdict is the module's one
// reader of JSON as JavaScript reads it): each \uXXXX escape is one code
// unit (so a lone surrogate stays one), and raw UTF-8 text becomes UTF-16.
// It fails on anything that is not exactly one string literal, and on
// invalid UTF-8.
func ParseJSString(lit []byte) (JSString, error) {
	if !utf8.Valid(lit) {
		return nil, fmt.Errorf("e2e: invalid UTF-8 in %.40q", lit)
	}
	v, ok := verdict.Parse(lit)
	if !ok || v.Kind != '"' || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return nil, fmt.Errorf("e2e: not one JSON string literal: %.40q", lit)
	}
	return append(JSString{}, v.Str...), nil
}

// Stringify returns the JSON text that JavaScript's JSON.stringify writes
// for s (ES2019 and later): `"` and `\` escaped, \b \f \n \r \t as short
// escapes, other control characters and lone surrogates as lowercase
// \u00xx / \udxxx escapes, and everything else, U+2028 and U+2029
// included, as raw UTF-8.
func (s JSString) Stringify() []byte {
	return verdict.Stringify(nil, verdict.Value{Kind: '"', Str: s})
}

// Equal reports whether s and t are the same JavaScript string.
func (s JSString) Equal(t JSString) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// String returns s as a Go string; lone surrogates become U+FFFD.
func (s JSString) String() string { return string(utf16.Decode(s)) }
