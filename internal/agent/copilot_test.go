package agent

import (
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
)

// TestCheckCopilotAnswer is one case per rule, and its neighbours that
// Copilot honours.
func TestCheckCopilotAnswer(t *testing.T) {
	ok := []struct{ event, answer string }{
		{"PreToolUse", ``},
		{"PreToolUse", "  \n"},
		{"PreToolUse", `{}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls","description":"d"}}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx"}}`},
		{"PreToolUse", `{"systemMessage":"shown nowhere headless","suppressOutput":true}`},
		{"PreToolUse", `{"continue":true}`},
		{"PostToolUse", `{"decision":"block","reason":"secret in output"}`},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":""}}`},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":null}}`},
		{"PostToolUse", `{"hookSpecificOutput":null}`},
		{"UserPromptSubmit", `{"decision":"block","reason":"no"}`},
		{"Stop", `{"decision":"block","reason":"tests fail"}`},
		{"SessionEnd", `{}`},
	}
	for _, c := range ok {
		assert.NoError(t, CheckCopilotAnswer(c.event, []byte(c.answer)), "%s %s", c.event, c.answer)
	}
	bad := []struct{ event, answer, field string }{
		{"PreToolUse", `{"continue":false}`, "continue"},
		{"Stop", `{"continue":false,"stopReason":"x"}`, "continue"},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`, "hookSpecificOutput.permissionDecision"},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":1}}`, "hookSpecificOutput.permissionDecision"},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"look"}}`, "hookSpecificOutput.additionalContext"},
		{"UserPromptSubmit", `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"look"}}`, "hookSpecificOutput.additionalContext"},
		{"SessionStart", `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"look"}}`, "hookSpecificOutput.additionalContext"},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"redacted"}}`, "hookSpecificOutput.updatedToolOutput"},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"content":[]}}}`, "hookSpecificOutput.updatedMCPToolOutput"},
		{"PreToolUse", `{"hookSpecificOutput":[]}`, "hookSpecificOutput"},
		{"PreToolUse", `[]`, ""},
		{"PreToolUse", `{"a":1} x`, ""},
	}
	for _, c := range bad {
		err := CheckCopilotAnswer(c.event, []byte(c.answer))
		var ce *CopilotError
		require.True(t, errors.As(err, &ce), "%s %s: %v", c.event, c.answer, err)
		assert.Equal(t, c.field, ce.Field, c.answer)
		assert.Equal(t, c.event, ce.Event)
		assert.Contains(t, err.Error(), "GitHub Copilot CLI")
	}
}

func TestCheckCopilotText(t *testing.T) {
	assert.NoError(t, CheckCopilotText("SessionStart", []byte(" \n")))
	for _, ev := range []string{"SessionStart", "UserPromptSubmit"} {
		err := CheckCopilotText(ev, []byte("context"))
		var ce *CopilotError
		require.True(t, errors.As(err, &ce), ev)
		assert.Contains(t, err.Error(), ev)
	}
}

func TestCopilotBlockReasonLost(t *testing.T) {
	assert.True(t, CopilotBlockReasonLost("PreToolUse"))
	assert.False(t, CopilotBlockReasonLost("Stop"))
}

// TestCopilotMembers: a tool_result without a tool_response is also the
// tool_response, in a new slice that leaves the payload's members as
// they were; a payload with both, or without tool_result, is returned
// as it is.
func TestCopilotMembers(t *testing.T) {
	members := func(s string) []rawjson.Member {
		ms, err := rawjson.Members([]byte(s))
		require.NoError(t, err)
		return ms
	}
	ms := members(`{"hook_event_name":"PostToolUse","tool_result":{"result_type":"success","text_result_for_llm":"ok"},"tool_name":"Bash"}`)
	ms = append(ms[:len(ms):len(ms)], rawjson.Member{})[:len(ms)] // room behind ms that an append would take
	before := slices.Clone(ms[:cap(ms)])
	got := CopilotMembers(ms)
	require.Len(t, got, len(ms)+1)
	assert.Equal(t, before, ms[:cap(ms)], "the payload's members and the room behind them are unchanged")
	resp, ok := rawjson.Find(got, "tool_response")
	require.True(t, ok)
	assert.Equal(t, `{"result_type":"success","text_result_for_llm":"ok"}`, string(resp.Value))
	assert.Equal(t, `"tool_response"`, string(resp.Name))
	res, _ := rawjson.Find(got, "tool_result")
	assert.Equal(t, string(res.Value), string(resp.Value))

	for _, s := range []string{
		`{"hook_event_name":"PostToolUse","tool_result":{},"tool_response":{"a":1}}`,
		`{"hook_event_name":"PreToolUse","tool_input":{}}`,
		`{}`,
	} {
		ms := members(s)
		assert.Equal(t, ms, CopilotMembers(ms), s)
	}
}
