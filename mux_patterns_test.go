package hook_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
)

// TestMuxRefusesPatternsThatNeverMatch checks that Handle panics, with a
// message that says what to write, for every pattern shape it would
// accept and never run: the client would never send a value it matches.
func TestMuxRefusesPatternsThatNeverMatch(t *testing.T) {
	h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil })
	for pattern, says := range map[string]string{
		"PreToolUse bash":               `Claude Code sends "Bash"`,
		"PreToolUse BASH":               `"Bash"`,
		"PostToolUse read|Write":        `"Read"`,
		"PermissionRequest edit, Write": `"Edit"`,
		"PermissionDenied webfetch":     `"WebFetch"`,
		"PostToolUseFailure task":       `"Task"`,
		"PreToolUse ^bash$":             `"Bash"`,
		"PreToolUse ^(Read|bash)$":      `"Bash"`,
		"PreToolUse ^read$|^Write$":     `"Read"`,
		"PreToolUse Bash Read":          "separate names with | or ,",
		"PreToolUse Bash, Read Write":   "holds a blank",
		"PreToolUse mcp__memory":        `"mcp__memory__.*"`,
		"PreToolUse mcp__memory__":      "mcp__<server>__<tool>",
		"PreToolUse |":                  "names nothing",
		"PreToolUse , |":                "names nothing",
		"SessionStart Startup":          `"startup"`,
		"PreCompact Manual":             `"manual"`,
		"SubagentStart general purpose": "holds a blank",
		"pretooluse Bash":               `the event is "PreToolUse"`,
		"PreToolUse\tBash":              "one space",
		" PreToolUse Bash":              "no blank before it",
		"Stop Bash":                     "Stop has no matcher",
		"UserPromptSubmit *.go":         "has no matcher",
		"PreToolUse Bash|Read(":         "invalid",
	} {
		got := panicText(func() { hook.NewMux().Handle(pattern, h) })
		if assert.NotEmpty(t, got, "%q was accepted", pattern) {
			assert.Contains(t, got, says, pattern)
		}
	}
	for _, pattern := range []string{
		"PreToolUse Bash", "PreToolUse Bash|Read", "PreToolUse Edit, Write", "PreToolUse  Bash",
		"PreToolUse Bash ", "PreToolUse mcp__memory__store", "PreToolUse mcp__memory__.*", "PreToolUse mcp__.*",
		"PreToolUse ^Bash$", "PreToolUse ^(Bash|Read)$", "PreToolUse Task", "PreToolUse my_future_tool",
		"PreToolUse (?:bash)", "PreToolUse .*bash.*", "SessionStart startup|resume", "SessionStart fork",
		"PreCompact auto", "Notification permission_prompt", "SubagentStart general-purpose",
		"FileChanged .env|.envrc", "Stop", "Stop *", "PreToolUse", "PreToolUse *",
	} {
		assert.Empty(t, panicText(func() { hook.NewMux().Handle(pattern, h) }), pattern)
	}
}

func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}
