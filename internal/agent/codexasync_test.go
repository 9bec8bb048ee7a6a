package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckCodexAsyncAnswer: what Codex keeps of an async hook's answer
// (e2e/codexasync_test.go shows it with the real client) passes; what it
// drops or ignores is named.
func TestCheckCodexAsyncAnswer(t *testing.T) {
	good := []struct{ event, answer string }{
		{"PreToolUse", ``},
		{"PreToolUse", " \n"},
		{"PreToolUse", `{}`},
		{"PreToolUse", `{"systemMessage":"m","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"c"}}`},
		{"PostToolUse", `{"continue":true,"suppressOutput":false,"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c","updatedMCPToolOutput":null}}`},
		{"SessionStart", `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}`},
		{"UserPromptSubmit", `{"decision":null,"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"c"}}`},
		{"Stop", `{"systemMessage":"m"}`},
		{"Interrupt", `{"systemMessage":"m"}`},
		{"SessionEnd", ``},
	}
	for _, g := range good {
		assert.NoError(t, CheckCodexAsyncAnswer(g.event, []byte(g.answer)), "%s %s", g.event, g.answer)
	}
	bad := []struct{ event, answer, field, rule string }{
		// Ignored: the event goes on whatever the hook says.
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`, "hookSpecificOutput.permissionDecision", "ignores"},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"x"}}}`, "hookSpecificOutput.permissionDecision", "ignores"},
		{"PreToolUse", `{"decision":"block","reason":"r"}`, "decision", "ignores"},
		{"PostToolUse", `{"decision":"block","reason":"r"}`, "decision", "ignores"},
		{"UserPromptSubmit", `{"continue":false,"stopReason":"s"}`, "continue", "ignores"},
		{"Stop", `{"suppressOutput":true}`, "suppressOutput", "ignores"},
		{"PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}`, "hookSpecificOutput.decision", "ignores"},
		// Dropped whole.
		{"PostToolUse", `{"bogus":1,"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}`, "bogus", "drops the whole answer"},
		{"PreToolUse", `PLAIN-TEXT`, "", "drops plain text"},
		{"SessionStart", `context as text`, "", "drops plain text"},
		{"PreToolUse", `{"systemMessage":1}`, "systemMessage", "drops the whole answer"},
		{"PreToolUse", `{"a":1`, "", "one JSON object"},
		{"SessionEnd", `{}`, "", "reads no answer"},
		{"Notification", `{}`, "", "sends no Notification"},
	}
	for _, b := range bad {
		err := CheckCodexAsyncAnswer(b.event, []byte(b.answer))
		var ce *CodexError
		if assert.ErrorAs(t, err, &ce, "%s %s", b.event, b.answer) {
			assert.Equal(t, b.field, ce.Field, b.answer)
			assert.Contains(t, ce.Rule, b.rule, b.answer)
		}
	}
}

// TestCheckCodexAnswerAsyncAnswer: Claude Code's answer that detaches a
// hook (hook.Async writes it) is refused under Codex with a rule that
// says how Codex runs a hook in the background instead.
func TestCheckCodexAnswerAsyncAnswer(t *testing.T) {
	for _, check := range []func(string, []byte) error{CheckCodexAnswer, CheckCodexAsyncAnswer} {
		for _, a := range []string{`{"async":true}`, `{"async":true,"asyncTimeout":60000}`, `{"asyncTimeout":1}`} {
			var ce *CodexError
			if assert.ErrorAs(t, check("PostToolUse", []byte(a)), &ce, a) {
				assert.Contains(t, ce.Rule, `handler says "async": true`)
			}
		}
	}
}
