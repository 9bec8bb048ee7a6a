package verdict

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSlots(t *testing.T) {
	got := Slots([]byte(`{"stdout":"a","n":1,"file":{"path":"p","tags":[]},"blocks":[{"type":"text","text":"x"}],"lines":["1","2","3","4","5","6"]}`))
	var ptrs []string
	for _, s := range got {
		ptrs = append(ptrs, s.Pointer)
	}
	assert.Equal(t, []string{"/stdout", "/n", "/file/path", "/blocks/0/type", "/blocks/0/text",
		"/lines/0", "/lines/1", "/lines/2", "/lines/5"}, ptrs)
	assert.Equal(t, []Slot{{Pointer: "", Value: []byte(`"out"`)}}, Slots([]byte(`"out"`)), "a string result is one slot")
	assert.Empty(t, Slots([]byte(`[]`)))
}

func TestSetAt(t *testing.T) {
	in := []byte(`{"a":{"b/c":[1, {"d":2.50}]},"e":"K\u00f6ln"}`)
	out, ok := SetAt(in, "/a/b~1c/1/d", []byte(`"x"`))
	require.True(t, ok)
	assert.Equal(t, `{"a":{"b/c":[1,{"d":"x"}]},"e":"K\u00f6ln"}`, string(out), "the other bytes are kept")
	out, ok = SetAt(in, "", []byte(`"whole"`))
	require.True(t, ok)
	assert.Equal(t, `"whole"`, string(out))
	for _, p := range []string{"/nope", "/a/b~1c/2", "/a/b~1c/01", "/e/x", "a"} {
		_, ok := SetAt(in, p, []byte(`1`))
		assert.False(t, ok, p)
	}
}

func TestWithOddMembers(t *testing.T) {
	out, ok := WithOddMembers([]byte(`[{"type":"text","text":"x"}]`))
	require.True(t, ok)
	es := elements(out)
	require.Len(t, es, 1)
	ds := CompareOutput(out, []byte(`[{"type":"text","text":"x"}]`), nil, nil)
	var lost []string
	for _, d := range ds {
		if d.Problem == Lost {
			lost = append(lost, d.Pointer)
		}
	}
	assert.Contains(t, lost, "/0/seat-count", "the names go into each content block")
	assert.Contains(t, lost, "/0/Type", "with the case twins of its names")
	_, ok = WithOddMembers([]byte(`"text"`))
	assert.False(t, ok)
}

func TestCompareOutput(t *testing.T) {
	type diff struct{ ptr, problem string }
	for _, c := range []struct {
		name, in, out    string
		changed, removed []string
		want             []diff
	}{
		{name: "same", in: `{"stdout":"a","stderr":""}`, out: `{ "stdout": "a", "stderr": "" }`},
		{name: "member lost", in: `{"stdout":"a","stderr":""}`, out: `{"stdout":"a"}`, want: []diff{{"/stderr", Lost}}},
		{name: "nested member changed", in: `{"file":{"content":"x","n":1}}`, out: `{"file":{"content":"y","n":1}}`, want: []diff{{"/file/content", Changed}}},
		{name: "content block dropped", in: `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, out: `[{"type":"text","text":"a"}]`, want: []diff{{"/1", Lost}}},
		{name: "first block dropped", in: `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, out: `[{"type":"text","text":"b"}]`, want: []diff{{"/0", Lost}}},
		{name: "block redacted and the next dropped", in: `[{"type":"text","text":"sk-1"},{"type":"text","text":"b"}]`, out: `[{"type":"text","text":"[redacted]"}]`, want: []diff{{"/0/text", Changed}, {"/1", Lost}}},
		{name: "middle block dropped, last changed", in: `["a","b","c","d"]`, out: `["a","c","D"]`, want: []diff{{"/1", Lost}, {"/3", Changed}}},
		{name: "block added", in: `[{"type":"text","text":"a"}]`, out: `[{"type":"text","text":"a"},{"type":"text","text":"note"}]`},
		{name: "block text mangled", in: `[{"type":"text","text":"a\u2028b"}]`, out: `[{"type":"text","text":"a b"}]`, want: []diff{{"/0/text", Changed}}},
		{name: "string result respelled", in: `"K\u00f6ln"`, out: `"Köln"`, want: []diff{{"", Respelled}}},
		{name: "string result changed", in: `"out"`, out: `"redacted"`, want: []diff{{"", Changed}}},
		{name: "string to object", in: `"out"`, out: `{"stdout":"out"}`, want: []diff{{"", Changed}}},
		{name: "declared change", in: `{"stdout":"a","stderr":"b"}`, out: `{"stdout":"x","stderr":"b"}`, changed: []string{"/stdout"}},
		{name: "declared change still lost", in: `{"stdout":"a","stderr":"b"}`, out: `{"stderr":"b"}`, changed: []string{"/stdout"}, want: []diff{{"/stdout", Lost}}},
		{name: "declared change of a block", in: `[{"type":"text","text":"a"}]`, out: `[{"type":"text","text":"b"}]`, changed: []string{"/0/text"}},
		{name: "declared removal", in: `{"stdout":"a","stderr":"b"}`, out: `{"stdout":"a"}`, removed: []string{"/stderr"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []diff
			for _, d := range CompareOutput([]byte(c.in), []byte(c.out), c.changed, c.removed) {
				got = append(got, diff{d.Pointer, d.Problem})
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestOutputPointer(t *testing.T) {
	assert.Equal(t, "/stdout", OutputPointer("stdout"))
	assert.Equal(t, "/a~1b", OutputPointer("a/b"))
	assert.Equal(t, "/0/text", OutputPointer("/0/text"))
	assert.Equal(t, "", OutputPointer(""))
}
