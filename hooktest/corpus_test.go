package hooktest_test

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/jsonopts"
)

func TestTrickyValues(t *testing.T) {
	vs := hooktest.TrickyValues()
	assert.GreaterOrEqual(t, len(vs), 7+25)
	assert.Equal(t, hooktest.RoomNames(), vs[:7], "the room names come first")
	seen := map[string]bool{}
	all := map[string]bool{}
	for _, v := range vs {
		assert.False(t, seen[v.Name], "duplicate name %q", v.Name)
		seen[v.Name] = true
		all[string(v.JSON)] = true
		assert.True(t, v.JSON.IsValid(jsonopts.Lenient()), v.Name)
	}
	// The values the issue asks for, byte for byte.
	for _, want := range []string{
		`"\ud800"`, `"a\u0000b"`, "\"line\u2028para\u2029end\"", `"👩‍👩‍👧‍👦 family 🏳️‍🌈"`,
		`"שלום עולם مرحبا"`, `"line one\r\nline two\r\n"`, `"{\"room\":\"lobby\",\"id\":1}"`,
		`12345678901234567890`, `-0`, `1E+2`, `2.50`, `1e400`, `{}`, `[]`, `"\u0041\u0062\u0063"`,
	} {
		assert.True(t, all[want], "missing %s", want)
	}
	var long, deep bool
	for _, v := range vs {
		long = long || len(v.JSON) > 64<<10
		deep = deep || strings.Count(string(v.JSON), "[") >= 64
	}
	assert.True(t, long, "a very long string")
	assert.True(t, deep, "deep nesting")
}

func TestRoomNames(t *testing.T) {
	rs := hooktest.RoomNames()
	assert.Len(t, rs, 7)
	for _, r := range rs {
		assert.Equal(t, jsontext.Kind('"'), r.JSON.Kind(), r.Name)
	}
}
