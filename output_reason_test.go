package hook

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDenyWithoutReasonSaysSomething: every deny and block that reaches
// Claude without a reason — a Stop block and a PermissionRequest deny
// too — is written with the library's default reason, as Block("") is,
// and a reason that is given is written as it is (reason_test.go tries
// every blank reason).
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
		{"Stop block", "stop.json", &StopOutput{Block: true},
			`{"decision":"block","reason":"blocked by hook"}`},
		{"SubagentStop block", "subagentstop.json", &SubagentStopOutput{Block: true},
			`{"decision":"block","reason":"blocked by hook"}`},
		{"PermissionRequest deny", "permissionrequest-bash.json", &PermissionRequestOutput{Decision: Deny},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"blocked by hook"}}}`},
		{"PermissionRequest deny with message", "permissionrequest-bash.json", &PermissionRequestOutput{Decision: Deny, Message: "no"},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := answerTo(t, c.fixture, c.out)
			require.NoError(t, err)
			assert.Equal(t, c.want, out)
		})
	}
}
