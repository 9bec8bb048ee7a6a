package hook_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/benchpayload"
)

// mergeFuzzInput returns a compact tool_input of n members k<i>, some of
// them long strings with escapes and some nested, of several KiB from a
// few dozen members on: large enough for a Merge result to be spliced.
func mergeFuzzInput(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `"k%d":"%s"`, i, strings.Repeat(`a\"b\u00e9`, 40))
		case 1:
			fmt.Fprintf(&b, `"k%d":{"v":[%d,null,"x"]}`, i, i)
		default:
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
	}
	b.WriteByte('}')
	return b.String()
}

// FuzzChainMerges composes Chains and Muxes of handlers that rewrite a
// large tool_input with Merge (adding members, replacing the first, the
// last or a long one, setting one to the value it has, with compact
// patches or patches with whitespace, or rewriting without Merge) over a
// compact or an indented input, and checks the answer byte for byte
// against the same Merges made in order outside any invocation: however
// the last rewrite travels to stdout (carried as pieces of the input
// Serve read, or copied and checked), it is the one the handlers made,
// compact, and absent when it equals the input.
func FuzzChainMerges(f *testing.F) {
	f.Add([]byte{1, 0, 0, 1, 0, 2})
	f.Add([]byte{2, 0, 4, 1, 8, 3, 5, 7})
	f.Add([]byte{0, 1, 0, 1, 2})
	f.Add([]byte{3, 0, 9, 2, 12, 6, 1, 0})
	f.Add([]byte{2, 0, 16, 4, 20, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		n := []int{8, 40, 300, 2000}[int(data[0])%4]
		in := mergeFuzzInput(n)
		compactIn := in
		if data[1]%2 == 1 {
			in = string(benchpayload.Indented([]byte(in)))
		}
		ops := data[2:]
		if len(ops) > 10 {
			ops = ops[:10]
		}
		var patches []string // in the order the handlers run
		step := 0
		// handler returns the handler of op, whose rewrite is the patch
		// at index i of patches.
		leaf := func(op byte) hook.Handler {
			step++
			k := int(op/8) % n
			var patch string
			raw := false
			switch op % 8 {
			case 0:
				patch = fmt.Sprintf(`{"add%d":"v%d"}`, step, step)
			case 1:
				patch = fmt.Sprintf(`{"k%d":"changed%d"}`, k, step)
			case 2:
				patch = fmt.Sprintf(`{"k0":%d,"k%d":[%d]}`, step, n-1, step)
			case 3:
				patch = fmt.Sprintf(`{"k%d":"short%d"}`, k/5*5, step)
			case 4:
				patch = fmt.Sprintf(`{"k%d":%d}`, k/5*5+2, k/5*5+2) // the value it has
				if k/5*5+2 >= n {
					patch = `{}`
				}
			case 5:
				patch = fmt.Sprintf("{ \"add%d\" :\n[ %d , true ] }", step, step)
			case 6:
				patch = fmt.Sprintf(`{"raw%d":%d}`, step, step)
				raw = true
			case 7:
				patch = fmt.Sprintf(`{"k%d":{"n":"caf\u00e9 %d"},"add%d":null}`, k, step, step)
			}
			patches = append(patches, patch)
			return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				var upd jsontext.Value
				if raw {
					// Built by hand: the input's members and one more.
					v := bytes.TrimSpace(e.ToolInput)
					upd = append(append(bytes.Clone(v[:len(v)-1]), ','), patch[1:]...)
				} else {
					var err error
					if upd, err = e.Merge(jsontext.Value(patch)); err != nil {
						return nil, err
					}
				}
				return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
			})
		}
		// build makes up to count handlers of ops, some of them Chains
		// and Muxes of the next two.
		var build func(count, depth int) []hook.Handler
		build = func(count, depth int) []hook.Handler {
			var hs []hook.Handler
			for len(hs) < count && len(ops) > 0 {
				op := ops[0]
				ops = ops[1:]
				switch {
				case op%11 == 9 && depth < 2:
					if sub := build(2, depth+1); len(sub) > 0 {
						hs = append(hs, hook.Chain(sub...))
					}
				case op%11 == 10 && depth < 2:
					if sub := build(2, depth+1); len(sub) > 0 {
						m := hook.NewMux()
						for _, h := range sub {
							m.Handle("PreToolUse", h)
						}
						hs = append(hs, m)
					}
				default:
					hs = append(hs, leaf(op))
				}
			}
			return hs
		}
		hs := build(len(ops), 0)
		if len(hs) == 0 {
			return
		}
		event := `{"session_id":"s","transcript_path":"/t","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"mcp__a__b","tool_input":` + in + `}`
		var stdout, stderr bytes.Buffer
		code := hook.Serve(context.Background(), strings.NewReader(event), &stdout, &stderr, hook.Chain(hs...))
		if code != hook.ExitOK {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}

		want := jsontext.Value(compactIn)
		for _, p := range patches {
			var err error
			if want, err = hook.Merge(bytes.Clone(want), jsontext.Value(p)); err != nil {
				t.Fatal(err)
			}
		}
		if err := want.Compact(); err != nil {
			t.Fatal(err)
		}
		answer := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"`
		if string(want) != compactIn {
			answer += `,"updatedInput":` + string(want)
		}
		answer += "}}\n"
		if stdout.String() != answer {
			t.Fatalf("patches %q:\n got %.300s…\nwant %.300s…", patches, stdout.String(), answer)
		}
	})
}
