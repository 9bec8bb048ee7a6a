package hook

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/inputedit"
)

// TestChainRewriteTakesTheFastPath checks that the last rewrite of a
// chain of Merges is written as a single handler's Merge result is:
// carried to the invocation Serve made as pieces of the input it read, so
// that the answer carries a placeholder and the encoder validates only
// the small answer around it (what keeps a Chain or Mux of two Merges
// within a few times one Merge, see BenchmarkChainMembers). Each case
// also checks the answer, byte for byte, against the same Merges made
// outside any invocation; the cases that cannot take the fast path (an
// input or a patch with whitespace, a rewrite not made by Merge, one
// written into after its Merge) must give the same answers the slow way.
func TestChainRewriteTakesTheFastPath(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"command":"echo","big":"` + strings.Repeat(`x\"y`, inputedit.SpliceFrom) + `"`)
	for i := range 300 {
		fmt.Fprintf(&b, `,"k%d":{"v":[%d,"caf\u00e9"]}`, i, i)
	}
	b.WriteString(`}`)
	compact := b.String()
	spaced := string(benchpayload.Indented([]byte(compact)))

	merge := func(patch string) Handler {
		return PreToolUseFunc(func(_ context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
			upd, err := e.Merge(jsontext.Value(patch))
			if err != nil {
				return nil, err
			}
			return &PreToolUseOutput{Decision: Allow, UpdatedInput: upd}, nil
		})
	}
	rawAdd := PreToolUseFunc(func(_ context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
		upd := append(bytes.Clone(e.ToolInput[:len(e.ToolInput)-1]), `,"raw":1}`...)
		return &PreToolUseOutput{Decision: Allow, UpdatedInput: upd}, nil
	})
	muxOf := func(hs ...Handler) Handler {
		m := NewMux()
		for _, h := range hs {
			m.Handle("PreToolUse", h)
		}
		return m
	}
	p1, p2, p3 := `{"fingerprint":"6689"}`, `{"k0":"redacted","audited":true}`, `{"big":"short","k299":null}`
	cases := []struct {
		name        string
		in          string
		h           Handler
		patches     []string // the Merges the handlers make, in order
		placeholder bool
	}{
		{"two", compact, Chain(merge(p1), merge(p2)), []string{p1, p2}, true},
		{"three", compact, Chain(merge(p1), merge(p2), merge(p3)), []string{p1, p2, p3}, true},
		{"nested", compact, Chain(merge(p1), Chain(merge(p2), merge(p3))), []string{p1, p2, p3}, true},
		{"nested first", compact, Chain(Chain(merge(p1), merge(p2)), merge(p3)), []string{p1, p2, p3}, true},
		{"mux", compact, muxOf(merge(p1), merge(p2)), []string{p1, p2}, true},
		{"mux in chain", compact, Chain(muxOf(merge(p1), merge(p2)), merge(p3)), []string{p1, p2, p3}, true},
		{"back to the input", compact, Chain(merge(`{"command":"ls"}`), merge(`{"command":"echo"}`)), nil, false},
		{"spaced input", spaced, Chain(merge(p1), merge(p2)), []string{p1, p2}, false},
		{"spaced patch", compact, Chain(merge(p1), merge(`{ "audited" : true }`)), []string{p1, `{"audited":true}`}, false},
		{"spaced first patch", compact, Chain(merge("{\"fingerprint\":\n\"6689\"}"), merge(p2)), []string{p1, p2}, false},
		{"raw rewrite first", compact, Chain(rawAdd, merge(p2)), []string{`{"raw":1}`, p2}, false},
		{"raw rewrite last", compact, Chain(merge(p1), rawAdd), []string{p1, `{"raw":1}`}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			carried := false
			h := HandlerFunc(func(ctx context.Context, ev *Event) (Output, error) {
				out, err := c.h.ServeHook(ctx, ev)
				if err == nil && out != nil {
					b, err := out.appendAnswer(nil, ev)
					require.NoError(t, err)
					carried = bytes.Contains(b, []byte(inputedit.PlaceholderPrefix))
				}
				return out, err
			})
			event := `{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"mcp__a__b","tool_input":` + c.in + `}`
			var stdout, stderr bytes.Buffer
			code := Serve(context.Background(), strings.NewReader(event), &stdout, &stderr, h)
			require.Equal(t, ExitOK, code, stderr.String())
			assert.Equal(t, c.placeholder, carried, "the answer carries the rewrite as a placeholder")

			want := jsontext.Value(compact)
			for _, p := range c.patches {
				var err error
				want, err = Merge(bytes.Clone(want), jsontext.Value(p))
				require.NoError(t, err)
			}
			answer := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"`
			if c.patches != nil {
				answer += `,"updatedInput":` + string(want)
			}
			assert.Equal(t, answer+"}}\n", stdout.String())
		})
	}
}

// TestChainRewriteWrittenIntoAfterItsMerge serves a chain whose second
// handler writes into its Merge result after making it, before and
// after the chain's checks: the answer is the written value, checked in
// full (the pieces are of the value before), or the write is caught.
func TestChainRewriteWrittenIntoAfterItsMerge(t *testing.T) {
	in := `{"command":"echo","big":"` + strings.Repeat("ab", inputedit.SpliceFrom) + `"}`
	for _, broken := range []bool{false, true} {
		t.Run(fmt.Sprint("breaks JSON ", broken), func(t *testing.T) {
			var upd jsontext.Value
			first := PreToolUseFunc(func(_ context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
				u, err := e.Merge(jsontext.Value(`{"a":1}`))
				return &PreToolUseOutput{Decision: Allow, UpdatedInput: u}, err
			})
			second := PreToolUseFunc(func(_ context.Context, e *PreToolUse) (*PreToolUseOutput, error) {
				u, err := e.Merge(jsontext.Value(`{"b":2}`))
				upd = u
				return &PreToolUseOutput{Decision: Allow, UpdatedInput: u}, err
			})
			// After the chain's checks, before the answer is encoded.
			h := HandlerFunc(func(ctx context.Context, ev *Event) (Output, error) {
				out, err := Chain(first, second).ServeHook(ctx, ev)
				require.NoError(t, err)
				at := bytes.Index(upd, []byte(`"ab`)) + 1
				if broken {
					upd[at] = '"'
				} else {
					upd[at] = 'Z'
				}
				return out, nil
			})
			event := `{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"mcp__a__b","tool_input":` + in + `}`
			var stdout, stderr bytes.Buffer
			code := Serve(context.Background(), strings.NewReader(event), &stdout, &stderr, FailClosed(h))
			if broken {
				assert.Equal(t, ExitBlock, code)
				assert.Empty(t, stdout.String())
				return
			}
			require.Equal(t, ExitOK, code, stderr.String())
			want := strings.Replace(in, `"ab`, `"Zb`, 1)
			want = want[:len(want)-1] + `,"a":1,"b":2}`
			assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":`+want+"}}\n", stdout.String())
		})
	}
}
