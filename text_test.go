package hook_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
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
			code, stdout, stderr := serve(t, h, []byte(badEvent(event, "")))
			assert.Equal(t, hook.ExitError, code, "%s %q: %s", event, text, stderr)
			assert.Empty(t, stdout, "%s %q", event, text)
		}
	}
	// U+0085 is Go's space, not JavaScript's: the text does not start with
	// "{" for Claude Code, so it is written.
	h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return &hook.SessionStartOutput{Text: "\u0085{not json"}, nil
	})
	code, stdout, stderr := serve(t, h, []byte(badEvent(hook.EventSessionStart, "")))
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, "\u0085{not json\n", stdout)
}
