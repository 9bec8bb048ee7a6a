package jsstr

import (
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

// The WhiteSpace and LineTerminator code points of ECMA-262 (§12.2,
// §12.3): what String.prototype.trim removes.
var jsSpaces = []rune{'\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
	0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF}

func TestIsSpaceIsJavaScriptsSet(t *testing.T) {
	want := map[rune]bool{}
	for _, r := range jsSpaces {
		want[r] = true
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		if got := IsSpace(r); got != want[r] {
			t.Errorf("IsSpace(%U) = %v, want %v", r, got, want[r])
		}
	}
	// Every Zs character is a JavaScript space.
	for r := rune(0); r <= 0x10FFFF; r++ {
		if unicode.Is(unicode.Zs, r) && !IsSpace(r) {
			t.Errorf("%U is in Zs but not a space", r)
		}
	}
}

func TestTrimSpace(t *testing.T) {
	for in, want := range map[string]string{
		"\ufeff{\"continue\":false}": "{\"continue\":false}",
		"\u0085{":                    "\u0085{",
		" \u3000\u2028text\u00a0\t":  "text",
		"\xff ":                      "\xff",
		" \xff":                      "\xff",
		"":                           "",
		"\ufeff":                     "",
	} {
		assert.Equal(t, want, TrimSpace(in), "%q", in)
	}
	assert.True(t, LooksLikeJSON("\ufeff\u2029 {"))
	assert.False(t, LooksLikeJSON("\u0085{"))
	assert.False(t, LooksLikeJSON("text {"))
}
