package hook_test

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

func TestMerge(t *testing.T) {
	tests := []struct {
		name  string
		orig  string
		patch any
		want  string
	}{
		{
			name:  "replace in place, keep the rest byte for byte",
			orig:  `{"room":"Zürich \"HQ\"\t\\","n":12345678901234567890,"f":2.50,"e":"\u00f6","fingerprint":"old","z":1e400}`,
			patch: map[string]string{"fingerprint": "new"},
			want:  `{"room":"Zürich \"HQ\"\t\\","n":12345678901234567890,"f":2.50,"e":"\u00f6","fingerprint":"new","z":1e400}`,
		},
		{
			name:  "append in patch order (struct)",
			orig:  `{"a":1}`,
			patch: struct{ Z, Y int }{Z: 26, Y: 25},
			want:  `{"a":1,"Z":26,"Y":25}`,
		},
		{
			name:  "append in patch order (raw)",
			orig:  `{"a":1}`,
			patch: jsontext.Value(`{"z":"\u00e9","y":2.50,"a":[1]}`),
			want:  `{"a":[1],"z":"\u00e9","y":2.50}`,
		},
		{
			name:  "map patch in sorted order",
			orig:  `{}`,
			patch: map[string]int{"b": 2, "a": 1, "c": 3},
			want:  `{"a":1,"b":2,"c":3}`,
		},
		{
			name:  "whitespace between members is dropped, bytes inside kept",
			orig:  "{\n  \"a\" : [1, 2],\n  \"b\": { \"c\" : 2.50 }\n}",
			patch: map[string]bool{"d": true},
			want:  `{"a":[1, 2],"b":{ "c" : 2.50 },"d":true}`,
		},
		{
			name:  "escaped name replaced in place keeps its spelling",
			orig:  `{"ro\u006fm":"a","x":1}`,
			patch: map[string]string{"room": "b"},
			want:  `{"ro\u006fm":"b","x":1}`,
		},
		{
			name:  "null sets null, never deletes",
			orig:  `{"a":1,"b":2}`,
			patch: jsontext.Value(`{"a":null}`),
			want:  `{"a":null,"b":2}`,
		},
		{
			name:  "nested objects are replaced whole",
			orig:  `{"o":{"keep":1,"x":2}}`,
			patch: jsontext.Value(`{"o":{"x":3}}`),
			want:  `{"o":{"x":3}}`,
		},
		{
			name:  "lone surrogate survives",
			orig:  `{"s":"\ud800","t":"x"}`,
			patch: map[string]string{"t": "y"},
			want:  `{"s":"\ud800","t":"y"}`,
		},
		{
			name:  "raw value inside a Go patch is written exactly",
			orig:  `{"a":1}`,
			patch: map[string]jsontext.Value{"b": jsontext.Value(`"\u00f6 12345678901234567890"`)},
			want:  `{"a":1,"b":"\u00f6 12345678901234567890"}`,
		},
		{
			name:  "empty patch copies",
			orig:  `{"a":"\u00f6"}`,
			patch: map[string]int{},
			want:  `{"a":"\u00f6"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := hook.Merge(jsontext.Value(tt.orig), tt.patch)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

func TestMergeErrors(t *testing.T) {
	tests := []struct {
		name  string
		orig  string
		patch any
		msg   string
	}{
		{"orig is an array", `[1]`, map[string]int{"a": 1}, "not a JSON object"},
		{"orig is a string", `"x"`, map[string]int{"a": 1}, "not a JSON object"},
		{"orig is not JSON", `{"a":`, map[string]int{"a": 1}, "the original"},
		{"orig holds a name twice", `{"a":1,"a":2}`, map[string]int{"b": 1}, "duplicate"},
		{"orig holds a nested name twice", `{"a":{"x":1,"x":2}}`, map[string]int{"b": 1}, "duplicate"},
		{"patch is nil", `{"a":1}`, nil, "nil"},
		{"patch is an array", `{"a":1}`, jsontext.Value(`[1]`), "not a JSON object"},
		{"patch holds a name twice", `{"a":1}`, jsontext.Value(`{"b":1,"b":2}`), "duplicate"},
		{"patch cannot be encoded", `{"a":1}`, map[string]any{"f": func() {}}, "encoding the patch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := hook.Merge(jsontext.Value(tt.orig), tt.patch)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
			assert.True(t, strings.HasPrefix(err.Error(), "hook: Merge"), err.Error())
		})
	}
}

func TestRemove(t *testing.T) {
	got, err := hook.Remove(jsontext.Value(`{"file_path":"/a","offset":3,"limit":1,"x":"\u00f6"}`), "offset", "limit", "absent")
	require.NoError(t, err)
	assert.Equal(t, `{"file_path":"/a","x":"\u00f6"}`, string(got))

	_, err = hook.Remove(jsontext.Value(`[1]`), "a")
	assert.ErrorContains(t, err, "not a JSON object")
}

// FuzzMerge checks Merge's promise for any object and patch: every member
// of orig that the patch does not name is byte-identical and in order,
// every patch member has the patch's bytes, and the result is valid JSON.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"room":"Zürich","n":12345678901234567890}`), []byte(`{"fingerprint":"abc"}`))
	f.Add([]byte(`{"a":"\ud800","b":2.50,"c":1e400}`), []byte(`{"b":null,"d":[]}`))
	f.Add([]byte(`{}`), []byte(`{}`))
	f.Add([]byte(`{"a":{"b":{"c":[1,2,{"d":"\t"}]}}}`), []byte(`{"a":1}`))
	f.Fuzz(func(t *testing.T, orig, patch []byte) {
		opts := jsonopts.Lenient()
		if !jsontext.Value(orig).IsValid(opts) || !jsontext.Value(patch).IsValid(opts) ||
			jsontext.Value(orig).Kind() != '{' || jsontext.Value(patch).Kind() != '{' {
			_, err := hook.Merge(orig, jsontext.Value(patch))
			if err == nil && !(jsontext.Value(orig).IsValid(opts) && jsontext.Value(orig).Kind() == '{') {
				t.Fatalf("Merge accepted an invalid original %q", orig)
			}
			return
		}
		got, err := hook.Merge(orig, jsontext.Value(patch))
		require.NoError(t, err)
		require.True(t, got.IsValid(opts), "result is valid JSON: %q", got)
		pms, err := rawjson.Members(patch)
		require.NoError(t, err)
		gms, err := rawjson.Members(got)
		require.NoError(t, err)
		var names []string
		for _, p := range pms {
			names = append(names, p.Key)
			g, ok := rawjson.Find(gms, p.Key)
			require.True(t, ok, "patch member %q is in the result", p.Key)
			require.Equal(t, string(p.Value), string(g.Value), "patch member %q has the patch's bytes", p.Key)
		}
		require.NoError(t, hooktest.CheckPreserved(orig, got, names...))
		require.NoError(t, hooktest.CheckPreserved(patch, got, memberNames(t, orig)...), "appended patch members keep patch order")
	})
}

func memberNames(t *testing.T, obj []byte) []string {
	var names []string
	dec := jsontext.NewDecoder(strings.NewReader(string(obj)), jsonopts.Lenient())
	_, _ = dec.ReadToken()
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		require.NoError(t, err)
		names = append(names, tok.String())
		require.NoError(t, dec.SkipValue())
	}
	return names
}
