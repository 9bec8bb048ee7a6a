package e2e_test

// Tests of the test helpers. They need neither Claude Code nor the
// network, and run without HOOK_E2E.

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

func TestJSStringRoundTrip(t *testing.T) {
	tests := []struct{ in, stringify string }{
		{`"abc"`, `"abc"`},
		{`"\u0041\u0062c"`, `"Abc"`},
		{`"a\/b"`, `"a/b"`},
		{`"\ud800"`, `"\ud800"`},
		{`"x\uDFFFy"`, `"x\udfffy"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"😀"`, `"😀"`},
		{`"\u0000\u001F\b\f\n\r\t\u007f"`, "\"\\u0000\\u001f\\b\\f\\n\\r\\t\u007f\""},
		{"\"line\u2028para\"", "\"line\u2028para\""},
		{`"\u2028"`, "\"\u2028\""},
		{`"q\"b\\"`, `"q\"b\\"`},
		{`"K\u00f6ln"`, `"Köln"`},
		{`"\u003cb\u003e"`, `"<b>"`},
	}
	for _, tt := range tests {
		s, err := ParseJSString([]byte(tt.in))
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.stringify, string(s.Stringify()), tt.in)
		again, err := ParseJSString(s.Stringify())
		require.NoError(t, err)
		assert.True(t, s.Equal(again), tt.in)
	}
	hi, _ := ParseJSString([]byte(`"\ud800"`))
	lo, _ := ParseJSString([]byte(`"\udc00"`))
	assert.False(t, hi.Equal(lo), "different lone surrogates differ (as Go strings both are U+FFFD)")
	assert.Equal(t, hi.String(), lo.String())
	for _, bad := range []string{``, `"`, `abc`, `"a"b"`, "\"a\nb\"", `"\x"`, `"\u12"`, `"\u12zz"`, "\"\xff\"", `"a\"`} {
		_, err := ParseJSString([]byte(bad))
		assert.Error(t, err, bad)
	}
}

// TestJSStringMatchesTheCorpus checks every string of the corpus: its
// JSON.stringify form parses back to the same string.
func TestJSStringMatchesTheCorpus(t *testing.T) {
	n := 0
	for _, tv := range hooktest.TrickyValues() {
		if tv.JSON[0] != '"' {
			continue
		}
		n++
		s, err := ParseJSString(tv.JSON)
		require.NoError(t, err, tv.Name)
		back, err := ParseJSString(s.Stringify())
		require.NoError(t, err, tv.Name)
		assert.True(t, s.Equal(back), tv.Name)
	}
	assert.GreaterOrEqual(t, n, 20)
}

func TestMemberAndPath(t *testing.T) {
	obj := []byte(`{"a":1,"hookSpecificOutput":{"updatedInput":{"room":"\ud800"}},"b":"x"}`)
	v, ok := Member(obj, "b")
	assert.True(t, ok)
	assert.Equal(t, `"x"`, string(v))
	v, ok = Path(obj, "hookSpecificOutput", "updatedInput", "room")
	assert.True(t, ok)
	assert.Equal(t, `"\ud800"`, string(v), "raw bytes kept")
	_, ok = Member(obj, "missing")
	assert.False(t, ok)
	_, ok = Member([]byte(`[1]`), "a")
	assert.False(t, ok)
}
