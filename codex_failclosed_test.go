package hook_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/testutil"
)

// TestCodexFailClosedBlocksWhereCodexDoes: a fail-closed hook that fails
// under Codex exits 2, with its one stderr line as the reason, on every
// event Codex blocks on exit 2 — PermissionRequest and PostToolUse among
// them, where Claude Code does not block and the same failure exits 1 —
// and exits 1 on the Codex events where exit 2 is only a failed hook.
func TestCodexFailClosedBlocksWhereCodexDoes(t *testing.T) {
	failing := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return nil, errors.New("policy file unreadable")
	})
	for name, payload := range agent.CodexFixtures() {
		ev := codexEventName(t, payload)
		for _, srv := range []*hook.Server{
			{Handler: hook.FailClosed(failing)},
			{Handler: failing, FailClosed: true},
		} {
			code, stdout, stderr := serveWith(t, srv, payload)
			want := hook.ExitError
			if agent.CodexBlocksOnExit2(ev) {
				want = hook.ExitBlock
			}
			assert.Equal(t, want, code, "%s (%s): %s", name, ev, stderr)
			assert.Empty(t, stdout, name)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "%s: %q", name, stderr)
			assert.Contains(t, stderr, "policy file unreadable", name)
		}
	}
	// Claude Code does not block on a PostToolUse exit 2: there the
	// failure stays exit 1.
	code, _, stderr := serveWith(t, &hook.Server{Handler: hook.FailClosed(failing)},
		[]byte(`{"session_id":"s","transcript_path":"/home/u/.claude/projects/p/s.jsonl","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":""},"tool_use_id":"t"}`))
	assert.Equal(t, hook.ExitError, code, stderr)
}

// TestCodexRefusedAnswerBlocksOnPostToolUse: an answer Codex would refuse
// to PostToolUse and PermissionRequest, from a fail-closed handler,
// blocks (exit 2) instead of exiting 1, which Codex reads as a failed
// hook and goes on.
func TestCodexRefusedAnswerBlocksOnPostToolUse(t *testing.T) {
	fx := agent.CodexFixtures()
	post := hook.FailClosed(hook.PostToolUseFunc(func(context.Context, *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		return &hook.PostToolUseOutput{Common: hook.Common{SuppressOutput: true}}, nil
	}))
	code, stdout, stderr := testutil.Serve(t, post, fx["post-tool-use"])
	assert.Equal(t, hook.ExitBlock, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "suppressOutput")

	perm := hook.FailClosed(hook.PermissionRequestFunc(func(context.Context, *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: []byte(`{"command":"npm ci"}`)}, nil
	}))
	code, stdout, stderr = testutil.Serve(t, perm, fx["permission-request"])
	assert.Equal(t, hook.ExitBlock, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "hookSpecificOutput.decision.updatedInput")
}

// TestCodexPlainText: plain-text answers are checked for Codex too. Codex
// reads plain stdout as context on SessionStart and UserPromptSubmit
// (written as it is), takes text starting with "[" or "{" for broken JSON,
// and drops plain text on PreCompact and PostCompact: the last two are
// refused with the rule, and block when the hook fails closed on an event
// Codex blocks on.
func TestCodexPlainText(t *testing.T) {
	fx := agent.CodexFixtures()
	ok := []struct {
		fixture string
		h       hook.Handler
	}{
		{"session-start", hook.SessionStartFunc(func(context.Context, *hook.SessionStart) (*hook.SessionStartOutput, error) {
			return &hook.SessionStartOutput{Text: "tests run with -race"}, nil
		})},
		{"user-prompt-submit", hook.UserPromptSubmitFunc(func(context.Context, *hook.UserPromptSubmit) (*hook.UserPromptSubmitOutput, error) {
			return &hook.UserPromptSubmitOutput{Text: "the branch is main"}, nil
		})},
	}
	for _, c := range ok {
		code, stdout, stderr := testutil.Serve(t, c.h, fx[c.fixture])
		require.Equal(t, hook.ExitOK, code, "%s: %s", c.fixture, stderr)
		assert.Equal(t, "", stderr)
		assert.NotEmpty(t, stdout)
		assert.NoError(t, agent.CheckCodexText(codexEventName(t, fx[c.fixture]), []byte(stdout)))
	}

	refused := []struct {
		fixture, want string
		h             hook.Handler
		block         bool
	}{
		{"session-start", "broken JSON", hook.SessionStartFunc(func(context.Context, *hook.SessionStart) (*hook.SessionStartOutput, error) {
			return &hook.SessionStartOutput{Text: "[ci] tests run with -race"}, nil
		}), false},
		{"user-prompt-submit", "broken JSON", hook.FailClosed(hook.UserPromptSubmitFunc(func(context.Context, *hook.UserPromptSubmit) (*hook.UserPromptSubmitOutput, error) {
			return &hook.UserPromptSubmitOutput{Text: "[main] the branch"}, nil
		})), true},
		{"pre-compact", "ignores plain text on PreCompact", hook.PreCompactFunc(func(context.Context, *hook.PreCompact) (*hook.PreCompactOutput, error) {
			return &hook.PreCompactOutput{Text: "keep the test names"}, nil
		}), false},
		{"post-compact", "ignores plain text on PostCompact", hook.PostCompactFunc(func(context.Context, *hook.PostCompact) (*hook.PostCompactOutput, error) {
			return &hook.PostCompactOutput{Text: "compacted"}, nil
		}), false},
	}
	for _, c := range refused {
		code, stdout, stderr := testutil.Serve(t, c.h, fx[c.fixture])
		want := hook.ExitError
		if c.block {
			want = hook.ExitBlock
		}
		assert.Equal(t, want, code, "%s: %s", c.fixture, stderr)
		assert.Empty(t, stdout, c.fixture)
		assert.True(t, strings.HasPrefix(stderr, "hook: invalid answer to "), stderr)
		assert.Contains(t, stderr, c.want, c.fixture)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), c.fixture)
	}
}

// codexEventName returns the hook_event_name of a Codex payload.
func codexEventName(t *testing.T, payload []byte) string {
	t.Helper()
	var p struct {
		Event string `json:"hook_event_name"`
	}
	require.NoError(t, json.Unmarshal(payload, &p, jsonopts.Lenient()))
	require.NotEmpty(t, p.Event)
	return p.Event
}
