package agent

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCodexBlocksOnExit2(t *testing.T) {
	for _, ev := range []string{"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"} {
		assert.True(t, CodexBlocksOnExit2(ev), ev)
		sent, _ := CodexEvents(ev)
		assert.True(t, sent, "%s is a Codex event", ev)
	}
	for _, ev := range []string{"SessionStart", "SubagentStart", "PreCompact", "PostCompact", "Interrupt", "SessionEnd", "Notification", ""} {
		assert.False(t, CodexBlocksOnExit2(ev), ev)
	}
}

func TestCheckCodexText(t *testing.T) {
	for _, ev := range []string{"SessionStart", "SubagentStart", "UserPromptSubmit"} {
		assert.NoError(t, CheckCodexText(ev, []byte("remember: tests run with -race\n")), ev)
		assert.NoError(t, CheckCodexText(ev, []byte("  \n")), "blank text is no answer")
		for _, bad := range []string{"[note] x", "{x", " \t\n[", "\u00a0{"} {
			err := CheckCodexText(ev, []byte(bad))
			var ce *CodexError
			require.True(t, errors.As(err, &ce), "%s %q: %v", ev, bad, err)
			assert.Contains(t, ce.Rule, "broken JSON")
		}
	}
	for _, ev := range []string{"PreCompact", "PostCompact", "Stop", "UserPromptExpansion"} {
		err := CheckCodexText(ev, []byte("keep the test names"))
		var ce *CodexError
		require.True(t, errors.As(err, &ce), "%s: %v", ev, err)
		assert.Contains(t, ce.Rule, "ignores plain text on "+ev)
	}
}
