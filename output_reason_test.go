package hook

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDenyWithoutReasonSaysSomething: every deny and block that reaches
// Claude without a reason is written with the library's default reason,
// as Block("") is, and a reason that is given is written as it is.
func TestDenyWithoutReasonSaysSomething(t *testing.T) {
	for _, c := range []struct {
		name, fixture string
		out           Output
		want          string
	}{
		{"PreToolUse deny", "pretooluse-bash.json", &PreToolUseOutput{Decision: Deny},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by hook"}}`},
		{"PreToolUse deny with context", "pretooluse-bash.json", &PreToolUseOutput{Decision: Deny, AdditionalContext: "c"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by hook","additionalContext":"c"}}`},
		{"PreToolUse deny with reason", "pretooluse-bash.json", &PreToolUseOutput{Decision: Deny, Reason: "no"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`},
		{"PreToolUse allow stays silent", "pretooluse-bash.json", &PreToolUseOutput{Decision: Allow},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"PreToolUse legacy deny", "pretooluse-bash.json", &PreToolUseOutput{Decision: Deny, Legacy: true},
			`{"decision":"block","reason":"blocked by hook"}`},
		{"PreSkillShellCommand deny", "preskillshellcommand.json", &PreSkillShellCommandOutput{Decision: Deny},
			`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"blocked by hook"}}`},
		{"PreModelSwitch deny", "premodelswitch.json", &PreModelSwitchOutput{Decision: Deny},
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny","permissionDecisionReason":"blocked by hook"}}`},
		{"PostToolUse block", "posttooluse-bash.json", &PostToolUseOutput{Block: true},
			`{"decision":"block","reason":"blocked by hook"}`},
		{"UserPromptSubmit block", "userpromptsubmit.json", &UserPromptSubmitOutput{Block: true},
			`{"decision":"block","reason":"blocked by hook"}`},
		{"Stop block with reason", "stop.json", &StopOutput{Block: true, Reason: "go on"},
			`{"decision":"block","reason":"go on"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := answerTo(t, c.fixture, c.out)
			require.NoError(t, err)
			assert.Equal(t, c.want, out)
		})
	}
	// A Stop block's reason is Claude's next instruction: it stays
	// required rather than defaulted.
	_, err := answerTo(t, "stop.json", &StopOutput{Block: true})
	assert.ErrorContains(t, err, "a block needs a Reason")
}
