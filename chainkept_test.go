package hook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// keeper is middleware that keeps a copy of the member name of every
// event it passes on, as a handler that saved the original input before
// the chain changed it would.
type keeper struct {
	name string
	kept jsontext.Value
}

func (k *keeper) wrap(h hook.Handler) hook.Handler {
	return hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		v, _ := ev.Field(k.name)
		k.kept = append(jsontext.Value(nil), v...)
		return h.ServeHook(ctx, ev)
	})
}

// staleCase is one chain whose last handler builds its rewrite from the
// input as it was before the chain, or a legitimate neighbour of one.
type staleCase struct {
	name string
	in   []byte
	// hs builds the handlers; k holds the original member.
	hs func(k *keeper) []hook.Handler
	// wantErr is in stderr when the chain must fail; "" when it must
	// answer, with want in stdout.
	wantErr, want string
}

func preMerge(patch string) hook.Handler {
	return pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(jsontext.Value(patch))
		return &hook.PreToolUseOutput{UpdatedInput: upd}, err
	})
}

// preStale merges patch into the kept original, not into what it saw.
func preStale(k *keeper, patch string, removed ...string) hook.Handler {
	return pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := hook.Merge(k.kept, jsontext.Value(patch))
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd, Removed: removed}, err
	})
}

func preRemove(names ...string) hook.Handler {
	return pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := hook.Remove(e.ToolInput, names...)
		return &hook.PreToolUseOutput{UpdatedInput: upd, Removed: names}, err
	})
}

func permReq(toolInput string) []byte {
	return []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":` + toolInput + `}` + "\n")
}

func prMerge(base func(e *hook.PermissionRequest) jsontext.Value, patch string, removed ...string) hook.Handler {
	return hook.PermissionRequestFunc(func(_ context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		upd, err := hook.Merge(base(e), jsontext.Value(patch))
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd, Removed: removed}, err
	})
}

func postToolUse(tool, resp string) []byte {
	return []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PostToolUse","tool_name":"` + tool + `","tool_input":{},"tool_response":` + resp + `,"tool_use_id":"t"}` + "\n")
}

func postOut(f func(e *hook.PostToolUse) (*hook.PostToolUseOutput, error)) hook.Handler {
	return hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) { return f(e) })
}

func postMerge(base func(e *hook.PostToolUse) jsontext.Value, patch string) hook.Handler {
	return postOut(func(e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		upd, err := hook.Merge(base(e), jsontext.Value(patch))
		return &hook.PostToolUseOutput{UpdatedToolOutput: upd}, err
	})
}

const bashResp = `{"stdout":"token=s3cr3t","stderr":"","interrupted":false,"isImage":false}`

func staleCases() []staleCase {
	pt := testutil.PreToolUse("Bash", `{"command":"ls","timeout":120000,"nested":{"a":1,"b":{"c":2}}}`)
	pr := permReq(`{"command":"ls","timeout":120000}`)
	seenPR := func(e *hook.PermissionRequest) jsontext.Value { return e.ToolInput }
	seenPost := func(e *hook.PostToolUse) jsontext.Value { return e.ToolResponse }
	return []staleCase{
		// PreToolUse.
		{name: "PreToolUse: a member an earlier handler added", in: pt,
			hs:      func(k *keeper) []hook.Handler { return []hook.Handler{preMerge(`{"x":"1"}`), preStale(k, `{"y":"2"}`)} },
			wantErr: "lacks /x"},
		{name: "PreToolUse: a value an earlier handler changed", in: pt,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preMerge(`{"command":"timeout 60 ls"}`), preStale(k, `{"y":"2"}`)}
			},
			wantErr: "puts back what /command held"},
		{name: "PreToolUse: a nested value an earlier handler changed", in: pt,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preMerge(`{"nested":{"a":1,"b":{"c":3}}}`), preStale(k, `{"nested":{"a":5,"b":{"c":2}}}`)}
			},
			wantErr: "puts back what /nested/b/c held"},
		{name: "PreToolUse: a member an earlier handler removed", in: pt,
			hs:      func(k *keeper) []hook.Handler { return []hook.Handler{preRemove("timeout"), preStale(k, `{"y":"2"}`)} },
			wantErr: "puts back what /timeout held"},
		{name: "PreToolUse: the added member listed in Removed by a stale copy", in: pt,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preMerge(`{"x":"1","command":"ls -l"}`), preStale(k, `{"y":"2"}`, "x")}
			},
			wantErr: "puts back what /command held"},
		{name: "PreToolUse: a later rewrite in a sub-chain", in: pt,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preMerge(`{"command":"timeout 60 ls"}`), hook.Chain(answer(&hook.PreToolUseOutput{AdditionalContext: "c"}), preStale(k, `{"y":"2"}`))}
			},
			wantErr: "handler 2 of 2 (hook.chain) failed: hook: handler 2 of 2 (hook.PreToolUseFunc) failed: the tool_input it rewrote undoes the handlers before it: it puts back what /command held"},
		// Its legitimate neighbours.
		// Removing the only added member gives back the input itself: a
		// no-op rewrite, which is not written (no output at all).
		{name: "PreToolUse: Remove drops an added member on purpose", in: pt,
			hs:   func(*keeper) []hook.Handler { return []hook.Handler{preMerge(`{"x":"1"}`), preRemove("x")} },
			want: noOutput},
		{name: "PreToolUse: Remove drops an added member, another stays", in: pt,
			hs:   func(*keeper) []hook.Handler { return []hook.Handler{preMerge(`{"x":"1","y":"2"}`), preRemove("x")} },
			want: `"updatedInput":{"command":"ls","timeout":120000,"nested":{"a":1,"b":{"c":2}},"y":"2"}`},
		{name: "PreToolUse: a removal is not asked of the next handler", in: pt,
			hs:   func(*keeper) []hook.Handler { return []hook.Handler{preRemove("timeout"), preMerge(`{"y":"2"}`)} },
			want: `"updatedInput":{"command":"ls","nested":{"a":1,"b":{"c":2}},"y":"2"}`},
		{name: "PreToolUse: a changed value changed again", in: pt,
			hs: func(*keeper) []hook.Handler {
				return []hook.Handler{preMerge(`{"command":"ls -l"}`), preMerge(`{"command":"ls -la"}`)}
			},
			want: `"updatedInput":{"command":"ls -la","timeout":120000,"nested":{"a":1,"b":{"c":2}}}`},
		{name: "PreToolUse: a stale copy is fine when nothing changed before", in: pt,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{answer(&hook.PreToolUseOutput{AdditionalContext: "c"}), preStale(k, `{"y":"2"}`)}
			},
			want: `"updatedInput":{"command":"ls","timeout":120000,"nested":{"a":1,"b":{"c":2}},"y":"2"}`},
		{name: "PreToolUse: a deny's rewrite is dropped, not checked", in: pt,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{preMerge(`{"command":"ls -l"}`), pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) {
					upd, err := hook.Merge(k.kept, jsontext.Value(`{"y":"2"}`))
					return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no", UpdatedInput: upd}, err
				})}
			},
			want: `"permissionDecision":"deny","permissionDecisionReason":"no"}`},

		// PermissionRequest.
		{name: "PermissionRequest: a member an earlier handler added", in: pr,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{prMerge(seenPR, `{"x":"1"}`), prMerge(func(*hook.PermissionRequest) jsontext.Value { return k.kept }, `{"y":"2"}`)}
			},
			wantErr: "lacks /x"},
		{name: "PermissionRequest: a value an earlier handler changed", in: pr,
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{prMerge(seenPR, `{"command":"ls -l"}`), prMerge(func(*hook.PermissionRequest) jsontext.Value { return k.kept }, `{"y":"2"}`)}
			},
			wantErr: "puts back what /command held"},
		{name: "PermissionRequest: removals compose", in: pr,
			hs: func(*keeper) []hook.Handler {
				return []hook.Handler{prMerge(seenPR, `{"x":"1"}`), hook.PermissionRequestFunc(func(_ context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
					upd, err := hook.Remove(e.ToolInput, "x", "timeout")
					return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd, Removed: []string{"x", "timeout"}}, err
				}), prMerge(seenPR, `{"y":"2"}`)}
			},
			want: `"updatedInput":{"command":"ls","y":"2"}`},

		// PostToolUse.
		{name: "PostToolUse: a member an earlier handler added", in: postToolUse("Bash", bashResp),
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{postMerge(seenPost, `{"redacted":true}`), postMerge(func(*hook.PostToolUse) jsontext.Value { return k.kept }, `{"note":"n"}`)}
			},
			wantErr: "lacks /redacted"},
		{name: "PostToolUse: a value an earlier handler redacted", in: postToolUse("Bash", bashResp),
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{postMerge(seenPost, `{"stdout":"token=***"}`), postMerge(func(*hook.PostToolUse) jsontext.Value { return k.kept }, `{"note":"n"}`)}
			},
			wantErr: "puts back what /stdout held"},
		{name: "PostToolUse: an MCP text output put back", in: postToolUse("mcp__s__t", `"token=s3cr3t"`),
			hs: func(k *keeper) []hook.Handler {
				return []hook.Handler{
					postOut(func(*hook.PostToolUse) (*hook.PostToolUseOutput, error) {
						return &hook.PostToolUseOutput{UpdatedMCPToolOutput: jsontext.Value(`"token=***"`)}, nil
					}),
					postOut(func(*hook.PostToolUse) (*hook.PostToolUseOutput, error) {
						return &hook.PostToolUseOutput{UpdatedMCPToolOutput: k.kept}, nil
					}),
				}
			},
			wantErr: "puts back what the whole value held"},
		{name: "PostToolUse: either form feeds the next handler, the last wins", in: postToolUse("mcp__s__t", `{"v":1}`),
			hs: func(*keeper) []hook.Handler {
				return []hook.Handler{
					postOut(func(*hook.PostToolUse) (*hook.PostToolUseOutput, error) {
						return &hook.PostToolUseOutput{UpdatedMCPToolOutput: jsontext.Value(`{"v":1,"w":2}`)}, nil
					}),
					postMerge(seenPost, `{"x":3}`),
				}
			},
			want: `"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"v":1,"w":2,"x":3}}}`},

		// MessageDisplay.
		{name: "MessageDisplay: a delta an earlier handler redacted", in: []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"MessageDisplay","turn_id":"u","message_id":"m","index":0,"final":true,"delta":"key s3cr3t"}` + "\n"),
			hs: func(*keeper) []hook.Handler {
				return []hook.Handler{
					hook.MessageDisplayFunc(func(_ context.Context, e *hook.MessageDisplay) (*hook.MessageDisplayOutput, error) {
						return &hook.MessageDisplayOutput{DisplayContent: strings.ReplaceAll(e.Delta, "s3cr3t", "***")}, nil
					}),
					hook.MessageDisplayFunc(func(context.Context, *hook.MessageDisplay) (*hook.MessageDisplayOutput, error) {
						return &hook.MessageDisplayOutput{DisplayContent: "key s3cr3t"}, nil
					}),
				}
			},
			wantErr: "puts back what the whole value held"},

		// ElicitationResult.
		{name: "ElicitationResult: content an earlier handler filled in", in: []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"ElicitationResult","mcp_server_name":"m","action":"accept","content":{"name":"a"}}` + "\n"),
			hs: func(k *keeper) []hook.Handler {
				er := func(content func(e *hook.ElicitationResult) jsontext.Value, patch string) hook.Handler {
					return hook.ElicitationResultFunc(func(_ context.Context, e *hook.ElicitationResult) (*hook.ElicitationResultOutput, error) {
						c, err := hook.Merge(content(e), jsontext.Value(patch))
						return &hook.ElicitationResultOutput{Action: hook.ElicitationAccept, Content: c}, err
					})
				}
				return []hook.Handler{
					er(func(e *hook.ElicitationResult) jsontext.Value { return e.Content }, `{"team":"core"}`),
					er(func(*hook.ElicitationResult) jsontext.Value { return k.kept }, `{"n":1}`),
				}
			},
			wantErr: "lacks /team"},
	}
}

// TestChainStaleCopy: a handler that builds its rewrite from a copy of
// the input it kept from before the chain changed it fails, on every
// rewriting event, instead of dropping an earlier handler's work with
// exit 0; fail-closed, it blocks.
// noOutput is a stale case's want when the chain answers nothing.
const noOutput = "(no output)"

func TestChainStaleCopy(t *testing.T) {
	for _, c := range staleCases() {
		t.Run(c.name, func(t *testing.T) { runStale(t, c) })
	}
}

// runStale serves the stale case c, checks its answer or failure, and
// that the failure blocks under a fail-closed Server.
func runStale(t *testing.T, c staleCase) {
	t.Helper()
	var name string
	switch {
	case strings.Contains(c.name, "PostToolUse"):
		name = "tool_response"
	case strings.Contains(c.name, "MessageDisplay"):
		name = "delta"
	case strings.Contains(c.name, "ElicitationResult"):
		name = "content"
	default:
		name = "tool_input"
	}
	k := &keeper{name: name}
	h := k.wrap(hook.Chain(c.hs(k)...))
	code, stdout, stderr := testutil.Serve(t, h, c.in)
	if c.wantErr == "" {
		require.Equal(t, hook.ExitOK, code, stderr)
		if c.want == noOutput {
			assert.Empty(t, stdout)
			return
		}
		assert.Contains(t, stdout, c.want)
		return
	}
	assert.Equal(t, hook.ExitError, code, stdout)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, c.wantErr)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)

	srv := hook.Server{Handler: h, FailClosed: true}
	code, stdout, stderr = serveWith(t, &srv, c.in)
	want := hook.ExitError
	if hook.CanBlock(string(hookEventOf(c.in))) {
		want = hook.ExitBlock
	}
	assert.Equal(t, want, code, "fail-closed: %s", stderr)
	assert.Empty(t, stdout)
}

// hookEventOf returns the hook_event_name of the event in.
func hookEventOf(in []byte) string {
	const key = `"hook_event_name":"`
	s := string(in)
	i := strings.Index(s, key)
	if i < 0 {
		return ""
	}
	s = s[i+len(key):]
	return s[:strings.IndexByte(s, '"')]
}
