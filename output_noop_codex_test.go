package hook_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/agent"
)

// codexCall returns a compact Codex payload of event (PreToolUse,
// PermissionRequest or PostToolUse) for the Bash tool with the raw
// tool_input, as Codex 0.171.0 sends it.
func codexCall(event, input string) string {
	extra := `,"tool_name":"Bash","tool_input":` + input
	switch event {
	case hook.EventPreToolUse:
		extra += `,"tool_use_id":"call_Ab12Cd34"`
	case hook.EventPostToolUse:
		extra += `,"tool_response":"ok\n","tool_use_id":"call_Ab12Cd34"`
	}
	return `{"session_id":"019a8c2e-4b1f-7d30-9e21-5c6a7b8d9e0f","transcript_path":"/home/dev/.codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-019a8c2e-4b1f-7d30-9e21-5c6a7b8d9e0f.jsonl","cwd":"/home/dev/acme-api","hook_event_name":"` +
		event + `","turn_id":"019a8c2e-5000-7000-8000-000000000001","model":"gpt-5.1-codex","permission_mode":"default"` + extra + `}`
}

// claudeCall returns a compact Claude Code payload of event for the Bash
// tool with the raw tool_input.
func claudeCall(event, input string) string {
	extra := `,"tool_name":"Bash","tool_input":` + input
	switch event {
	case hook.EventPreToolUse:
		extra += `,"tool_use_id":"toolu_1"`
	case hook.EventPostToolUse:
		extra += `,"tool_response":{"stdout":"ok","stderr":"","interrupted":false},"tool_use_id":"toolu_1"`
	}
	return `{"session_id":"s1","transcript_path":"/home/u/.claude/projects/p/s1.jsonl","cwd":"/w","permission_mode":"default","hook_event_name":"` + event + `"` + extra + `}`
}

// noOpServers are the ways a handler is served: as it is, under a
// fail-closed server, wrapped in FailClosed, and as the one handler of a
// fail-closed Chain.
func noOpServers(h hook.Handler) map[string]*hook.Server {
	return map[string]*hook.Server{
		"plain":              {Handler: h},
		"Server.FailClosed":  {Handler: h, FailClosed: true},
		"hook.FailClosed":    {Handler: hook.FailClosed(h)},
		"FailClosed(Chain)":  {Handler: hook.FailClosed(hook.Chain(h))},
		"Chain, fail-closed": {Handler: hook.Chain(h, hook.PreToolUseFunc(nothing)), FailClosed: true},
	}
}

// nothing is a PreToolUse handler with no answer.
func nothing(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, nil }

// TestNoOpRewriteStaysValid: an answer whose rewrite is cut because it
// changes nothing is one the agent that sent the event accepts, on every
// event with a rewrite, under Claude Code and Codex, with and without
// failing closed, alone and through a Chain. Under Codex, whose "allow"
// only carries a rewrite, an Allow whose rewrite is cut goes with it (and
// its reason too): the settled answer is what remains, or nothing; under
// Claude Code the allow stands, as it skips the permission prompt there.
func TestNoOpRewriteStaysValid(t *testing.T) {
	small := `{"command":"npm test"}`
	big := `{"command":"echo ` + strings.Repeat("x", 8<<10) + `"}`
	noEdit := func(*hook.BashInput) error { return nil }
	pre := func(f func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error)) hook.Handler {
		return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) { return f(e) })
	}
	const (
		allow        = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`
		allowWhy     = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"bounded"}}`
		context_     = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"seen"}}`
		allowContext = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"seen"}}`
		permAllow    = `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`
		warn         = `{"systemMessage":"checked"}`
	)
	for _, c := range []struct {
		name, event, input string
		h                  hook.Handler
		claude, codex      string // the answers written ("": none)
	}{
		{"Allow, Edit that changes nothing", hook.EventPreToolUse, small, pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Edit(e.ToolInput, noEdit)
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), allow, ""},
		{"Allow with a reason, the input itself", hook.EventPreToolUse, small, pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: "bounded", UpdatedInput: e.ToolInput}, nil
		}), allowWhy, ""},
		{"Allow with context, Update that changes nothing", hook.EventPreToolUse, small, pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			view, err := hook.DecodeView[hook.BashInput](e.ToolInput)
			if err != nil {
				return nil, err
			}
			upd, err := e.Update(view)
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd, AdditionalContext: "seen"}, err
		}), allowContext, context_},
		{"Allow with a system message, a copy of the input", hook.EventPreToolUse, small, pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: append(jsontext.Value(nil), e.ToolInput...), Common: hook.Common{SystemMessage: "checked"}}, nil
		}), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"},"systemMessage":"checked"}`, warn},
		{"Allow, empty Merge of a large input (vouched)", hook.EventPreToolUse, big, pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]any{})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), allow, ""},
		{"Allow, Merge of the same command", hook.EventPreToolUse, small, pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]string{"command": "npm test"})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), allow, ""},
		{"no decision, Edit that changes nothing", hook.EventPreToolUse, small, pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Edit(e.ToolInput, noEdit)
			return &hook.PreToolUseOutput{UpdatedInput: upd}, err
		}), "", ""},
		{"Chain: a rewrite that changes nothing, then context", hook.EventPreToolUse, small, hook.Chain(
			pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				upd, err := hook.Edit(e.ToolInput, noEdit)
				return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
			}),
			pre(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{AdditionalContext: "seen"}, nil
			})), allowContext, context_},
		{"PermissionRequest Allow, Edit that changes nothing", hook.EventPermissionRequest, small, hook.PermissionRequestFunc(func(_ context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
			upd, err := hook.Edit(e.ToolInput, noEdit)
			return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), permAllow, permAllow},
		{"PostToolUse the response itself", hook.EventPostToolUse, small, hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			return &hook.PostToolUseOutput{UpdatedToolOutput: e.ToolResponse, Common: hook.Common{SystemMessage: "checked"}}, nil
		}), warn, warn},
	} {
		for agentName, payload := range map[string]string{"Claude Code": claudeCall(c.event, c.input), "Codex": codexCall(c.event, c.input)} {
			want := c.claude
			if agentName == "Codex" {
				want = c.codex
			}
			for how, srv := range noOpServers(c.h) {
				if c.event != hook.EventPreToolUse && strings.Contains(how, "Chain,") {
					continue // the second handler of that Chain answers PreToolUse
				}
				t.Run(c.name+"/"+agentName+"/"+how, func(t *testing.T) {
					code, stdout, stderr := serveWith(t, srv, []byte(payload))
					require.Equal(t, hook.ExitOK, code, stderr)
					assert.Empty(t, stderr)
					if want == "" {
						assert.Empty(t, stdout)
					} else {
						assert.Equal(t, want+"\n", stdout)
					}
					if agentName == "Codex" {
						assert.NoError(t, agent.CheckCodexAnswer(c.event, []byte(stdout)), "Codex refuses the settled answer")
					}
				})
			}
		}
	}
}

// TestRewriteTwiceUnderEveryAgent: a hook that always answers with its
// rewrite — the idempotent kind, whose second call, on the input its
// first call wrote, changes nothing — gives an answer its agent accepts
// on both calls: the rewrite the first time, nothing (Codex) or the bare
// allow (Claude Code) the second, never a failure and never a block.
func TestRewriteTwiceUnderEveryAgent(t *testing.T) {
	bound := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := hook.Edit(e.ToolInput, func(in *hook.BashInput) error {
			if !strings.HasPrefix(in.Command, "timeout ") {
				in.Command = "timeout 600 " + in.Command
			}
			return nil
		})
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
	})
	for agentName, call := range map[string]func(string, string) string{"Claude Code": claudeCall, "Codex": codexCall} {
		for how, srv := range noOpServers(bound) {
			t.Run(agentName+"/"+how, func(t *testing.T) {
				input := `{"command":"npm test"}`
				for i, want := range []string{
					`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"timeout 600 npm test"}}}`,
					map[string]string{"Claude Code": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, "Codex": ""}[agentName],
				} {
					code, stdout, stderr := serveWith(t, srv, []byte(call(hook.EventPreToolUse, input)))
					require.Equal(t, hook.ExitOK, code, "call %d: %s", i+1, stderr)
					assert.Empty(t, stderr)
					assert.Equal(t, want, strings.TrimSuffix(stdout, "\n"), "call %d", i+1)
					if agentName == "Codex" {
						assert.NoError(t, agent.CheckCodexAnswer(hook.EventPreToolUse, []byte(stdout)), "call %d", i+1)
					}
					if i == 0 {
						input = `{"command":"timeout 600 npm test"}`
						assert.True(t, bytes.Contains([]byte(stdout), []byte(input)))
					}
				}
			})
		}
	}
}
