package agent

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refused checks that Codex's rules refuse answer to event on field, with
// a message containing rule.
func refused(t *testing.T, event, answer, field, rule string) {
	t.Helper()
	err := CheckCodexAnswer(event, []byte(answer))
	require.Error(t, err, "%s %s", event, answer)
	var ce *CodexError
	require.True(t, errors.As(err, &ce), "%T", err)
	assert.Equal(t, event, ce.Event)
	assert.Equal(t, field, ce.Field, "%s", err)
	assert.Contains(t, err.Error(), rule)
	assert.Contains(t, err.Error(), event)
	if field != "" {
		assert.Contains(t, err.Error(), field)
	}
}

// accepted checks that Codex's rules accept answer to event.
func accepted(t *testing.T, event, answer string) {
	t.Helper()
	assert.NoError(t, CheckCodexAnswer(event, []byte(answer)), "%s %s", event, answer)
}

const rewrite = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}`

func TestCodexAcceptsWhatItReads(t *testing.T) {
	for event := range codexOutputs() {
		accepted(t, event, ``)
		accepted(t, event, " \n")
		accepted(t, event, `{}`)
		accepted(t, event, `{"systemMessage":"note"}`)
		accepted(t, event, `{"systemMessage":null}`)
	}
	accepted(t, "PreToolUse", rewrite)
	accepted(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`)
	accepted(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx"}}`)
	accepted(t, "PreToolUse", `{"decision":"block","reason":"no"}`)
	accepted(t, "PreToolUse", `{"continue":true,"suppressOutput":false,"stopReason":null}`)
	accepted(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`)
	accepted(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no","interrupt":false}}}`)
	accepted(t, "PostToolUse", `{"decision":"block","reason":"tests fail","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"}}`)
	accepted(t, "PostToolUse", `{"continue":false,"stopReason":"stop","reason":"r"}`)
	accepted(t, "PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"content":[]}}}`)
	accepted(t, "UserPromptSubmit", `{"decision":"block","reason":"secret","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"c"}}`)
	accepted(t, "Stop", `{"decision":"block","reason":"run the tests"}`)
	accepted(t, "SubagentStop", `{"continue":false,"stopReason":"halt"}`)
	accepted(t, "SessionStart", `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c"}}`)
	accepted(t, "SubagentStart", `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"c"}}`)
	accepted(t, "SessionEnd", ``)
}

// The schema rules: every object closed, types, values.

func TestCodexClosedTopLevel(t *testing.T) {
	refused(t, "PreToolUse", `{"onFailure":"block"}`, "onFailure", "closed")
	refused(t, "Stop", `{"hookSpecificOutput":{"hookEventName":"Stop"}}`, "hookSpecificOutput", "not a field")
	refused(t, "Interrupt", `{"continue":true}`, "continue", "not a field")
	refused(t, "PreCompact", `{"decision":"block","reason":"r"}`, "decision", "not a field")
}

func TestCodexClosedHookSpecificOutput(t *testing.T) {
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedPermissions":[]}}`, "hookSpecificOutput.updatedPermissions", "closed")
	refused(t, "PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"x"}}`, "hookSpecificOutput.updatedToolOutput", "not a field")
	refused(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","extra":1}}}`, "hookSpecificOutput.decision.extra", "not a field")
}

func TestCodexHookEventNameRequiredAndMatching(t *testing.T) {
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}`, "hookSpecificOutput.hookEventName", "required")
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}`, "hookSpecificOutput.hookEventName", `"PostToolUse" is not one of "PreToolUse"`)
}

func TestCodexTypes(t *testing.T) {
	refused(t, "PreToolUse", `{"continue":"yes"}`, "continue", "true or false")
	refused(t, "PreToolUse", `{"continue":null}`, "continue", "must not be null")
	refused(t, "Stop", `{"systemMessage":3}`, "systemMessage", "must be a string, not number")
	refused(t, "PreToolUse", `{"hookSpecificOutput":[]}`, "hookSpecificOutput", "must be an object")
	refused(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{}}}`, "hookSpecificOutput.decision.behavior", "required")
}

func TestCodexEnums(t *testing.T) {
	refused(t, "PostToolUse", `{"decision":"approve","reason":"r"}`, "decision", `"approve" is not one of "block"`)
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`, "hookSpecificOutput.permissionDecision", `"defer" is not one of "allow", "deny", "ask"`)
	refused(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"ask"}}}`, "hookSpecificOutput.decision.behavior", "not one of")
}

func TestCodexAnswerMustBeAnObject(t *testing.T) {
	refused(t, "PreToolUse", `[]`, "", "one JSON object")
	refused(t, "PreToolUse", `allowed`, "", "one JSON object")
	refused(t, "PreToolUse", `{"reason":"a","reason":"b"}`, "", "one JSON object")
}

func TestCodexEventsWithoutAnswer(t *testing.T) {
	refused(t, "SessionEnd", `{}`, "", "reads no answer")
	refused(t, "Notification", `{}`, "", "sends no Notification event")
	sent, answered := CodexEvents("SessionEnd")
	assert.True(t, sent)
	assert.False(t, answered)
	sent, _ = CodexEvents("PermissionDenied")
	assert.False(t, sent)
	sent, answered = CodexEvents("PreToolUse")
	assert.True(t, sent && answered)
}

// The rules Codex applies after parsing, one test each.

func TestCodexPreToolUseNoContinueFalse(t *testing.T) {
	refused(t, "PreToolUse", `{"continue":false,"stopReason":"s"}`, "continue", "continue:false")
}

func TestCodexPreToolUseNoStopReason(t *testing.T) {
	refused(t, "PreToolUse", `{"stopReason":"s"}`, "stopReason", "does not support stopReason")
}

func TestCodexPreToolUseNoSuppressOutput(t *testing.T) {
	refused(t, "PreToolUse", `{"suppressOutput":true}`, "suppressOutput", "suppressOutput:true")
}

func TestCodexPreToolUseUpdatedInputNeedsAllow(t *testing.T) {
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}`, "hookSpecificOutput.updatedInput", `only with permissionDecision "allow"`)
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","updatedInput":{"command":"ls"}}}`, "hookSpecificOutput.updatedInput", "original input runs")
}

func TestCodexPreToolUseAllowNeedsUpdatedInput(t *testing.T) {
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, "hookSpecificOutput.permissionDecision", `"allow" without updatedInput`)
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":null}}`, "hookSpecificOutput.permissionDecision", "without updatedInput")
}

func TestCodexPreToolUseNoAsk(t *testing.T) {
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}}`, "hookSpecificOutput.permissionDecision", `does not support "ask"`)
}

func TestCodexPreToolUseDenyNeedsReason(t *testing.T) {
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, "hookSpecificOutput.permissionDecisionReason", "non-blank")
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":" \t\n"}}`, "hookSpecificOutput.permissionDecisionReason", "non-blank")
}

func TestCodexPreToolUseReasonNeedsDecision(t *testing.T) {
	refused(t, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecisionReason":"r"}}`, "hookSpecificOutput.permissionDecisionReason", "needs a permissionDecision")
}

func TestCodexPreToolUseLegacyNoApprove(t *testing.T) {
	refused(t, "PreToolUse", `{"decision":"approve"}`, "decision", `"approve"`)
}

func TestCodexLegacyBlockNeedsReason(t *testing.T) {
	for _, event := range []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"} {
		refused(t, event, `{"decision":"block"}`, "reason", "non-blank reason")
		refused(t, event, `{"decision":"block","reason":"  "}`, "reason", "non-blank reason")
	}
}

func TestCodexReasonNeedsDecision(t *testing.T) {
	refused(t, "PreToolUse", `{"reason":"r"}`, "reason", "needs a decision")
	refused(t, "PostToolUse", `{"reason":"r"}`, "reason", "needs a decision")
}

func TestCodexPermissionRequestUniversal(t *testing.T) {
	refused(t, "PermissionRequest", `{"continue":false}`, "continue", "continue:false")
	refused(t, "PermissionRequest", `{"stopReason":"s"}`, "stopReason", "stopReason")
	refused(t, "PermissionRequest", `{"suppressOutput":true}`, "suppressOutput", "suppressOutput:true")
}

func TestCodexPermissionRequestNoRewrite(t *testing.T) {
	refused(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`, "hookSpecificOutput.decision.updatedInput", "rewrite it in PreToolUse")
}

func TestCodexPermissionRequestNoUpdatedPermissions(t *testing.T) {
	refused(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[]}}}`, "hookSpecificOutput.decision.updatedPermissions", "updatedPermissions")
}

func TestCodexPermissionRequestNoInterrupt(t *testing.T) {
	refused(t, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m","interrupt":true}}}`, "hookSpecificOutput.decision.interrupt", "interrupt:true")
}

func TestCodexPostToolUseNoSuppressOutput(t *testing.T) {
	refused(t, "PostToolUse", `{"suppressOutput":true}`, "suppressOutput", "suppressOutput:true")
}

func TestCodexErrorWithoutField(t *testing.T) {
	e := &CodexError{Event: "SessionEnd", Rule: "r"}
	assert.Equal(t, "Codex would refuse this SessionEnd answer: r", e.Error())
	e = &CodexError{Event: "PreToolUse", Field: "f", Rule: "r"}
	assert.Equal(t, "Codex would refuse this PreToolUse answer: f: r", e.Error())
}
