package hook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// everyTenth returns a patch that sets every tenth member k<i> of
// manyMembers(n), starting at k<from>, to a string tagged tag.
func everyTenth(n, from int, tag string) jsontext.Value {
	var b strings.Builder
	b.WriteByte('{')
	for i := from; i < n; i += 10 {
		if i > from {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":"%s%d"`, i, tag, i)
	}
	b.WriteByte('}')
	return jsontext.Value(b.String())
}

// mergeHandler is a PreToolUse handler that merges patch into the input it
// is given and allows the call.
func mergeHandler(patch jsontext.Value) hook.Handler {
	return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(patch)
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
}

// BenchmarkChainMembers serves a PreToolUse event whose tool_input has
// 10k, 40k and 100k members with one merging handler (One), a Chain of
// two (Chain) and a Mux with two matching registrations (Mux). Two
// shapes: each handler adds one member ("add"), or each changes a tenth
// of the members, the second handler other ones than the first
// ("tenth"), so that the check that a rewrite does not undo an earlier
// one compares many changed members. bench/run.sh prints Chain ÷ One and
// Mux ÷ One against the target, 3×: composing rewriters costs about the
// rewrites, never a product of the member counts. Next to the wall time
// it reports the process's CPU time per call (cpu-ns/op, where the
// platform tells it: user and system time of every thread, the garbage
// collector's included), which a machine shared with other work
// disturbs less.
func BenchmarkChainMembers(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 100_000} {
		in := []byte(badEvent("PreToolUse", `,"tool_name":"mcp__x__y","tool_input":`+manyMembers(n)))
		shapes := []struct {
			name          string
			first, second jsontext.Value
		}{
			{"add", jsontext.Value(`{"fingerprint":"6689668a49dc648b"}`), jsontext.Value(`{"audited":true}`)},
			{"tenth", everyTenth(n, 0, "a"), everyTenth(n, 5, "b")},
		}
		for _, s := range shapes {
			first, second := mergeHandler(s.first), mergeHandler(s.second)
			m := hook.NewMux()
			m.Handle("PreToolUse", first)
			m.Handle("PreToolUse mcp__.*", second)
			for _, c := range []struct {
				name string
				h    hook.Handler
			}{
				{"One", first},
				{"Chain", hook.Chain(first, second)},
				{"Mux", m},
			} {
				b.Run(fmt.Sprintf("%s/%s/%d", c.name, s.name, n), func(b *testing.B) {
					start, ok := processCPU()
					benchServe(b, c.h, in)
					if end, ok2 := processCPU(); ok && ok2 && b.N > 0 {
						b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
					}
				})
			}
		}
	}
}
