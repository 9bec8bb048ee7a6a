package hook

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/wire"
)

// The fast codec is checked against the json package: whenever it says it
// could decode or encode, the result must be exactly the json package's.

// checkFastDecode decodes raw into a new value of type typ with the fast
// codec and with the json package, and checks that the fast codec either
// declines or gets exactly the json package's result. It reports whether
// the fast codec did the work.
func checkFastDecode(t testing.TB, raw []byte, typ reflect.Type) bool {
	t.Helper()
	fast := reflect.New(typ)
	ok := wire.FastUnmarshal(raw, fast.Interface())
	slow := reflect.New(typ)
	err := json.Unmarshal(raw, slow.Interface(), jsonopts.Unmarshal())
	if !ok {
		assert.Equal(t, reflect.New(typ).Elem().Interface(), fast.Elem().Interface(), "a declined decode leaves the value as it was")
		return false
	}
	if assert.NoError(t, err, "the fast codec decoded %q into %s, the json package fails", clipBytes(raw), typ) {
		assert.Equal(t, slow.Elem().Interface(), fast.Elem().Interface(), "decoding %q into %s", clipBytes(raw), typ)
	}
	return true
}

// checkFastEncode encodes v with the fast codec and with the json
// package, and checks that the fast codec either declines or writes
// exactly what the json package writes. It reports whether the fast codec
// did the work.
func checkFastEncode(t testing.TB, v any) bool {
	t.Helper()
	got, ok := wire.FastAppend([]byte("x"), v)
	want, err := json.Marshal(v, jsonopts.Marshal())
	if !ok {
		assert.Equal(t, "x", string(got), "a declined encode appends nothing")
		return false
	}
	if assert.NoError(t, err, "the fast codec encoded a %T, the json package fails", v) {
		assert.Equal(t, "x"+string(want), string(got), "encoding a %T", v)
	}
	return true
}

func clipBytes(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// TestFastCodecOnEveryInput decodes every input fixture and captured
// payload into its typed event with both codecs, and checks that the
// events on the hot path (PreToolUse above all) take the fast one.
func TestFastCodecOnEveryInput(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "captured", "*", "*.json"))
	require.NoError(t, err)
	for _, name := range inputFixtures(t) {
		files = append(files, filepath.Join(fixtureDir, name))
	}
	fast := map[string]int{}
	for _, path := range files {
		event, _, _ := strings.Cut(filepath.Base(path), ".")
		if strings.Contains(path, "captured") && !knownEvent(event) {
			continue
		}
		rel, err := filepath.Rel(fixtureDir, path)
		require.NoError(t, err)
		ev := eventFromBytes(t, append(compactFixture(t, readFixture(t, rel)), '\n'))
		typ := reflect.TypeOf(decodeWithAdapter(t, ev)).Elem()
		if checkFastDecode(t, ev.Raw(), typ) {
			fast[ev.HookEventName]++
		}
		checkFastDecode(t, ev.Raw(), reflect.TypeFor[Event]())
		if ti, ok := ev.Field("tool_input"); ok {
			for _, view := range []any{BashInput{}, WriteInput{}, EditInput{}, ReadInput{}} {
				checkFastDecode(t, ti, reflect.TypeOf(view))
			}
		}
	}
	assert.Positive(t, fast[EventPreToolUse], "PreToolUse events take the fast codec")
	assert.Positive(t, fast[EventPostToolUse], "PostToolUse events take the fast codec")
	t.Logf("decoded by the fast codec: %v", fast)
}

// FastEmbed is embedded in fastAll, as Event is in the typed events.
type FastEmbed struct {
	E1 string     `json:"e1,omitempty"`
	E2 *fastInner `json:"e2,omitzero"`
}

type fastInner struct {
	S string `json:"s"`
	N int    `json:"n,omitempty"`
}

// fastAll has a field of every kind the fast codec handles, with every
// tag option it handles.
type fastAll struct {
	FastEmbed
	Str        string         `json:"str"`
	Named      PermissionMode `json:"named,omitempty"`
	B          bool           `json:"b"`
	BZ         bool           `json:"bz,omitzero"`
	I8         int8           `json:"i8"`
	I          int64          `json:"i,omitempty"`
	U16        uint16         `json:"u16,omitzero"`
	Raw        jsontext.Value `json:"raw,omitzero"`
	RawE       jsontext.Value `json:"rawe,omitempty"`
	P          *fastInner     `json:"p"`
	PS         *string        `json:"ps,omitempty"`
	In         fastInner      `json:"in"`
	List       []string       `json:"list,omitempty"`
	Any        any            `json:"any,omitzero"`
	NoTag      string
	Skip       string `json:"-"`
	unexported string
}

// fastFloats holds floats, which the fast codec decodes but leaves to the
// json package to encode.
type fastFloats struct {
	F   float64 `json:"f,omitzero"`
	F32 float32 `json:"f32,omitempty"`
	S   string  `json:"s"`
}

// fastDeclined are types the fast codec must leave to the json package.
type fastDeclined struct {
	C complex128 `json:"c"`
}
type fastDeclinedMap struct {
	M map[string]string `json:"m"`
}
type fastDeclinedTag struct {
	S string `json:"s,string"`
}
type fastDeclinedConflict struct {
	FastEmbed
	E1 string `json:"e1"`
}
type fastDeclinedTrailingComma struct {
	//lint:ignore SA5008 the malformed tag is what this case tests
	S string `json:"s,"`
}
type fastDeclinedUnexportedEmbed struct {
	fastInner
}
type fastDeclinedMethod struct {
	A fastText `json:"a"`
}
type fastText string

func (fastText) MarshalText() ([]byte, error) { return []byte("t"), nil }

// TestAPIPackage checks that the fast codec's idea of the library's own
// package is this package: a move of the module's packages would
// otherwise turn the fast codec off without a failing test.
func TestAPIPackage(t *testing.T) {
	assert.Equal(t, reflect.TypeFor[Event]().PkgPath(), wire.APIPackage())
	assert.NotNil(t, wire.TypeOf(reflect.TypeFor[PreToolUse]()), "the fast codec takes the library's own types")
}

func TestFastCodecDeclines(t *testing.T) {
	for _, v := range []any{fastDeclined{}, fastDeclinedMap{}, fastDeclinedTag{}, fastDeclinedConflict{}, fastDeclinedMethod{}, fastDeclinedTrailingComma{}, fastDeclinedUnexportedEmbed{}, map[string]string{}, []int{}} {
		assert.Nil(t, wire.TypeOf(reflect.TypeOf(v)), "%T", v)
	}
	assert.NotNil(t, wire.TypeOf(reflect.TypeFor[fastAll]()))
	assert.NotNil(t, wire.TypeOf(reflect.TypeFor[PreToolUse]()))
	assert.NotNil(t, wire.TypeOf(reflect.TypeFor[wireAnswer]()))
	assert.NotNil(t, wire.TypeOf(reflect.TypeFor[preToolUseSpecific]()))
	// Inputs the fast codec does not expect are left to the json package.
	for _, raw := range []string{`{"f":1e400}`, `{"f32":1e39}`, `{"f":"1"}`, `{"f":null}`} {
		assert.False(t, checkFastDecode(t, []byte(raw), reflect.TypeFor[fastFloats]()), raw)
	}
	for _, raw := range []string{`{"f":1.5e-3,"f32":-0.0,"s":"x"}`, `{"f":123456789012345678901234567890}`, `{"f32":3.4e38}`, `{"f":5e-324}`} {
		assert.True(t, checkFastDecode(t, []byte(raw), reflect.TypeFor[fastFloats]()), raw)
	}
	_, ok := wire.FastAppend(nil, &fastFloats{F: 1})
	assert.False(t, ok, "floats are encoded by the json package")
	for _, raw := range []string{`{"str":null}`, `{"b":1}`, `{"i8":300}`, `{"i8":1.5}`, `{"p":null}`, `{"list":["a"]}`, `{"any":1}`, `[]`, `{"str":"a"`, `{"str":"a","str":"b"}`} {
		assert.False(t, checkFastDecode(t, []byte(raw), reflect.TypeFor[fastAll]()), raw)
	}
}

// fastTrickyStrings are Go strings that encoders like to get wrong.
var fastTrickyStrings = []string{
	"", "plain", `quote " and backslash \`, "tab\tnewline\ncr\r", "\x00\x01\x1f\x7f", "<script>&amp;</script>",
	"line\u2028para\u2029", "Zürich ☕ 👩‍👩‍👧", "\xff\xfe invalid", "\xed\xa0\x80 surrogate", "a/b", "é",
	strings.Repeat("long \\n \"x\" ", 200),
}

// fastTrickyRaw are raw values, valid and not, compact and not.
var fastTrickyRaw = []string{
	`{}`, `{"a":1}`, `{"a" : 1}`, ` {"a":1} `, `"\u00f6\ud800\/"`, `[1,2.50,1e400,12345678901234567890123]`,
	`{"a":1,"a":2}`, `{"a":`, `null`, `""`, `[]`, `true`, "\"\xff\"", `nope`, ``,
}

// randomFastAll returns a fastAll with random fields from the tricky
// values.
func randomFastAll(r *rand.Rand) *fastAll {
	s := func() string { return fastTrickyStrings[r.IntN(len(fastTrickyStrings))] }
	raw := func() jsontext.Value {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return jsontext.Value(`{"big":"` + strings.Repeat(`\n\"`, 3000) + `"}`)
		}
		return jsontext.Value(fastTrickyRaw[r.IntN(len(fastTrickyRaw))])
	}
	inner := func() *fastInner {
		if r.IntN(3) == 0 {
			return nil
		}
		return &fastInner{S: s(), N: r.IntN(3) - 1}
	}
	v := &fastAll{
		FastEmbed: FastEmbed{E1: s(), E2: inner()},
		Str:       s(), Named: PermissionMode(s()), B: r.IntN(2) == 0, BZ: r.IntN(2) == 0,
		I8: int8(r.IntN(256) - 128), U16: uint16(r.IntN(3) * 30000),
		Raw: raw(), RawE: raw(), P: inner(), NoTag: s(), Skip: s(), unexported: s(),
	}
	switch r.IntN(3) {
	case 0:
		v.I = math.MinInt64
	case 1:
		v.I = math.MaxInt64
	}
	if r.IntN(2) == 0 {
		str := s()
		v.PS = &str
	}
	if in := inner(); in != nil {
		v.In = *in
	}
	switch r.IntN(3) {
	case 0:
		v.List = []string{s(), s()}
	case 1:
		v.List = []string{}
	}
	switch r.IntN(4) {
	case 0:
		v.Any = inner()
	case 1:
		v.Any = &preToolUseSpecific{HookEventName: s(), UpdatedInput: raw()}
	case 2:
		v.Any = map[string]string{"k": s()}
	}
	return v
}

func TestFastCodecMatchesJSONPackage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fastEnc, fastDec := 0, 0
	for range 3000 {
		v := randomFastAll(r)
		if checkFastEncode(t, v) {
			fastEnc++
		}
		var cont *bool
		if v.PS != nil {
			cont = &v.B
		}
		checkFastEncode(t, &wireAnswer{Reason: v.Str, HookSpecificOutput: v.Any, Continue: cont, SystemMessage: v.E1})
		// Decode what the json package writes, and mutations of it.
		b, err := json.Marshal(v, jsonopts.Marshal())
		if err != nil {
			continue
		}
		if checkFastDecode(t, b, reflect.TypeFor[fastAll]()) {
			fastDec++
		}
		for range 3 {
			m := bytes.Clone(b)
			m[r.IntN(len(m))] = "\"{}[],:0-1en\\ tu"[r.IntN(16)]
			checkFastDecode(t, m, reflect.TypeFor[fastAll]())
		}
		// Members merge into what is already there, nested too.
		nested := fmt.Sprintf(`{"in":{"n":%d},"p":{"s":"x"},"e2":{"n":%d}}`, r.IntN(5), r.IntN(5))
		checkFastDecode(t, []byte(nested), reflect.TypeFor[fastAll]())
	}
	assert.Greater(t, fastEnc, 150, "values the fast codec encoded")
	assert.Greater(t, fastDec, 150, "values the fast codec decoded")
	t.Logf("fast encodes: %d, fast decodes: %d", fastEnc, fastDec)
}

// FuzzFastDecode checks on arbitrary input that the fast codec decodes
// exactly as the json package does, or declines.
func FuzzFastDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		if b, err := json.Marshal(randomFastAll(r), jsonopts.Marshal()); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"f":-0.0,"f32":1.5e-3,"s":"\ud800"}`))
	f.Add([]byte(`{"str":"\ud800","i8":-0,"u16":65535,"p":{"s":"x"},"e2":{"n":1},"raw":{"a" : [1, 2]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFastDecode(t, raw, reflect.TypeFor[fastAll]())
		checkFastDecode(t, raw, reflect.TypeFor[PreToolUse]())
		checkFastDecode(t, raw, reflect.TypeFor[fastFloats]())
	})
}

// FuzzFastEncode checks on arbitrary strings and raw values that the fast
// codec encodes exactly as the json package does, or declines.
func FuzzFastEncode(f *testing.F) {
	for i, s := range fastTrickyStrings {
		f.Add(s, fastTrickyRaw[i%len(fastTrickyRaw)], int64(i))
	}
	f.Fuzz(func(t *testing.T, s, raw string, n int64) {
		checkFastEncode(t, &fastAll{Str: s, Named: PermissionMode(s), I: n, Raw: jsontext.Value(raw), RawE: jsontext.Value(raw), List: []string{s}, PS: &s, Any: &fastInner{S: s}})
		checkFastEncode(t, &preToolUseSpecific{HookEventName: s, UpdatedInput: jsontext.Value(raw)})
		// Map patches take the fast codec too: sorted members, same bytes.
		patch := map[string]string{s: s, "k": s}
		want, err := json.Marshal(patch, jsonopts.Marshal(), jsonopts.Deterministic())
		require.NoError(t, err)
		got, err := wire.MarshalPatch(patch)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	})
}
