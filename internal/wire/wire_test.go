package wire

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/jsonopts"
)

// spliceCase is an answer-like value holding raw values of any size.
type spliceCase struct {
	Before  string           `json:"before,omitempty"`
	Raw     jsontext.Value   `json:"raw,omitzero"`
	Ptr     *jsontext.Value  `json:"ptr,omitempty"`
	Any     any              `json:"any,omitempty"`
	List    []jsontext.Value `json:"list,omitempty"`
	Reason  string           `json:"reason,omitempty"`
	Trailer int              `json:"trailer"`
}

// tricky are values that encoders like to rewrite (the hooktest corpus
// cannot be imported here).
var tricky = []string{
	`"Ops \"war room\" \\ Zürich\tnight"`, `"\ud800"`, `"x\udfffy"`, `"a\u0000b"`,
	`"\b\f\n\r\t\u001f"`, "\"line\u2028para\u2029end\"", `"a\/b"`, `"<script>&amp;</script>"`,
	`"\u003cb\u003e \u0026"`, `"K\u00f6ln"`, "\"\xff\xfe\"", `""`, `12345678901234567890123`,
	`2.50`, `1e400`, `-0`, `[]`, `{}`, `[{"a":[{"b":null}]}]`, `true`,
}

// checkSplice checks that AppendMarshal writes exactly what a plain
// json.Marshal with the library's options writes, or fails the same way.
func checkSplice(t *testing.T, v any) {
	t.Helper()
	want, werr := json.Marshal(v, jsonopts.Marshal())
	got, gerr := AppendMarshal([]byte("prefix:"), v)
	if werr != nil {
		assert.Error(t, gerr, "plain encoding fails with %v", werr)
		return
	}
	require.NoError(t, gerr)
	assert.Equal(t, "prefix:"+string(want), string(got))
}

// big pads a JSON object with a long escape-heavy member so that it is
// spliced.
func big(obj string) jsontext.Value {
	pad := `"pad":"` + strings.Repeat(`a\"b\\c\n\u00f6\ud800 `, spliceMin/16) + `"`
	if obj == "{}" {
		return jsontext.Value("{" + pad + "}")
	}
	return jsontext.Value(obj[:len(obj)-1] + "," + pad + "}")
}

func TestAppendMarshalSplicesExactly(t *testing.T) {
	var raws []jsontext.Value
	for _, v := range tricky {
		raws = append(raws, big(`{"v":`+v+`}`), jsontext.Value(v))
	}
	for _, p := range benchpayload.All() {
		raws = append(raws, jsontext.Value(p.Data), benchpayload.Spaced(p.Data), benchpayload.Indented(p.Data))
	}
	// Whitespace between tokens, small (the fast codec) and large (the
	// splicer): both compact it as the encoder does, and leave invalid
	// UTF-8 to the encoder.
	for _, v := range tricky {
		raws = append(raws,
			jsontext.Value(benchpayload.Indented([]byte(`{"v":`+v+`,"w":[`+v+`,{}]}`))),
			benchpayload.Spaced(big(`{"v":`+v+`,"w":[`+v+`,[]]}`)),
			benchpayload.Indented(big(`{"v":{"w":[`+v+`]}}`)))
	}
	raws = append(raws,
		jsontext.Value("{ \"a\" : \"\xff\" }"),
		jsontext.Value("\r\n[ 1 ,\t2 ]\n"),
		benchpayload.Spaced(big(`{"bad":"\xff\xfe"}`)))
	raws = append(raws,
		big(`{"a":1}`),
		big(`{"a" : 1}`), // whitespace: the encoder compacts
		jsontext.Value(" \n"+string(big(`{"a":1}`))+"\t "), // whitespace around only
		big(`{"a":1,"a":2}`),                                      // duplicate name: an error
		big(`{"a":{"b":1,"b":2}}`),                                // nested duplicate
		big(`{"a":01}`),                                           // invalid number
		big(`{"a":"\x"}`),                                         // invalid escape
		jsontext.Value(string(big(`{"a":1}`))+"{}"),               // two values
		big(`{"s":"\u0000hook:splice\u0000"}`),                    // holds the placeholder itself
		jsontext.Value(`"`+strings.Repeat(`\n`, spliceMin)+`"`),   // a large string
		jsontext.Value(`[`+strings.Repeat(`1,`, spliceMin)+`2]`),  // a large array
		jsontext.Value(`[`+strings.Repeat(`1 ,`, spliceMin)+`2]`), // a spaced array
	)
	for _, raw := range raws {
		r := raw
		checkSplice(t, &spliceCase{Raw: raw, Trailer: 1})
		checkSplice(t, &spliceCase{Before: "x", Ptr: &r, Reason: "why"})
		checkSplice(t, spliceCase{Any: map[string]any{"in": raw}})
		checkSplice(t, &spliceCase{Raw: raw, List: []jsontext.Value{raw, big(`{"second":1}`)}})
		checkSplice(t, &spliceCase{Raw: raw, Reason: "\x00hook:splice\x00"}) // a string like the placeholder
		checkSplice(t, raw)
	}
}

func TestAppendMarshalSplices(t *testing.T) {
	// The splice really happens: the raw value's bytes come out as they
	// are even where the encoder would keep them too, and nothing else.
	raw := big(`{"room":"Ops \"war room\"","n":2.50}`)
	var s splicer
	_, err := json.Marshal(&spliceCase{Raw: raw}, jsonopts.MarshalWith(json.MarshalToFunc(s.marshal)))
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(s.raw))
	small := jsontext.Value(`{"a":1}`)
	s = splicer{}
	_, err = json.Marshal(&spliceCase{Raw: small}, jsonopts.MarshalWith(json.MarshalToFunc(s.marshal)))
	require.NoError(t, err)
	assert.Nil(t, s.raw, "a small value is left to the encoder")
}

// FuzzAppendMarshal checks that AppendMarshal writes what the plain
// encoder writes, or fails as it does, for arbitrary large raw values.
func FuzzAppendMarshal(f *testing.F) {
	for _, v := range tricky {
		f.Add(v)
	}
	f.Add(`{"a" :1}`)
	f.Add("[ 1 ,\r\n\t{ \"b\" : [ ] } ]")
	f.Add(`{"a":1,"a":2}`)
	f.Fuzz(func(t *testing.T, member string) {
		checkSplice(t, &spliceCase{Raw: big(`{"m":` + member + `}`), Trailer: 1})
		checkSplice(t, &spliceCase{Raw: jsontext.Value(member), Trailer: 1}) // the fast codec
	})
}

// TestMarshalPatchMatchesJSONPackage checks that patches encode exactly as
// the json package encodes them with deterministic map order.
func TestMarshalPatchMatchesJSONPackage(t *testing.T) {
	keys := []string{"a", "B", "b", "fingerprint", "é", "z", "Z", "_", "a\tb", "\u2028", "😀", "ÿ", "10", "9", ""}
	var patches []any
	for i := range keys {
		ms := map[string]string{}
		ma := map[string]any{}
		mr := map[string]jsontext.Value{}
		for j, k := range keys[:i+1] {
			v := tricky[(i+j)%len(tricky)]
			ms[k] = v
			ma[k] = v
			mr[k] = jsontext.Value(v)
		}
		patches = append(patches, ms, ma, mr)
	}
	patches = append(patches,
		map[string]string(nil), map[string]string{"bad": "\xff"}, map[string]string{"\xff": "x"},
		map[string]any{"nested": map[string]int{"b": 1, "a": 2}, "n": 1.5, "nil": nil},
		map[string]jsontext.Value{"spaced": jsontext.Value(`{"a" : 1}`), "bad": jsontext.Value(`{`)},
		struct {
			A string            `json:"a"`
			M map[string]string `json:"m"`
		}{"x", map[string]string{"z": "1", "y": "2"}},
	)
	fast := 0
	for _, p := range patches {
		want, werr := json.Marshal(p, jsonopts.Marshal(), jsonopts.Deterministic())
		got, gerr := MarshalPatch(p)
		if werr != nil {
			assert.Error(t, gerr, "%#v", p)
			continue
		}
		if assert.NoError(t, gerr, "%#v", p) {
			assert.Equal(t, string(want), string(got), "%#v", p)
		}
		if _, ok := FastAppendPatch(p); ok {
			fast++
		}
	}
	assert.Greater(t, fast, 30, "patches the fast codec encoded")
}
