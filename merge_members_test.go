package hook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// manyMembers returns a tool_input with n members, as a model can send to
// an MCP tool.
func manyMembers(n int) string {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteString(`}`)
	return b.String()
}

// BenchmarkMembers serves a PreToolUse event whose tool_input has 1k, 10k
// and 100k members with a handler that merges one member (the partial
// answer check looks up every member), and runs Merge, Remove, Edit and
// Update on the same objects. Time must grow linearly with the count.
func BenchmarkMembers(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		in := manyMembers(n)
		b.Run(fmt.Sprintf("Serve/%d", n), func(b *testing.B) {
			benchServe(b, hook.PreToolUseFunc(mergeOne), []byte(badEvent("PreToolUse", `,"tool_name":"mcp__x__y","tool_input":`+in)))
		})
		patch := jsontext.Value(manyMembers(n / 2))
		b.Run(fmt.Sprintf("Merge/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := hook.Merge(jsontext.Value(in), patch); err != nil {
					b.Fatal(err)
				}
			}
		})
		names := make([]string, n/2)
		for i := range names {
			names[i] = fmt.Sprintf("k%d", 2*i)
		}
		b.Run(fmt.Sprintf("Remove/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := hook.Remove(jsontext.Value(in), names...); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Edit/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := hook.Edit(jsontext.Value(in), func(v *struct {
					K1 int `json:"k1"`
				}) error {
					v.K1 = -1
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestManyMembers: Merge, Remove and the answer check give the same
// results on objects large enough to take their indexed paths.
func TestManyMembers(t *testing.T) {
	in := manyMembers(100)
	got, err := hook.Merge(jsontext.Value(in), jsontext.Value(`{"k99":"x","k3":"y","new":1,"k50":null,"a":2,"b":3,"c":4,"d":5,"e":6}`))
	require.NoError(t, err)
	want := strings.Replace(strings.Replace(strings.Replace(in, `"k3":3`, `"k3":"y"`, 1), `"k50":50`, `"k50":null`, 1), `"k99":99}`, `"k99":"x","new":1,"a":2,"b":3,"c":4,"d":5,"e":6}`, 1)
	assert.Equal(t, want, string(got))
	names := []string{"k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "nope"}
	got, err = hook.Remove(jsontext.Value(in), names...)
	require.NoError(t, err)
	assert.Equal(t, strings.Replace(in, `"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,`, ``, 1), string(got))

	// The answer check finds a missing member among many.
	partial := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := hook.Remove(e.ToolInput, "k57")
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	code, stdout, stderr := testutil.Serve(t, partial, []byte(badEvent("PreToolUse", `,"tool_name":"mcp__x__y","tool_input":`+in)))
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "lacks /k57 of the incoming tool_input")
}

// TestNamesAsJavaScriptComparesThem: "\ud800" and "\ufffd" are different
// names for Claude Code, so they are for Merge, Remove, the read and the
// answer check.
func TestNamesAsJavaScriptComparesThem(t *testing.T) {
	got, err := hook.Merge(jsontext.Value(`{"\ufffd":"keep"}`), jsontext.Value(`{"\ud800":"new"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"\ufffd":"keep","\ud800":"new"}`, string(got))
	got, err = hook.Merge(jsontext.Value(`{"\ud800":"old","\ufffd":"keep","\udc00":"low"}`), jsontext.Value(`{"\uD800":"new"}`))
	require.NoError(t, err)
	assert.Equal(t, `{"\ud800":"new","\ufffd":"keep","\udc00":"low"}`, string(got))
	got, err = hook.Merge(jsontext.Value(`{"\ud83d\ude00":1}`), map[string]int{"😀": 2})
	require.NoError(t, err)
	assert.Equal(t, `{"\ud83d\ude00":2}`, string(got), "a surrogate pair is its character")
	got, err = hook.Remove(jsontext.Value(`{"\ud800":1,"\ufffd":2}`), "\ufffd")
	require.NoError(t, err)
	assert.Equal(t, `{"\ud800":1}`, string(got))

	// Claude Code can send both names in one tool_input; the hook reads
	// it, and an answer that keeps both passes the partial-answer check.
	in := []byte(badBash(`{"\ud800":1,"\ufffd":2,"command":"ls"}`))
	code, stdout, stderr := testutil.Serve(t, badEcho, in)
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, badEchoOut(`{"\ud800":1,"\ufffd":2,"command":"ls"}`), stdout)
	// One that drops "\ud800" is partial, even though "\ufffd" is there.
	drop := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(`{"\ufffd":2,"command":"ls"}`)}, nil
	})
	code, stdout, stderr = testutil.Serve(t, drop, in)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "partial")
}
