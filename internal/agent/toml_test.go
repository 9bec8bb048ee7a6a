package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTOMLString(t *testing.T) {
	for in, want := range map[string]string{
		``:                      `""`,
		`plain`:                 `"plain"`,
		`a"b\c`:                 `"a\"b\\c"`,
		"tab\tnl\ncr\r":         `"tab\tnl\ncr\r"`,
		"bell\x07del\x7f":       `"bell\u0007del\u007F"`,
		"Köln ☃ 日本":             `"Köln ☃ 日本"`,
		`C:\Users\u\hooks.json`: `"C:\\Users\\u\\hooks.json"`,
	} {
		assert.Equal(t, want, TOMLString(in), "%q", in)
	}
}
