package hook_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/testutil"
)

// copilotPre is the PreToolUse the real Copilot CLI sent under a
// PascalCase configuration, for a lower-case tool so that it is detected
// as Copilot's (the real one, tool_name "Bash", is served as Claude
// Code's: see internal/agent/testdata/neutral).
const copilotPre = `{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-12-04T17:00:06.800Z","cwd":"/p","tool_name":"bash","tool_input":{"command":"echo hi > hi.txt","description":"write \"hi\"\tto a file"}}`

// TestCopilotPayloadsReachTypedHandlers: every PascalCase payload of the
// Copilot CLI is served: the handler runs, sees AgentCopilot, and the
// typed event decodes.
func TestCopilotPayloadsReachTypedHandlers(t *testing.T) {
	for name, b := range agentPayloads(t, "copilot") {
		var got hook.Agent
		var ran bool
		code, stdout, stderr := testutil.Serve(t, recordAgent(&got, &ran), b)
		require.Equal(t, hook.ExitOK, code, "%s: %s", name, stderr)
		assert.Empty(t, stdout, name)
		assert.True(t, ran, name)
		assert.Equal(t, hook.AgentCopilot, got, name)
	}
}

// TestCopilotPostToolUseResult: Copilot's tool_result is the typed
// PostToolUse's ToolResponse; Raw keeps the payload as sent.
func TestCopilotPostToolUseResult(t *testing.T) {
	b := agentPayloads(t, "copilot")["real-pascal-PostToolUse.json"]
	var resp, raw string
	h := hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		resp, raw = string(e.ToolResponse), string(e.Raw())
		assert.Equal(t, hook.AgentCopilot, e.Agent())
		assert.Equal(t, "Bash", e.ToolName)
		return nil, nil
	})
	code, _, stderr := testutil.Serve(t, h, b)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, `{"result_type":"success","text_result_for_llm":"\n<shellId: 0 completed with exit code 0>"}`, resp)
	assert.Equal(t, strings.TrimSpace(string(b)), strings.TrimSpace(raw))
	assert.NotContains(t, raw, "tool_response", "Raw is the payload as sent")
}

// TestCopilotDenyAndMerge: a deny and a Merge rewrite are written as
// Claude Code's answers, which Copilot honours, and pass its checks; the
// rewrite holds every member.
func TestCopilotDenyAndMerge(t *testing.T) {
	deny := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "not here"}, nil
	})
	code, stdout, stderr := testutil.Serve(t, deny, []byte(copilotPre))
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"permissionDecision":"deny","permissionDecisionReason":"not here"`)
	require.NoError(t, agent.CheckCopilotAnswer("PreToolUse", []byte(stdout)))

	merge := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := e.Merge(map[string]string{"command": "echo bye"})
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: in}, err
	})
	code, stdout, stderr = testutil.Serve(t, merge, []byte(copilotPre))
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"updatedInput":{"command":"echo bye","description":"write \"hi\"\tto a file"}`)
	require.NoError(t, agent.CheckCopilotAnswer("PreToolUse", []byte(stdout)))
}

// TestCopilotDroppedAnswersAreInvalid: an answer Copilot would drop in
// silence is an invalid answer (exit 1, nothing on stdout), and blocks
// under FailClosed where the event can block.
func TestCopilotDroppedAnswersAreInvalid(t *testing.T) {
	post := []byte(agentPayloads(t, "copilot")["real-pascal-PostToolUse.json"])
	for name, c := range map[string]struct {
		h     hook.Handler
		in    []byte
		field string
	}{
		"PostToolUse context": {hook.PostToolUseFunc(func(context.Context, *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			return &hook.PostToolUseOutput{AdditionalContext: "look"}, nil
		}), post, "additionalContext"},
		"PreToolUse continue:false": {hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Common: hook.Common{Halt: true, StopReason: "stop"}}, nil
		}), []byte(copilotPre), "continue"},
	} {
		code, stdout, stderr := testutil.Serve(t, c.h, c.in)
		assert.Equal(t, hook.ExitError, code, name)
		assert.Empty(t, stdout, name)
		assert.Contains(t, stderr, "GitHub Copilot CLI "+agent.CopilotVersion, name)
		assert.Contains(t, stderr, c.field, name)
	}
}

// TestCopilotFailClosedDeniesWithReason: Copilot tells the model "hook
// exited with code 2" instead of the reason of an exit-2 block of
// PreToolUse, so a fail-closed failure and hook.Block are written to it
// as a deny that carries the reason, exit 0; the same line goes to
// stderr.
func TestCopilotFailClosedDeniesWithReason(t *testing.T) {
	for name, h := range map[string]hook.Handler{
		"FailClosed": hook.FailClosed(hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return nil, errors.New("policy unreadable")
		})),
		"Block": hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return nil, hook.Block("policy unreadable")
		}),
	} {
		code, stdout, stderr := testutil.Serve(t, h, []byte(copilotPre))
		assert.Equal(t, hook.ExitOK, code, name)
		assert.Contains(t, stdout, `"permissionDecision":"deny"`, name)
		assert.Contains(t, stdout, "policy unreadable", name)
		assert.Contains(t, stderr, "policy unreadable", name)
		require.NoError(t, agent.CheckCopilotAnswer("PreToolUse", []byte(stdout)), name)
		// The same hook blocks Claude Code with exit 2, as before.
		claude := strings.Replace(copilotPre, `"tool_name":"bash"`, `"tool_name":"Bash"`, 1)
		code, stdout, _ = testutil.Serve(t, h, []byte(claude))
		assert.Equal(t, hook.ExitBlock, code, name)
		assert.Empty(t, stdout, name)
	}
}

// TestCopilotCamelRefusedOutLoud: a camelCase payload is refused, the
// message says how to configure Copilot so that the hook serves it.
func TestCopilotCamelRefusedOutLoud(t *testing.T) {
	b := agentPayloads(t, "copilotcamel")["real-camel-preToolUse.json"]
	code, stdout, stderr := testutil.Serve(t, hook.FailClosed(hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		t.Error("the handler ran")
		return nil, nil
	})), b)
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "camelCase")
	assert.Contains(t, stderr, "PascalCase")
}

// TestCopilotPostToolUseInAChain: in a Chain, the next handler sees the
// result too, and an UpdatedToolOutput (which Copilot ignores) is an
// invalid answer, never a corrupt payload.
func TestCopilotPostToolUseInAChain(t *testing.T) {
	b := agentPayloads(t, "copilot")["real-pascal-PostToolUse.json"]
	var seen []string
	h := hook.Chain(
		hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			seen = append(seen, string(e.ToolResponse))
			return &hook.PostToolUseOutput{UpdatedToolOutput: []byte(`{"result_type":"success","text_result_for_llm":"redacted"}`)}, nil
		}),
		hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			seen = append(seen, string(e.ToolResponse))
			assert.True(t, json.Valid(e.Raw()), "%s", e.Raw())
			return nil, nil
		}),
	)
	code, stdout, stderr := testutil.Serve(t, h, b)
	assert.Equal(t, hook.ExitError, code, stdout)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "updatedToolOutput")
	require.NotEmpty(t, seen)
	assert.Contains(t, seen[0], "text_result_for_llm")
}
