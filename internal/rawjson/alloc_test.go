package rawjson_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
)

// hookEvent is a 313-byte hook event with 8 members, the kind of input a
// hook splits once per run.
const hookEvent = `{"session_id":"5d3f2c1a-8b7e-4f60-9a1b-2c3d4e5f6071","transcript_path":"/home/u/.claude/projects/p/5d3f.jsonl","cwd":"/home/u/proj","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"mcp__probe__listen_here","tool_input":{"room":"Kitchen \"A\"","n":[1,2,{"x":null}]},"tool_use_id":"toolu_01"}`

// smallAnswer is a small nested object like a hook's answer.
const smallAnswer = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"room":"Kitchen","n":[1,2,{"x":null}]}},"suppressOutput":true}`

// A hook is a short-lived process, for which every allocation in a new
// size class costs fresh pages: splitting a small event must allocate
// only the members slice and one string for all the keys, and checking a
// small answer nothing.
func TestAllocs(t *testing.T) {
	ev, ans, empty := []byte(hookEvent), []byte(smallAnswer), []byte(`{}`)
	ms, err := rawjson.Members(ev)
	require.NoError(t, err)
	require.Len(t, ms, 8)
	checkSame(t, ev)
	for _, c := range []struct {
		name string
		max  float64
		f    func()
	}{
		{"Members", 2, func() { rawjson.Members(ev) }},
		{"MembersTrusted", 2, func() { rawjson.MembersTrusted(ev) }},
		{"Members({})", 0, func() { rawjson.Members(empty) }},
		{"Valid", 0, func() { rawjson.Valid(ans) }},
		{"Valid(event)", 0, func() { rawjson.Valid(ev) }},
		{"HasKey", 0, func() { rawjson.HasKey(ev, []string{"tool_use_id", "none"}) }},
	} {
		n := testing.AllocsPerRun(100, c.f)
		t.Logf("%s: %v allocations", c.name, n)
		assert.LessOrEqual(t, n, c.max, "%s: allocations", c.name)
	}
	valid, compact := rawjson.Valid(ans)
	assert.True(t, valid && compact)
}

// TestMembersBeyondInline checks, against jsontext, inputs around and
// beyond the sizes of the scanners' inline arrays: many top-level members,
// many and long names, deep nesting, large objects (whose names go in a
// set) inside one another, and names with escapes, each valid and with a
// duplicate name.
func TestMembersBeyondInline(t *testing.T) {
	type input struct {
		raw   string
		valid bool
	}
	var inputs []input
	add := func(raw string, valid bool) { inputs = append(inputs, input{raw, valid}) }
	for _, n := range []int{1, 7, 8, 11, 12, 13, 16, 17, 23, 24, 25, 31, 32, 33, 64, 65, 200} {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"key_%d_%s":{"in":%d,"key_%d_%s":[%d]},`, i, strings.Repeat("x", i%40), i, i, strings.Repeat("y", i%7), i)
		}
		obj := b.String()
		add(obj+`"last":0}`, true)
		add(obj+`"key_0_":0}`, false)                                                          // the first name again
		add(obj+fmt.Sprintf(`"\u006bey_%d_%s":0}`, n-1, strings.Repeat("x", (n-1)%40)), false) // the last one, escaped
		add(obj+`"in":0}`, true)                                                               // only a nested object's name
	}
	for _, d := range []int{11, 12, 13, 15, 16, 17, 23, 24, 25, 31, 32, 33, 100} {
		add(`{"a\u0062":1,"deep":`+strings.Repeat(`{"k":[`, d)+`1`+strings.Repeat(`]}`, d)+`,"\ud800":2,"z":3}`, true)
		add(`{"deep":`+strings.Repeat(`[{"\u00e9":`, d)+`1`+strings.Repeat(`}]`, d)+`,"after":"\"x\""}`, true)
		add(`{"deep":`+strings.Repeat(`{"a":1,"b":`, d)+`{"a":1,"a":2}`+strings.Repeat(`}`, d)+`}`, false)
		add(`{"deep":`+strings.Repeat(`{"a":1,"b":`, d)+`2`+strings.Repeat(`}`, d)+`,"de\u0065p":3}`, false)
	}
	// Large objects inside large objects: each keeps its own set of names.
	large := func(prefix, inner string) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range 40 {
			fmt.Fprintf(&b, `"%s%d":%d,`, prefix, i, i)
			if i == 35 {
				fmt.Fprintf(&b, `"inner":%s,"list":[%s,%s],`, inner, inner, inner)
			}
		}
		return b.String()
	}
	in := large("k", "{}") + `"end":1}`
	add(large("k", in)+`"end":1}`, true)
	add(large("k", in)+`"k0":1}`, false)
	add(large("k", in)+`"k39":1}`, false)
	add(large("k", in)+`"inner":1}`, false)
	add(large("k", in)+`"k40":1}`, true)
	add(large("k", large("j", `{"k0":1}`)+`"j3":1}`)+`"end":1}`, false)
	add(large("k", large("j", `{"k0":1}`)+`"k3":1}`)+`"end":1}`, true)
	long := strings.Repeat("L", 300)
	add(`{"`+long+`":1,"`+long+`x":{"`+long+`":2},"short":3}`, true)
	add(`{"`+long+`":1,"`+long+`x":{"`+long+`":2},"short":3,"`+long+`":4}`, false)
	add(`{"a\u0062":1,"\ud800":2,"\ud83d\ude00":3,"\"q\"":4,"\\":5,"é":6,"\u00e9x":7,"":8}`, true)
	add("{\"\xff\":1,\"\\ud800x\":2,\"tab\\t\":3}", true)
	add(`{"\ud800":1,"x":{"\ufffd":2},"\ufffd":3}`, true)  // JavaScript tells \ud800 from U+FFFD
	add(`{"\ud800":1,"x":{"\ufffd":2},"\uD800":3}`, false) // the same lone surrogate twice
	add("{\"\xff\":1,\"\\ufffd\":2}", false)               // invalid UTF-8 reads as U+FFFD
	add(`{"a":1,"b":{"c":2},"\u0061":3}`, false)           // a duplicate after a nested object
	for _, c := range inputs {
		assert.Equal(t, c.valid, checkSame(t, []byte(c.raw)), "valid: %q", clip([]byte(c.raw)))
	}

	raw := []byte(`{"a\u0062":1,"\ud800":2,"c":{"d":3}}`)
	ms, err := rawjson.Members(raw)
	require.NoError(t, err)
	require.Len(t, ms, 3)
	assert.Equal(t, "ab", ms[0].Key)
	assert.Equal(t, "\xed\xa0\x80", ms[1].Key, "a lone surrogate stays itself, as WTF-8")
	assert.Equal(t, "c", ms[2].Key)
	assert.Equal(t, len(ms), cap(ms), "the members slice is sized once")
	for _, m := range ms {
		assert.Equal(t, len(m.Value), cap(m.Value), "appending to a value must not overwrite what follows it")
		assert.Equal(t, len(m.Name), cap(m.Name))
	}
	tr, err := rawjson.MembersTrusted(raw)
	require.NoError(t, err)
	assert.Equal(t, ms, tr)
	assert.Equal(t, len(tr), cap(tr), "the members slice is sized once")
}
