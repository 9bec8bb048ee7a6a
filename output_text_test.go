package hook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestTextThatClaudeCodeReadsAsJSON: every plain-text answer whose text
// starts with "{" once trimmed as JavaScript's trim trims it (U+FEFF, the
// Zs spaces, U+2028/U+2029) is refused, never written; text that only Go
// would trim (U+0085) is written as it is.
func TestTextThatClaudeCodeReadsAsJSON(t *testing.T) {
	answers := map[string]func(text string) hook.Output{
		hook.EventUserPromptSubmit:    func(s string) hook.Output { return &hook.UserPromptSubmitOutput{Text: s} },
		hook.EventUserPromptExpansion: func(s string) hook.Output { return &hook.UserPromptExpansionOutput{Text: s} },
		hook.EventSessionStart:        func(s string) hook.Output { return &hook.SessionStartOutput{Text: s} },
		hook.EventPreCompact:          func(s string) hook.Output { return &hook.PreCompactOutput{Text: s} },
		hook.EventPostCompact:         func(s string) hook.Output { return &hook.PostCompactOutput{Text: s} },
		hook.EventPostModelSwitch:     func(s string) hook.Output { return &hook.PostModelSwitchOutput{Text: s} },
		hook.EventWorktreeCreate:      func(s string) hook.Output { return &hook.WorktreeCreateOutput{WorktreePath: s} },
	}
	for event, answer := range answers {
		for _, text := range []string{
			"\ufeff{\"continue\":false}",
			"\u2028\u3000{\"continue\":false}",
			"\u00a0\ufeff {\"async\":true}",
		} {
			h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return answer(text), nil })
			code, stdout, stderr := testutil.Serve(t, h, []byte(badEvent(event, "")))
			assert.Equal(t, hook.ExitError, code, "%s %q: %s", event, text, stderr)
			assert.Empty(t, stdout, "%s %q", event, text)
		}
	}
	// U+0085 is Go's space, not JavaScript's: the text does not start with
	// "{" for Claude Code, so it is written.
	h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return &hook.SessionStartOutput{Text: "\u0085{not json"}, nil
	})
	code, stdout, stderr := testutil.Serve(t, h, []byte(badEvent(hook.EventSessionStart, "")))
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, "\u0085{not json\n", stdout)
}

// TestHandlerBugsAreNamed: an answer the handler made invalid says what
// the handler did, never "internal error".
func TestHandlerBugsAreNamed(t *testing.T) {
	for name, h := range map[string]hook.Handler{
		"raw updatedInput with invalid UTF-8": hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: []byte("{\"command\":\"l\xffs\"}")}, nil
		}),
		"raw updatedMCPToolOutput with invalid UTF-8": hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			return &hook.PostToolUseOutput{UpdatedMCPToolOutput: []byte("\"l\xffs\"")}, nil
		}),
	} {
		in := badBash(`{"command":"ls"}`)
		if strings.Contains(name, "MCP") {
			in = badEvent(hook.EventPostToolUse, `,"tool_name":"mcp__x__y","tool_input":{},"tool_response":"r","tool_use_id":"t"`)
		}
		code, stdout, stderr := testutil.Serve(t, h, []byte(in))
		assert.Equal(t, hook.ExitError, code, name)
		assert.Empty(t, stdout, name)
		assert.Contains(t, stderr, "UTF-8", name)
		assert.NotContains(t, stderr, "internal error", name)
	}
}

// TestGoStringsWithInvalidUTF8: a Go string field holding bytes that are
// not UTF-8 is written with U+FFFD in their place, as encoding/json does:
// the answer stays valid JSON.
func TestGoStringsWithInvalidUTF8(t *testing.T) {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no \xfe", AdditionalContext: "\xc3"}, nil
	})
	code, stdout, stderr := testutil.Serve(t, h, []byte(badBash(`{"command":"ls"}`)))
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no \ufffd\",\"additionalContext\":\"\ufffd\"}}\n", stdout)
}
