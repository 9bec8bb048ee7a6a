package hook_test

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
)

// TestEditAnyValue: Edit and Update take a JSON value of any kind with
// the view of its kind, and keep every byte the edit did not change.
func TestEditAnyValue(t *testing.T) {
	blocks := func(f func(bs *[]hook.ContentBlock)) func(string) (string, error) {
		return func(orig string) (string, error) {
			out, err := hook.Edit(jsontext.Value(orig), func(bs *[]hook.ContentBlock) error { f(bs); return nil })
			return string(out), err
		}
	}
	str := func(f func(s *string)) func(string) (string, error) {
		return func(orig string) (string, error) {
			out, err := hook.Edit(jsontext.Value(orig), func(s *string) error { f(s); return nil })
			return string(out), err
		}
	}
	two := `[{"type":"text","text":"caf\u00e9","_meta":{"n":12345678901234567890}},{"type":"image","data":"iVBO","mimeType":"image/png"},{"type":"text","text":"sk-live-1","annotations":{"priority":2.50}}]`
	for _, c := range []struct {
		name, orig string
		edit       func(string) (string, error)
		want       string
	}{
		{"array: one block's text, the others and unknown members kept", two,
			blocks(func(bs *[]hook.ContentBlock) { (*bs)[2].Text = "[redacted]" }),
			`[{"type":"text","text":"caf\u00e9","_meta":{"n":12345678901234567890}},{"type":"image","data":"iVBO","mimeType":"image/png"},{"type":"text","text":"[redacted]","annotations":{"priority":2.50}}]`},
		{"array: the first block, escapes elsewhere kept", two,
			blocks(func(bs *[]hook.ContentBlock) { (*bs)[0].Text += "!" }),
			`[{"type":"text","text":"café!","_meta":{"n":12345678901234567890}},{"type":"image","data":"iVBO","mimeType":"image/png"},{"type":"text","text":"sk-live-1","annotations":{"priority":2.50}}]`},
		{"array: no change is the original", two, blocks(func(bs *[]hook.ContentBlock) {}), two},
		{"array: set back to the same is the original", two,
			blocks(func(bs *[]hook.ContentBlock) { (*bs)[0].Text = "x"; (*bs)[0].Text = "café" }), two},
		{"array: a block appended", `[{"type":"text","text":"a","id":1}]`,
			blocks(func(bs *[]hook.ContentBlock) { *bs = append(*bs, hook.ContentBlock{Type: "text", Text: "note"}) }),
			`[{"type":"text","text":"a","id":1},{"type":"text","text":"note"}]`},
		{"array: a block inserted first keeps the others' bytes", `[{"type":"text","text":"a","id":1},{"type":"text","text":"b","id":2}]`,
			blocks(func(bs *[]hook.ContentBlock) {
				*bs = append([]hook.ContentBlock{{Type: "text", Text: "warning"}}, *bs...)
			}),
			// The originals are the equal tail: they keep their bytes,
			// and the new block is written as it is.
			`[{"type":"text","text":"warning"},{"type":"text","text":"a","id":1},{"type":"text","text":"b","id":2}]`},
		{"array: a block deleted", `[{"type":"text","text":"a","id":1},{"type":"text","text":"secret","id":2},{"type":"text","text":"c","id":3}]`,
			blocks(func(bs *[]hook.ContentBlock) { *bs = append((*bs)[:1], (*bs)[2:]...) }),
			`[{"type":"text","text":"a","id":1},{"type":"text","text":"c","id":3}]`},
		{"array: empty stays empty", `[]`, blocks(func(bs *[]hook.ContentBlock) {}), `[]`},
		{"array: empty, one appended", `[ ]`,
			blocks(func(bs *[]hook.ContentBlock) { *bs = append(*bs, hook.ContentBlock{Type: "text", Text: "x"}) }),
			`[{"type":"text","text":"x"}]`},
		{"array: whitespace around is dropped, inside an untouched element kept", " [ {\"type\": \"text\", \"text\": \"a\"} , {\"type\":\"text\",\"text\":\"b\"} ]\n",
			blocks(func(bs *[]hook.ContentBlock) { (*bs)[1].Text = "B" }),
			`[{"type": "text", "text": "a"},{"type":"text","text":"B"}]`},
		{"array: no change keeps the inner whitespace", "[ {\"type\": \"text\"} ]", blocks(func(bs *[]hook.ContentBlock) {}), "[ {\"type\": \"text\"} ]"},
		{"null: no change", `null`, blocks(func(bs *[]hook.ContentBlock) {}), `null`},
		{"null: set", `null`, blocks(func(bs *[]hook.ContentBlock) { *bs = []hook.ContentBlock{{Type: "text", Text: "x"}} }), `[{"type":"text","text":"x"}]`},
		{"string: changed", `"K\u00f6ln sk-live-9"`, str(func(s *string) { *s = strings.ReplaceAll(*s, "sk-live-9", "[redacted]") }), `"Köln [redacted]"`},
		{"string: unchanged keeps its escapes", `"K\u00f6ln \ud800 \/"`, str(func(s *string) {}), `"K\u00f6ln \ud800 \/"`},
		{"string: set to the same", `"a\u0062"`, str(func(s *string) { *s = "ab" }), `"a\u0062"`},
		{"string: emptied", `"out"`, str(func(s *string) { *s = "" }), `""`},
		{"number view: big integers kept", `12345678901234567890`, func(orig string) (string, error) {
			out, err := hook.Edit(jsontext.Value(orig), func(v *jsontext.Value) error { return nil })
			return string(out), err
		}, `12345678901234567890`},
		{"map view of an object keeps unknown spellings", `{"a":"x\u0079","b":2.50}`, func(orig string) (string, error) {
			out, err := hook.Edit(jsontext.Value(orig), func(m *map[string]any) error { (*m)["c"] = true; return nil })
			return string(out), err
		}, `{"a":"x\u0079","b":2.50,"c":true}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.edit(c.orig)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
			assert.True(t, jsontext.Value(got).IsValid(jsontext.AllowInvalidUTF8(true)), "invalid: %s", got)
		})
	}
}

func TestUpdateAnyValue(t *testing.T) {
	orig := jsontext.Value(`[{"type":"text","text":"a","id":1},{"type":"text","text":"b"}]`)
	view, err := hook.DecodeView[[]hook.ContentBlock](orig)
	require.NoError(t, err)
	(*view)[1].Text = "c"
	got, err := hook.Update(orig, *view) // a slice, not a pointer
	require.NoError(t, err)
	assert.Equal(t, `[{"type":"text","text":"a","id":1},{"type":"text","text":"c"}]`, string(got))

	s := "new"
	got, err = hook.Update(jsontext.Value(`"old"`), &s)
	require.NoError(t, err)
	assert.Equal(t, `"new"`, string(got))
}

func TestEditAnyValueErrors(t *testing.T) {
	for _, c := range []struct{ name, orig, want string }{
		{"empty", ``, "empty"},
		{"space", "  \n", "empty"},
		{"invalid", `[{"type":"text",}]`, "not one valid JSON value"},
		{"two values", `"a" "b"`, "not one valid JSON value"},
		{"a name twice", `[{"type":"text","type":"image"}]`, "twice"},
		{"an object for a slice view", `{"type":"text"}`, "decoding"},
		{"a string for a slice view", `"text"`, "decoding"},
		{"a number for a slice view", `7`, "decoding"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := hook.Edit(jsontext.Value(c.orig), func(bs *[]hook.ContentBlock) error {
				t.Fatal("the edit ran on a value that cannot be edited")
				return nil
			})
			assert.ErrorContains(t, err, c.want)
		})
	}
	// A string for a struct view, as under Codex for a Bash output.
	_, err := hook.Edit(jsontext.Value(`"ok\n"`), func(r *hook.BashResponse) error { return nil })
	assert.ErrorContains(t, err, "decoding")
	// A raw top-level value set to nil would drop the whole value.
	_, err = hook.Edit(jsontext.Value(`[1]`), func(v *jsontext.Value) error { *v = nil; return nil })
	assert.ErrorContains(t, err, "hook.Remove")
}
