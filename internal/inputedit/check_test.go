package inputedit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckRewriteOf: a rewrite is refused when it is not one object, is
// empty, is not UTF-8, or lacks a member of the original that removed
// does not name (each lost member named as a JSON pointer); the rest
// passes, and so does any object against no original.
func TestCheckRewriteOf(t *testing.T) {
	orig := []byte(`{"a":1,"b/c":2,"d~":3}`)
	for _, c := range []struct {
		upd     string
		removed []string
		err     string
	}{
		{`{"a":1,"b/c":2,"d~":3}`, nil, ""},
		{`{"d~":0,"b/c":1,"a":2,"new":true}`, nil, ""},
		{`{"a":1}`, []string{"b/c", "d~"}, ""},
		{`{"a":1}`, []string{"b/c"}, "lacks /d~0 of the incoming tool_input"},
		{`{"a":1}`, nil, "lacks /b~1c, /d~0 of"},
		{`{}`, []string{"a", "b/c", "d~"}, "updatedInput is empty"},
		{`[1]`, nil, "updatedInput must be one JSON object"},
		{"{\"a\":\"\xff\",\"b/c\":2,\"d~\":3}", nil, "not valid UTF-8 (byte 0xff at offset 6)"},
	} {
		err := checkRewriteOf(orig, []byte(c.upd), c.removed)
		if c.err == "" {
			assert.NoError(t, err, c.upd)
		} else {
			assert.ErrorContains(t, err, c.err, c.upd)
		}
	}
	assert.NoError(t, checkRewriteOf(nil, []byte(`{"x":1}`), nil))
	assert.Error(t, checkRewriteOf(nil, []byte(`{}`), nil))
}

// TestNameSet: the set answers the same below and above the size from
// which it builds a map.
func TestNameSet(t *testing.T) {
	for _, n := range []int{0, 1, smallIndex, smallIndex + 1, 40} {
		var names []string
		for i := range n {
			names = append(names, string(rune('a'+i%26))+string(rune('0'+i/26)))
		}
		in := NameSet(names)
		for _, name := range names {
			assert.True(t, in(name), name)
		}
		assert.False(t, in("zz"), n)
		assert.False(t, in(""), n)
	}
}
