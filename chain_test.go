package hook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/testutil"
)

// trickyInput holds what a lossy rewrite would break: a big integer, a
// trailing-zero decimal, escapes, a lone surrogate, a nested object, and
// an unknown member.
const trickyInput = `{"command":"make test","timeout":120000,"big":12345678901234567890,"ratio":2.50,"description":"caf\u00e9 \ud800 \/","nested":{"b":1,"a":[1e400]},"future_flag":true}`

// pre returns a PreToolUse handler answering out, recording the
// tool_input it saw in *saw.
func pre(saw *[]string, f func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error)) hook.Handler {
	return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if saw != nil {
			*saw = append(*saw, string(e.ToolInput))
		}
		return f(e)
	})
}

func answer(out *hook.PreToolUseOutput) hook.Handler {
	return pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { return out, nil })
}

// TestChainRewritesCompose: three rewriters, each seeing the previous
// one's input; the final updatedInput holds every change and every
// untouched byte of the original.
func TestChainRewritesCompose(t *testing.T) {
	var saw []string
	prefix := pre(&saw, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		upd, err := e.Merge(map[string]string{"command": "timeout 60 " + in.Command})
		return &hook.PreToolUseOutput{UpdatedInput: upd}, err
	})
	fingerprint := pre(&saw, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": "f1"})
		return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: "fingerprinted", UpdatedInput: upd}, err
	})
	dropFlag := pre(&saw, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := hook.Remove(e.ToolInput, "future_flag")
		return &hook.PreToolUseOutput{UpdatedInput: upd, Removed: []string{"future_flag"}, AdditionalContext: "flag dropped"}, err
	})
	silent := pre(&saw, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, nil })
	allowOnly := pre(&saw, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: "fine"}, nil
	})

	h := hook.Chain(prefix, silent, fingerprint, dropFlag, allowOnly)
	for run := 0; run < 3; run++ { // deterministic: the same every time
		saw = saw[:0]
		code, stdout, stderr := testutil.Serve(t, h, testutil.PreToolUse("Bash", trickyInput))
		require.Equal(t, hook.ExitOK, code, stderr)
		want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fingerprinted\nfine",` +
			`"updatedInput":{"command":"timeout 60 make test","timeout":120000,"big":12345678901234567890,"ratio":2.50,"description":"caf\u00e9 \ud800 \/","nested":{"b":1,"a":[1e400]},"fingerprint":"f1"},` +
			`"additionalContext":"flag dropped"}}` + "\n"
		assert.Equal(t, want, stdout)
		require.Len(t, saw, 5)
		assert.Equal(t, trickyInput, saw[0], "the first handler sees the original bytes")
		assert.Contains(t, saw[1], `"command":"timeout 60 make test"`, "the next handler sees the rewrite")
		assert.Equal(t, saw[1], saw[2], "a silent handler changes nothing")
		assert.Contains(t, saw[3], `"big":12345678901234567890,"ratio":2.50`)
		assert.Contains(t, saw[3], `"fingerprint":"f1"`)
		assert.NotContains(t, saw[4], "future_flag")
	}
}

// TestChainPreToolUseDecisions: precedence deny > defer > ask > allow,
// the winning decision's reasons joined, the first deny stops.
func TestChainPreToolUseDecisions(t *testing.T) {
	d := func(dec hook.PermissionDecision, reason string) hook.Handler {
		return answer(&hook.PreToolUseOutput{Decision: dec, Reason: reason})
	}
	for _, c := range []struct {
		name     string
		hs       []hook.Handler
		decision string
		reason   string
	}{
		{"allow ask", []hook.Handler{d(hook.Allow, "a"), d(hook.Ask, "q")}, "ask", "q"},
		{"ask allow", []hook.Handler{d(hook.Ask, "q"), d(hook.Allow, "a")}, "ask", "q"},
		{"ask ask", []hook.Handler{d(hook.Ask, "q1"), d(hook.Ask, "q2")}, "ask", "q1\nq2"},
		{"ask defer allow", []hook.Handler{d(hook.Ask, "q"), d(hook.Defer, ""), d(hook.Allow, "a")}, "defer", ""},
		{"allow deny", []hook.Handler{d(hook.Allow, "a"), d(hook.Deny, "no")}, "deny", "no"},
		{"defer deny", []hook.Handler{d(hook.Defer, ""), d(hook.Deny, "no")}, "deny", "no"},
		{"allow nothing allow", []hook.Handler{d(hook.Allow, "a1"), answer(nil), d(hook.Allow, "a2")}, "allow", "a1\na2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := testutil.Serve(t, hook.Chain(c.hs...), testutil.PreToolUse("Bash", `{"command":"ls"}`))
			require.Equal(t, hook.ExitOK, code, stderr)
			assert.Contains(t, stdout, `"permissionDecision":"`+c.decision+`"`)
			if c.reason != "" {
				r, _ := jsontext.AppendQuote(nil, c.reason)
				assert.Contains(t, stdout, `"permissionDecisionReason":`+string(r))
			} else {
				assert.NotContains(t, stdout, "permissionDecisionReason")
			}
		})
	}

	// The first deny stops the chain; a rewrite before it is left out.
	ran := false
	after := pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { ran = true; return nil, nil })
	rewrite := pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"command": "ls -l"})
		return &hook.PreToolUseOutput{UpdatedInput: upd, AdditionalContext: "c1"}, err
	})
	code, stdout, _ := testutil.Serve(t, hook.Chain(rewrite, d(hook.Deny, "no"), after), testutil.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, hook.ExitOK, code)
	assert.False(t, ran, "nothing runs after a deny")
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"c1"}}`+"\n", stdout)

	// Block stops the chain with exit 2.
	block := pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, hook.Block("blocked: rm") })
	code, stdout, stderr := testutil.Serve(t, hook.Chain(d(hook.Allow, "a"), block, after), testutil.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "blocked: rm\n", stderr)
	assert.False(t, ran)

	// Ask keeps the rewrite; a legacy answer counts as its decision.
	legacy := answer(&hook.PreToolUseOutput{Decision: hook.Allow, Reason: "ok", Legacy: true})
	code, stdout, _ = testutil.Serve(t, hook.Chain(rewrite, legacy, d(hook.Ask, "sure?")), testutil.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, hook.ExitOK, code)
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?","updatedInput":{"command":"ls -l"},"additionalContext":"c1"}}`+"\n", stdout)
}

// TestChainFailures: a FailClosed handler that fails blocks whatever its
// neighbours do; any other failing handler fails the chain (exit 1, no
// answer), unless the others' combined answer refuses the action anyway.
func TestChainFailures(t *testing.T) {
	allow := answer(&hook.PreToolUseOutput{Decision: hook.Allow, Reason: "ok"})
	deny := answer(&hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no"})
	broken := pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, errors.New("guard broke") })
	panics := pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { panic("boom") })
	invalid := answer(&hook.PreToolUseOutput{UpdatedInput: jsontext.Value(`{}`)})
	in := testutil.PreToolUse("Bash", `{"command":"ls"}`)

	for name, hs := range map[string][]hook.Handler{
		"fail-closed error first":    {hook.FailClosed(broken), allow},
		"fail-closed error last":     {allow, hook.FailClosed(broken)},
		"fail-closed panic":          {allow, hook.FailClosed(panics), allow},
		"fail-closed invalid":        {allow, hook.FailClosed(invalid)},
		"fail-closed in a sub-chain": {allow, hook.Chain(allow, hook.FailClosed(broken))},
	} {
		code, stdout, stderr := testutil.Serve(t, hook.Chain(hs...), in)
		assert.Equal(t, hook.ExitBlock, code, name)
		assert.Empty(t, stdout, name)
		assert.True(t, strings.HasPrefix(stderr, "hook: "), "%s: %q", name, stderr)
	}

	// A failure is the chain's: the allow next to it is not written, and
	// the hook fails (open) with the failure.
	for name, c := range map[string]struct {
		hs   []hook.Handler
		want string
	}{
		"error":             {[]hook.Handler{broken, allow}, "hook: handler 1 of 2 (hook.PreToolUseFunc) failed: guard broke"},
		"panic":             {[]hook.Handler{allow, panics}, "hook: handler 2 of 2 (hook.PreToolUseFunc) failed: panic: boom"},
		"invalid":           {[]hook.Handler{invalid, allow}, "hook: handler 1 of 2 (hook.PreToolUseFunc) failed: invalid answer to PreToolUse: updatedInput is empty"},
		"nobody answered":   {[]hook.Handler{answer(nil), broken}, "guard broke"},
		"in a sub-chain":    {[]hook.Handler{allow, hook.Chain(allow, broken)}, "hook: handler 2 of 2 (hook.chain) failed: hook: handler 2 of 2 (hook.PreToolUseFunc) failed: guard broke"},
		"two failures":      {[]hook.Handler{broken, allow, panics}, "guard broke hook: handler 3 of 3"},
		"in a matching Mux": {[]hook.Handler{allow, muxOf(hook.EventPreToolUse, allow, broken)}, "guard broke"},
	} {
		code, stdout, stderr := testutil.Serve(t, hook.Chain(c.hs...), in)
		assert.Equal(t, hook.ExitError, code, name)
		assert.Empty(t, stdout, name)
		assert.Contains(t, stderr, c.want, name)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "%s: %q", name, stderr)
	}

	// An answer that refuses the action stands next to a failure, which
	// the user sees; the failure cannot turn a deny into an allow.
	for name, hs := range map[string][]hook.Handler{
		"failure, deny": {broken, allow, deny},
		"deny, panic":   {panics, deny, allow},
	} {
		code, stdout, stderr := testutil.Serve(t, hook.Chain(hs...), in)
		assert.Equal(t, hook.ExitOK, code, name)
		assert.Empty(t, stderr, name)
		assert.Contains(t, stdout, `"permissionDecision":"deny","permissionDecisionReason":"no"`, name)
		assert.Contains(t, stdout, `"systemMessage":"hook: handler 1 of 3 (hook.PreToolUseFunc) failed: `, name)
	}

	// A fail-closed guard that answered cannot have its answer written:
	// the failure next to it blocks.
	code, stdout, stderr := testutil.Serve(t, hook.Chain(hook.FailClosed(allow), broken, panics), in)
	assert.Equal(t, hook.ExitBlock, code, stderr)
	assert.Empty(t, stdout)
}

// muxOf returns a Mux that runs hs, in order, on event.
func muxOf(event string, hs ...hook.Handler) *hook.Mux {
	m := hook.NewMux()
	for _, h := range hs {
		m.Handle(event, h)
	}
	return m
}

// failingWriter fails every write, as a closed stdout does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("stdout closed") }

func TestChainStop(t *testing.T) {
	stop := func(out *hook.StopOutput) hook.Handler {
		return hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) { return out, nil })
	}
	in := []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"Stop","stop_hook_active":false}` + "\n")
	h := hook.Chain(
		stop(&hook.StopOutput{Block: true, Reason: "run the tests"}),
		stop(nil),
		stop(&hook.StopOutput{AdditionalContext: "note"}),
		stop(&hook.StopOutput{Block: true, Reason: "update the changelog", Common: hook.Common{SystemMessage: "guard 2"}}),
	)
	code, stdout, stderr := testutil.Serve(t, h, in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, `{"decision":"block","reason":"run the tests\nupdate the changelog","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"note"},"systemMessage":"guard 2"}`+"\n", stdout)

	// hook.Block and a failing fail-closed guard are blocks too, with
	// their reasons joined; nothing stops the chain.
	broken := hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) {
		return nil, errors.New("marker unreadable")
	})
	h = hook.Chain(
		stop(&hook.StopOutput{Block: true, Reason: "run the tests"}),
		hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) { return nil, hook.Block("lint first") }),
		hook.FailClosed(broken),
		stop(&hook.StopOutput{AdditionalContext: "note"}),
	)
	code, stdout, stderr = testutil.Serve(t, h, in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, `{"decision":"block","reason":"run the tests\nlint first\nhook: marker unreadable","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"note"}}`+"\n", stdout)
	// A fail-closed failure alone blocks, as JSON.
	code, stdout, _ = testutil.Serve(t, hook.Chain(stop(nil), hook.FailClosed(broken)), in)
	assert.Equal(t, hook.ExitOK, code)
	assert.Equal(t, `{"decision":"block","reason":"hook: marker unreadable"}`+"\n", stdout)

	// The block, now JSON, still blocks when it cannot be written.
	var errb bytes.Buffer
	code = hook.Serve(context.Background(), bytes.NewReader(in), failingWriter{}, &errb,
		hook.Chain(stop(nil), hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) { return nil, hook.Block("lint first") })))
	assert.Equal(t, hook.ExitBlock, code, errb.String())

	// continue:false from any handler halts.
	h = hook.Chain(stop(&hook.StopOutput{Block: true, Reason: "go on"}), stop(&hook.StopOutput{Common: hook.Common{Halt: true, StopReason: "budget"}}))
	code, stdout, _ = testutil.Serve(t, h, in)
	assert.Equal(t, hook.ExitOK, code)
	assert.Contains(t, stdout, `"continue":false,"stopReason":"budget"`)
}

func TestChainPermissionRequest(t *testing.T) {
	pr := func(f func(e *hook.PermissionRequest) *hook.PermissionRequestOutput) hook.Handler {
		return hook.PermissionRequestFunc(func(_ context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
			return f(e), nil
		})
	}
	in := []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls","n":2.50}}` + "\n")
	rewrite := func(k, v string) hook.Handler {
		return pr(func(e *hook.PermissionRequest) *hook.PermissionRequestOutput {
			upd, err := hook.Merge(e.ToolInput, map[string]string{k: v})
			require.NoError(t, err)
			return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd,
				UpdatedPermissions: []hook.PermissionUpdate{{Type: "setMode", Mode: "acceptEdits", Destination: "session"}}}
		})
	}
	code, stdout, stderr := testutil.Serve(t, hook.Chain(rewrite("command", "ls -l"), pr(func(*hook.PermissionRequest) *hook.PermissionRequestOutput { return nil }), rewrite("x", "1")), in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"behavior":"allow","updatedInput":{"command":"ls -l","n":2.50,"x":"1"}`)
	assert.Equal(t, 2, strings.Count(stdout, `"setMode"`), stdout)

	deny := pr(func(*hook.PermissionRequest) *hook.PermissionRequestOutput {
		return &hook.PermissionRequestOutput{Decision: hook.Deny, Message: "not here"}
	})
	code, stdout, _ = testutil.Serve(t, hook.Chain(rewrite("command", "ls -l"), deny, rewrite("x", "1")), in)
	assert.Equal(t, hook.ExitOK, code)
	assert.Contains(t, stdout, `"decision":{"behavior":"deny","message":"not here"}`)
	assert.NotContains(t, stdout, "updatedInput")
}

func TestChainUserPromptSubmit(t *testing.T) {
	ups := func(out *hook.UserPromptSubmitOutput) hook.Handler {
		return hook.UserPromptSubmitFunc(func(context.Context, *hook.UserPromptSubmit) (*hook.UserPromptSubmitOutput, error) {
			return out, nil
		})
	}
	in := []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"UserPromptSubmit","prompt":"hi"}` + "\n")
	serveUPS := func(hs ...hook.Handler) string {
		code, stdout, stderr := testutil.Serve(t, hook.Chain(hs...), in)
		require.Equal(t, hook.ExitOK, code, stderr)
		return stdout
	}
	assert.Equal(t, "first\nsecond\n", serveUPS(ups(&hook.UserPromptSubmitOutput{Text: "first"}), ups(&hook.UserPromptSubmitOutput{Text: "second"})),
		"texts stay text")
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"first\nctx\nthird","sessionTitle":"t2"}}`+"\n",
		serveUPS(ups(&hook.UserPromptSubmitOutput{Text: "first", SessionTitle: ""}),
			ups(&hook.UserPromptSubmitOutput{AdditionalContext: "ctx", SessionTitle: "t1"}),
			ups(&hook.UserPromptSubmitOutput{Text: "third"}),
			ups(&hook.UserPromptSubmitOutput{SessionTitle: "t2"})),
		"next to JSON, text becomes context, in order")
	broken := hook.UserPromptSubmitFunc(func(context.Context, *hook.UserPromptSubmit) (*hook.UserPromptSubmitOutput, error) {
		return nil, errors.New("lookup failed")
	})
	code, stdout, stderr := testutil.Serve(t, hook.Chain(ups(&hook.UserPromptSubmitOutput{Text: "first"}), broken), in)
	assert.Equal(t, hook.ExitError, code, "a failure fails the chain")
	assert.Empty(t, stdout)
	assert.Equal(t, "hook: handler 2 of 2 (hook.UserPromptSubmitFunc) failed: lookup failed\n", stderr)
	assert.Equal(t, `{"decision":"block","reason":"secret","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"first"},"systemMessage":"hook: handler 2 of 3 (hook.UserPromptSubmitFunc) failed: lookup failed"}`+"\n",
		serveUPS(ups(&hook.UserPromptSubmitOutput{Text: "first"}), broken, ups(&hook.UserPromptSubmitOutput{Block: true, Reason: "secret"})),
		"next to a block, the failure note turns a text answer into JSON")
	ran := false
	after := hook.UserPromptSubmitFunc(func(context.Context, *hook.UserPromptSubmit) (*hook.UserPromptSubmitOutput, error) {
		ran = true
		return nil, nil
	})
	out := serveUPS(ups(&hook.UserPromptSubmitOutput{AdditionalContext: "ctx"}), ups(&hook.UserPromptSubmitOutput{Block: true, Reason: "secret in prompt"}), after)
	assert.Contains(t, out, `"decision":"block","reason":"secret in prompt"`)
	assert.False(t, ran, "a block stops the chain")
}

// TestChainFeedsForward: PostToolUse's updatedToolOutput and
// MessageDisplay's displayContent are what the next handler sees.
func TestChainFeedsForward(t *testing.T) {
	var sawResp []string
	post := func(resp string) hook.Handler {
		return hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			sawResp = append(sawResp, string(e.ToolResponse))
			if resp == "" {
				return nil, nil
			}
			return &hook.PostToolUseOutput{UpdatedToolOutput: jsontext.Value(resp)}, nil
		})
	}
	in := []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PostToolUse","tool_name":"mcp__a__b","tool_input":{},"tool_response":{"v":1},"tool_use_id":"t"}` + "\n")
	code, stdout, stderr := testutil.Serve(t, hook.Chain(post(`{"v":2}`), post(""), post(`{"v":3}`)), in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, []string{`{"v":1}`, `{"v":2}`, `{"v":2}`}, sawResp)
	assert.Contains(t, stdout, `"updatedToolOutput":{"v":3}`)

	var sawDelta []string
	disp := func(f func(string) string) hook.Handler {
		return hook.MessageDisplayFunc(func(_ context.Context, e *hook.MessageDisplay) (*hook.MessageDisplayOutput, error) {
			sawDelta = append(sawDelta, e.Delta)
			return &hook.MessageDisplayOutput{DisplayContent: f(e.Delta)}, nil
		})
	}
	in = []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"MessageDisplay","turn_id":"u","message_id":"m","index":0,"final":true,"delta":"secret key"}` + "\n")
	code, stdout, stderr = testutil.Serve(t, hook.Chain(disp(func(s string) string { return strings.ReplaceAll(s, "secret", "******") }), disp(strings.ToUpper)), in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, []string{"secret key", "****** key"}, sawDelta)
	assert.Contains(t, stdout, `"displayContent":"****** KEY"`)
}

func elicit(out *hook.ElicitationOutput) hook.Handler {
	return hook.ElicitationFunc(func(context.Context, *hook.Elicitation) (*hook.ElicitationOutput, error) { return out, nil })
}

func TestChainOtherEvents(t *testing.T) {
	ev := func(name, extra string) []byte {
		return []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"` + name + `"` + extra + "}\n")
	}
	for _, c := range []struct {
		name string
		in   []byte
		hs   []hook.Handler
		want string
	}{
		{"SessionStart", ev("SessionStart", `,"source":"startup"`), []hook.Handler{
			hook.SessionStartFunc(func(context.Context, *hook.SessionStart) (*hook.SessionStartOutput, error) {
				return &hook.SessionStartOutput{AdditionalContext: "a", WatchPaths: []string{".env"}, SessionTitle: "x"}, nil
			}),
			hook.SessionStartFunc(func(context.Context, *hook.SessionStart) (*hook.SessionStartOutput, error) {
				return &hook.SessionStartOutput{Text: "b", ReloadSkills: false}, nil
			}),
			hook.SessionStartFunc(func(context.Context, *hook.SessionStart) (*hook.SessionStartOutput, error) {
				return &hook.SessionStartOutput{WatchPaths: []string{".env", ".envrc"}, ReloadSkills: true, SessionTitle: "y"}, nil
			}),
		}, `"additionalContext":"a\nb"`},
		{"SessionStart watch", ev("SessionStart", `,"source":"startup"`), []hook.Handler{
			hook.SessionStartFunc(func(context.Context, *hook.SessionStart) (*hook.SessionStartOutput, error) {
				return &hook.SessionStartOutput{WatchPaths: []string{".env"}}, nil
			}),
			hook.SessionStartFunc(func(context.Context, *hook.SessionStart) (*hook.SessionStartOutput, error) {
				return &hook.SessionStartOutput{WatchPaths: []string{".env", ".envrc"}, ReloadSkills: true, SessionTitle: "y"}, nil
			}),
		}, `"sessionTitle":"y","watchPaths":[".env",".envrc"],"reloadSkills":true`},
		{"PermissionDenied", ev("PermissionDenied", `,"tool_name":"Bash","tool_input":{},"tool_use_id":"t","reason":"r"`), []hook.Handler{
			hook.PermissionDeniedFunc(func(context.Context, *hook.PermissionDenied) (*hook.PermissionDeniedOutput, error) { return nil, nil }),
			hook.PermissionDeniedFunc(func(context.Context, *hook.PermissionDenied) (*hook.PermissionDeniedOutput, error) {
				return &hook.PermissionDeniedOutput{Retry: true}, nil
			}),
		}, `"retry":true`},
		{"ConfigChange", ev("ConfigChange", `,"source":"user_settings"`), []hook.Handler{
			hook.ConfigChangeFunc(func(context.Context, *hook.ConfigChange) (*hook.ConfigChangeOutput, error) {
				return &hook.ConfigChangeOutput{Common: hook.Common{SystemMessage: "seen"}}, nil
			}),
			hook.ConfigChangeFunc(func(context.Context, *hook.ConfigChange) (*hook.ConfigChangeOutput, error) {
				return &hook.ConfigChangeOutput{Block: true, Reason: "locked"}, nil
			}),
		}, `{"decision":"block","reason":"locked","systemMessage":"seen"}`},
		{"Elicitation cancel wins", hooktest.NewEvent(hook.EventElicitation), []hook.Handler{
			elicit(&hook.ElicitationOutput{Action: hook.ElicitationAccept, Content: jsontext.Value(`{"a":1}`)}),
			elicit(&hook.ElicitationOutput{Action: hook.ElicitationCancel}),
			elicit(&hook.ElicitationOutput{Action: hook.ElicitationAccept, Content: jsontext.Value(`{"a":2}`)}),
		}, `"action":"cancel"`},
		{"Elicitation last action", hooktest.NewEvent(hook.EventElicitation), []hook.Handler{
			elicit(&hook.ElicitationOutput{Action: hook.ElicitationDecline}),
			elicit(&hook.ElicitationOutput{Action: hook.ElicitationAccept, Content: jsontext.Value(`{"a":2.50}`)}),
		}, `"action":"accept","content":{"a":2.50}`},
		{"TaskCreated first block", hooktest.NewEvent(hook.EventTaskCreated), []hook.Handler{
			hook.TaskCreatedFunc(func(context.Context, *hook.TaskCreated) (*hook.TaskCreatedOutput, error) {
				return &hook.TaskCreatedOutput{Block: true, Reason: "first"}, nil
			}),
			hook.TaskCreatedFunc(func(context.Context, *hook.TaskCreated) (*hook.TaskCreatedOutput, error) {
				panic("never runs")
			}),
		}, `{"decision":"block","reason":"first"}`},
		{"FileChanged watch union", hooktest.NewEvent(hook.EventFileChanged), []hook.Handler{
			hook.FileChangedFunc(func(context.Context, *hook.FileChanged) (*hook.FileChangedOutput, error) {
				return &hook.FileChangedOutput{WatchPaths: []string{}}, nil
			}),
			hook.FileChangedFunc(func(context.Context, *hook.FileChanged) (*hook.FileChangedOutput, error) {
				return &hook.FileChangedOutput{WatchPaths: []string{"/p/.env"}}, nil
			}),
		}, `"watchPaths":["/p/.env"]`},
		{"PreSkillShellCommand deny wins", hooktest.NewEvent(hook.EventPreSkillShellCommand), []hook.Handler{
			hook.PreSkillShellCommandFunc(func(context.Context, *hook.PreSkillShellCommand) (*hook.PreSkillShellCommandOutput, error) {
				return &hook.PreSkillShellCommandOutput{Decision: hook.Allow}, nil
			}),
			hook.PreSkillShellCommandFunc(func(context.Context, *hook.PreSkillShellCommand) (*hook.PreSkillShellCommandOutput, error) {
				return &hook.PreSkillShellCommandOutput{Decision: hook.Deny, Reason: "no shell in skills"}, nil
			}),
		}, `"permissionDecision":"deny","permissionDecisionReason":"no shell in skills"`},
		{"PreModelSwitch ask beats allow", hooktest.NewEvent(hook.EventPreModelSwitch), []hook.Handler{
			hook.PreModelSwitchFunc(func(context.Context, *hook.PreModelSwitch) (*hook.PreModelSwitchOutput, error) {
				return &hook.PreModelSwitchOutput{Decision: hook.Ask, Reason: "costly"}, nil
			}),
			hook.PreModelSwitchFunc(func(context.Context, *hook.PreModelSwitch) (*hook.PreModelSwitchOutput, error) {
				return &hook.PreModelSwitchOutput{Decision: hook.Allow, Reason: "fine"}, nil
			}),
		}, `"permissionDecision":"ask","permissionDecisionReason":"costly"`},
		{"SubagentStop reasons joined", hooktest.NewEvent(hook.EventSubagentStop), []hook.Handler{
			hook.SubagentStopFunc(func(context.Context, *hook.SubagentStop) (*hook.SubagentStopOutput, error) {
				return &hook.SubagentStopOutput{Block: true, Reason: "r1"}, nil
			}),
			hook.SubagentStopFunc(func(context.Context, *hook.SubagentStop) (*hook.SubagentStopOutput, error) {
				return &hook.SubagentStopOutput{Block: true, Reason: "r2"}, nil
			}),
		}, `{"decision":"block","reason":"r1\nr2"}`},
		{"PostToolBatch block from any", hooktest.NewEvent(hook.EventPostToolBatch), []hook.Handler{
			hook.PostToolBatchFunc(func(context.Context, *hook.PostToolBatch) (*hook.PostToolBatchOutput, error) {
				return &hook.PostToolBatchOutput{AdditionalContext: "c"}, nil
			}),
			hook.PostToolBatchFunc(func(context.Context, *hook.PostToolBatch) (*hook.PostToolBatchOutput, error) {
				return nil, hook.Block("stop the loop")
			}),
		}, `"decision":"block","reason":"stop the loop"`},
		{"Setup contexts joined", hooktest.NewEvent(hook.EventSetup), []hook.Handler{
			hook.SetupFunc(func(context.Context, *hook.Setup) (*hook.SetupOutput, error) {
				return &hook.SetupOutput{AdditionalContext: "c1"}, nil
			}),
			hook.SetupFunc(func(context.Context, *hook.Setup) (*hook.SetupOutput, error) {
				return &hook.SetupOutput{AdditionalContext: "c2"}, nil
			}),
		}, `"additionalContext":"c1\nc2"`},
		{"SessionEnd", ev("SessionEnd", `,"reason":"other"`), []hook.Handler{
			hook.SessionEndFunc(func(context.Context, *hook.SessionEnd) (*hook.SessionEndOutput, error) {
				return &hook.SessionEndOutput{Common: hook.Common{SystemMessage: "one"}}, nil
			}),
			hook.SessionEndFunc(func(context.Context, *hook.SessionEnd) (*hook.SessionEndOutput, error) {
				return &hook.SessionEndOutput{Common: hook.Common{SystemMessage: "two"}}, nil
			}),
		}, `{"systemMessage":"one\ntwo"}`},
		// Claude Code ignores a halt on Interrupt: the chain runs on.
		{"Interrupt common fields joined", hooktest.NewEvent(hook.EventInterrupt), []hook.Handler{
			hook.InterruptFunc(func(context.Context, *hook.Interrupt) (*hook.InterruptOutput, error) {
				return &hook.InterruptOutput{Common: hook.Common{SystemMessage: "one", Halt: true}}, nil
			}),
			hook.InterruptFunc(func(context.Context, *hook.Interrupt) (*hook.InterruptOutput, error) {
				return nil, nil
			}),
			hook.InterruptFunc(func(context.Context, *hook.Interrupt) (*hook.InterruptOutput, error) {
				return &hook.InterruptOutput{Common: hook.Common{SystemMessage: "two"}}, nil
			}),
		}, `{"continue":false,"systemMessage":"one\ntwo"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := testutil.Serve(t, hook.Chain(c.hs...), c.in)
			require.Equal(t, hook.ExitOK, code, stderr)
			assert.Contains(t, stdout, c.want)
		})
	}
}

func TestChainSetUp(t *testing.T) {
	assert.Panics(t, func() { hook.Chain(answer(nil), nil) })
	assert.Panics(t, func() { hook.Chain(hook.PreToolUseFunc(nil)) })
	code, stdout, _ := testutil.Serve(t, hook.Chain(), testutil.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, hook.ExitOK, code)
	assert.Empty(t, stdout)
	// A chain of PreToolUse adapters answers only PreToolUse.
	m := hook.NewMux()
	assert.Panics(t, func() { m.Handle(hook.EventStop, hook.Chain(answer(nil), answer(nil))) })
	m.Handle(hook.EventStop, hook.Chain(answer(nil), hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) { return nil, nil })))
}

// ExampleChain: a guard, a rewriter and a context adder for the same
// tool call, combined in one deterministic answer.
func ExampleChain() {
	guard := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		if strings.Contains(in.Command, "rm -rf /") {
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "refusing rm -rf /"}, nil
		}
		return nil, nil
	})
	rewriter := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		upd, err := e.Merge(map[string]string{"command": "timeout 600 " + in.Command})
		return &hook.PreToolUseOutput{UpdatedInput: upd}, err
	})
	adder := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{AdditionalContext: "ran with a time limit"}, nil
	})
	h := hook.Chain(hook.FailClosed(guard), rewriter, adder)

	in := `{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make test","timeout":120000},"tool_use_id":"toolu_1"}`
	var stdout, stderr strings.Builder
	code := hook.Serve(context.Background(), strings.NewReader(in), &stdout, &stderr, h)
	fmt.Print(code, " ", stdout.String())
	// Output: 0 {"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"timeout 600 make test","timeout":120000},"additionalContext":"ran with a time limit"}}
}

// TestChainRefusalNextToFailure: next to a failure, only an answer that
// refuses the action stands — a block, a decline, a halt where the event
// honours one; anything else fails the chain.
func TestChainRefusalNextToFailure(t *testing.T) {
	broken := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, errors.New("broke") })
	answerWith := func(out hook.Output) hook.Handler {
		return hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return out, nil })
	}
	for _, c := range []struct {
		name  string
		event string
		out   hook.Output
		want  string // "" when the chain must fail
	}{
		{"Stop block", hook.EventStop, &hook.StopOutput{Block: true, Reason: "go on"}, `"decision":"block","reason":"go on"`},
		{"Stop context", hook.EventStop, &hook.StopOutput{AdditionalContext: "c"}, ""},
		{"Stop halt", hook.EventStop, &hook.StopOutput{Common: hook.Common{Halt: true}}, `"continue":false`},
		{"TaskCreated halt is ignored", hook.EventTaskCreated, &hook.TaskCreatedOutput{Common: hook.Common{Halt: true}}, ""},
		{"TaskCreated block", hook.EventTaskCreated, &hook.TaskCreatedOutput{Block: true, Reason: "no"}, `"decision":"block"`},
		{"Elicitation decline", hook.EventElicitation, &hook.ElicitationOutput{Action: hook.ElicitationDecline}, `"action":"decline"`},
		{"Elicitation accept", hook.EventElicitation, &hook.ElicitationOutput{Action: hook.ElicitationAccept, Content: jsontext.Value(`{}`)}, ""},
		{"PermissionRequest deny", hook.EventPermissionRequest, &hook.PermissionRequestOutput{Decision: hook.Deny, Message: "no"}, `"behavior":"deny"`},
		{"PermissionRequest allow", hook.EventPermissionRequest, &hook.PermissionRequestOutput{Decision: hook.Allow}, ""},
		{"PreModelSwitch deny", hook.EventPreModelSwitch, &hook.PreModelSwitchOutput{Decision: hook.Deny, Reason: "no"}, `"permissionDecision":"deny"`},
	} {
		for _, order := range []string{"failure first", "failure last"} {
			hs := []hook.Handler{broken, answerWith(c.out)}
			if order == "failure last" {
				hs[0], hs[1] = hs[1], hs[0]
			}
			code, stdout, stderr := testutil.Serve(t, hook.Chain(hs...), hooktest.NewEvent(c.event))
			if c.want == "" {
				assert.Equal(t, hook.ExitError, code, "%s, %s: %s", c.name, order, stdout)
				assert.Empty(t, stdout, c.name)
				assert.Contains(t, stderr, "broke", c.name)
				continue
			}
			assert.Equal(t, hook.ExitOK, code, "%s, %s: %s", c.name, order, stderr)
			assert.Contains(t, stdout, c.want, "%s, %s", c.name, order)
			if order == "failure first" { // a refusal may stop the chain before a failure
				assert.Contains(t, stdout, `"systemMessage":"hook: handler 1 of 2`, "%s, %s", c.name, order)
			}
		}
	}
}
