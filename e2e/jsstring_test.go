package e2e_test

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// JSString is a JavaScript string value: a sequence of UTF-16 code units.
// Unlike a Go string it can hold lone surrogates, which Claude Code (a
// JavaScript program) keeps when it parses "\ud800" and writes back when it
// calls JSON.stringify. Two JSON texts mean the same string to Claude Code
// exactly when they decode to equal JSStrings.
type JSString []uint16

// ParseJSString decodes one JSON string literal, quotes included, as
// JavaScript's JSON.parse does: each \uXXXX escape is one code unit (so a
// lone surrogate stays one), and raw UTF-8 text becomes UTF-16. It fails
// on anything that is not exactly one string literal, and on invalid
// UTF-8.
func ParseJSString(lit []byte) (JSString, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return nil, fmt.Errorf("e2e: not a JSON string literal: %.40q", lit)
	}
	b := lit[1 : len(lit)-1]
	out := make(JSString, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			return nil, fmt.Errorf("e2e: unescaped quote at byte %d", i+1)
		case c < 0x20:
			return nil, fmt.Errorf("e2e: raw control character %#x at byte %d", c, i+1)
		case c == '\\':
			if i+1 >= len(b) {
				return nil, errors.New("e2e: string ends in a backslash")
			}
			switch e := b[i+1]; e {
			case '"', '\\', '/':
				out = append(out, uint16(e))
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				if i+6 > len(b) {
					return nil, errors.New("e2e: short \\u escape")
				}
				u, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
				if err != nil {
					return nil, fmt.Errorf("e2e: bad \\u escape %q", b[i:i+6])
				}
				out = append(out, uint16(u))
				i += 6
				continue
			default:
				return nil, fmt.Errorf("e2e: bad escape \\%c", e)
			}
			i += 2
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				return nil, fmt.Errorf("e2e: invalid UTF-8 at byte %d", i+1)
			}
			out = utf16.AppendRune(out, r)
			i += n
		}
	}
	return out, nil
}

// Stringify returns the JSON text that JavaScript's JSON.stringify writes
// for s (ES2019 and later): `"` and `\` escaped, \b \f \n \r \t as short
// escapes, other control characters and lone surrogates as lowercase
// \u00xx / \udxxx escapes, and everything else, U+2028 and U+2029
// included, as raw UTF-8.
func (s JSString) Stringify() []byte {
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(s)+2)
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		u := s[i]
		switch {
		case u == '"':
			out = append(out, '\\', '"')
		case u == '\\':
			out = append(out, '\\', '\\')
		case u == '\b':
			out = append(out, '\\', 'b')
		case u == '\f':
			out = append(out, '\\', 'f')
		case u == '\n':
			out = append(out, '\\', 'n')
		case u == '\r':
			out = append(out, '\\', 'r')
		case u == '\t':
			out = append(out, '\\', 't')
		case u < 0x20:
			out = append(out, '\\', 'u', '0', '0', hex[u>>4], hex[u&15])
		case utf16.IsSurrogate(rune(u)):
			if u < 0xdc00 && i+1 < len(s) && s[i+1] >= 0xdc00 && s[i+1] < 0xe000 {
				out = utf8.AppendRune(out, utf16.DecodeRune(rune(u), rune(s[i+1])))
				i++
				continue
			}
			out = append(out, '\\', 'u', hex[u>>12], hex[u>>8&15], hex[u>>4&15], hex[u&15])
		default:
			out = utf8.AppendRune(out, rune(u))
		}
	}
	return append(out, '"')
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
