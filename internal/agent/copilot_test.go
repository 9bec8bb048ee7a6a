package agent

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
