// Package jsstr holds the string rules of JavaScript that Claude Code
// applies to what a hook writes, for the library and its test kit.
package jsstr

import (
	"strings"
	"unicode/utf8"
)

// IsSpace reports whether r is removed by JavaScript's
// String.prototype.trim: the WhiteSpace (TAB, VT, FF, ZWNBSP U+FEFF and
// every Zs space) and LineTerminator (LF, CR, U+2028, U+2029) code points
// of ECMA-262. It differs from unicode.IsSpace: U+FEFF is a JavaScript
// space and U+0085 is not.
func IsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// TrimSpace returns s without the leading and trailing code points that
// JavaScript's String.prototype.trim removes (see [IsSpace]). Bytes that
// are not valid UTF-8 are never trimmed.
func TrimSpace(s string) string {
	for s != "" {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n <= 1 || !IsSpace(r) {
			break
		}
		s = s[n:]
	}
	for s != "" {
		r, n := utf8.DecodeLastRuneInString(s)
		if r == utf8.RuneError && n <= 1 || !IsSpace(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// LooksLikeJSON reports whether Claude Code would try to read the hook
// output s as a JSON answer: once trimmed as JavaScript trims, it starts
// with "{".
func LooksLikeJSON(s string) bool {
	return strings.HasPrefix(TrimSpace(s), "{")
}
