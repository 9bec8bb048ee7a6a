package verdict

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
)

func TestStringifyMatchesJavaScript(t *testing.T) {
	// What node -e 'console.log(JSON.stringify(JSON.parse(x)))' prints.
	for in, want := range map[string]string{
		`12345678901234567890`:      `12345678901234567000`,
		`-98765432109876543210`:     `-98765432109876540000`,
		`9007199254740993`:          `9007199254740992`,
		`1e400`:                     `null`,
		`-0`:                        `0`,
		`2.50`:                      `2.5`,
		`1E+2`:                      `100`,
		`5e-324`:                    `5e-324`,
		`1e21`:                      `1e+21`,
		`1e-7`:                      `1e-7`,
		`0.000001`:                  `0.000001`,
		`123e-20`:                   `1.23e-18`,
		`"\u00f6\/\u0041"`:          `"ö/A"`,
		`"\ud800"`:                  `"\ud800"`,
		`"x\udfffy"`:                `"x\udfffy"`,
		`"\ud83d\ude00"`:            `"😀"`,
		`"\b\f\n\r\t\u001f\u007f"`:  "\"\\b\\f\\n\\r\\t\\u001f\u007f\"",
		"\"a\u2028b\"":              "\"a\u2028b\"",
		`{"b":1,"a":2,"1":3,"0":4}`: `{"0":4,"1":3,"b":1,"a":2}`,
		`{"a":1,"b":2,"a":3}`:       `{"a":3,"b":2}`,
		`[ 1 , {"x" : null} ]`:      `[1,{"x":null}]`,
	} {
		v, ok := Parse([]byte(in))
		require.True(t, ok, in)
		assert.Equal(t, want, string(Stringify(nil, v)), in)
	}
}

func TestSendable(t *testing.T) {
	for _, s := range []string{`"\ud800"`, `5e-324`, `"a\u0000b"`, `"Bob's \"war room\""`, `{"b":2,"a":[1,"two"]}`, `true`, `0`, `1.5`} {
		assert.True(t, Sendable([]byte(s)), s)
	}
	for _, s := range []string{`12345678901234567890`, `1e400`, `-0`, `2.50`, `"a\/b"`, `"K\u00f6ln"`, `"\ud83d\ude00"`, `{"a":1, "b":2}`, `[0,-0]`} {
		assert.False(t, Sendable([]byte(s)), s)
	}
}

func TestSameValue(t *testing.T) {
	same := [][2]string{
		{`"é"`, `"\u00e9"`}, {`2.50`, `2.5`}, {`12345678901234567890`, `12345678901234567000`},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`}, {`"\ud800"`, `"\uD800"`}, {`1e400`, `1E401`},
	}
	for _, p := range same {
		assert.True(t, SameValue([]byte(p[0]), []byte(p[1])), p)
	}
	differ := [][2]string{
		{`"\ud800"`, `"\ufffd"`}, {`-0`, `0`}, {`1e400`, `null`}, {`9007199254740993`, `9007199254740995`},
		{`{"a":1}`, `{"a":1,"b":2}`}, {`[1]`, `[1,1]`}, {`"1"`, `1`}, {`not json`, `not  json`},
	}
	for _, p := range differ {
		assert.False(t, SameValue([]byte(p[0]), []byte(p[1])), p)
	}
}

func TestCompare(t *testing.T) {
	in := `{"room":"Zürich","n":2.50,"todos":[{"id":"a","s":1},{"id":"b"}],"deep":{"x":{"y":"\ud800"}},"gone":true,"kept":1}`
	out := `{"room":"Z\u00fcrich","n":2.5,"todos":[{"id":"a","s":2},{}],"deep":{"x":{"y":"\ufffd"}},"kept":1,"added":0}`
	ds, err := Compare([]byte(in), []byte(out), nil)
	require.NoError(t, err)
	var got []string
	for _, d := range ds {
		got = append(got, d.Pointer+" "+d.Problem)
	}
	assert.Equal(t, []string{
		"/room member respelled",
		"/n member respelled",
		"/todos/0/s member changed",
		"/todos/1/id member lost",
		"/deep/x/y member changed",
		"/gone member lost",
	}, got)

	ds, err = Compare([]byte(in), []byte(out), []string{"room", "n", "todos", "deep", "gone"})
	require.NoError(t, err)
	assert.Empty(t, ds)

	ds, err = Compare([]byte(`{"a":{"b":1}}`), []byte(`{"a":{"b":1,"c":2}}`), nil)
	require.NoError(t, err)
	require.Len(t, ds, 1)
	assert.Equal(t, Diff{Pointer: "/a", Problem: Changed, In: []byte(`{"b":1}`), Out: []byte(`{"b":1,"c":2}`)}, ds[0])

	_, err = Compare([]byte(`[]`), []byte(`{}`), nil)
	assert.Error(t, err)
	_, err = Compare([]byte(`{}`), []byte(`{"a":1,"a":2}`), nil)
	assert.Error(t, err)
}

func TestConstants(t *testing.T) {
	runs := []Run{
		{In: []byte(`{"room":"a","fp":"x","lobby":"Ops"}`), Out: []byte(`{"room":"a","fp":"H","lobby":"lobby"}`)},
		{In: []byte(`{"room":"b","fp":"x","lobby":"Zürich"}`), Out: []byte(`{"room":"b","fp":"H","lobby":"lobby"}`)},
		{In: []byte(`{"room":"c","fp":"H","lobby":"lobby"}`), Out: []byte(`{"room":"c","fp":"H","lobby":"lobby"}`)},
		// No answer: not counted.
		{In: []byte(`{"room":"d","fp":"y","lobby":"z"}`)},
		// Respelled only: the same value, so the input did not vary.
		{In: []byte(`{"n":2.50}`), Out: []byte(`{"n":2.5}`)},
		{In: []byte(`{"n":2.5}`), Out: []byte(`{"n":2.5}`)},
		// Changed once, the input never varied: a change, not a constant.
		{In: []byte(`{"k":"same"}`), Out: []byte(`{"k":"other"}`)},
		{In: []byte(`{"k":"same"}`), Out: []byte(`{"k":"other"}`)},
	}
	assert.Equal(t, []Constant{
		{Name: "fp", Value: []byte(`"H"`), Inputs: 2},
		{Name: "lobby", Value: []byte(`"lobby"`), Inputs: 3},
	}, Constants(runs))
	assert.Empty(t, Constants(nil))
	c, ok := FindConstant(Constants(runs), "lobby")
	assert.True(t, ok)
	assert.Equal(t, "lobby", c.Name)
	_, ok = FindConstant(Constants(runs), "room")
	assert.False(t, ok, "the room is kept")
	// The same value spelled two ways out is one value.
	assert.Len(t, Constants([]Run{
		{In: []byte(`{"a":"x"}`), Out: []byte(`{"a":"\u00e9"}`)},
		{In: []byte(`{"a":"y"}`), Out: []byte(`{"a":"é"}`)},
	}), 1)
}

func TestOddMembers(t *testing.T) {
	ms := OddMembers([]string{"room", "Seats", "ID", "42", "with space"})
	var names []string
	for _, m := range ms {
		names = append(names, m.Key)
		assert.True(t, jsontext.Value(m.Name).IsValid(), "%s", m.Name)
		assert.True(t, jsontext.Value(m.Value).IsValid(), "%s", m.Value)
	}
	for _, want := range []string{"seat-count", "a.b", "Größe-名前", "UPPER_CASE", "quote\"back\\slash\ttab", "slash/and~tilde", "Room", "SEATS", "id"} {
		assert.Contains(t, names, want)
	}
	assert.NotContains(t, names, "42", "a name the input has is not added twice")
	assert.NotContains(t, names, "with space", "in oddNames and in the input: not added twice")
	assert.Contains(t, names, "With space", "its case twin is")
	assert.Greater(t, len(slices.MaxFunc(names, func(a, b string) int { return len(a) - len(b) })), 200)
	// Every value differs, so that a value moved to another name shows.
	seen := map[string]bool{}
	for _, m := range ms {
		assert.False(t, seen[string(m.Value)], "%s", m.Value)
		seen[string(m.Value)] = true
	}
	obj := rawjson.AppendObject(nil, ms)
	back, err := rawjson.Members(obj)
	require.NoError(t, err, "no name twice")
	assert.Len(t, back, len(ms))
	assert.True(t, OpenSchema("mcp__aisle__listen_here"))
	assert.False(t, OpenSchema("Bash"))
}

func TestExcerpts(t *testing.T) {
	a, b := Excerpts([]byte(`"short"`), []byte(`"other"`), 80)
	assert.Equal(t, `"short"`, a)
	assert.Equal(t, `"other"`, b)

	// A long value changed at its end: both show the end.
	long := `"` + strings.Repeat("long ünïcode line ", 500)
	a, b = Excerpts([]byte(long+`X"`), []byte(long+`Y"`), 80)
	assert.NotEqual(t, a, b, "the excerpts show the difference")
	assert.True(t, strings.HasSuffix(a, `X"`), a)
	assert.True(t, strings.HasSuffix(b, `Y"`), b)
	assert.True(t, strings.HasPrefix(a, "[…"), a)
	assert.Contains(t, a, " bytes in common…]")
	assert.True(t, utf8.ValidString(a) && utf8.ValidString(b), "cut on character boundaries")

	// Changed at the start: both show the start, cut.
	a, b = Excerpts([]byte(`"A`+long[1:]+`"`), []byte(long+`"`), 80)
	assert.True(t, strings.HasPrefix(a, `"A`), a)
	assert.True(t, strings.HasSuffix(a, "..."), a)
	assert.LessOrEqual(t, len(a), 80)
	assert.NotEqual(t, a, b, "the excerpts show the difference")

	// Changed in the middle of a very long value: the excerpt starts
	// before the difference, counts what it left out, and is cut.
	mid := []byte(long + long)
	other := slices.Clone(mid)
	other[len(long)+7] = '#'
	a, b = Excerpts(mid, other, 80)
	assert.NotEqual(t, a, b)
	assert.Contains(t, b, "#")
	assert.True(t, strings.HasSuffix(a, "..."), a)

	// One side lost its end.
	a, b = Excerpts([]byte(long+`"`), []byte(long[:len(long)-4]+`"`), 80)
	assert.NotEqual(t, a, b)
}

func TestInStrictTier(t *testing.T) {
	assert.True(t, InStrictTier(false, "", "", "/room"), "the run as a whole")
	assert.True(t, InStrictTier(true, Changed, "/room", "/room"))
	assert.True(t, InStrictTier(true, Respelled, "/room/0/x", "/room"))
	assert.False(t, InStrictTier(true, Lost, "/room", "/room"), "a lost member does not depend on its value")
	assert.False(t, InStrictTier(true, Changed, "/seats", "/room"))
	assert.False(t, InStrictTier(true, Changed, "/roomy", "/room"))
}
