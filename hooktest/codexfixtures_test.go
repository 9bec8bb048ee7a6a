package hooktest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func TestCodexFixturesAreCodex(t *testing.T) {
	fs := hooktest.CodexFixtures()
	require.NotEmpty(t, fs)
	events := map[string]bool{}
	for _, f := range fs {
		assert.True(t, strings.HasPrefix(f.Name, "codex/"), f.Name)
		assert.NotEmpty(t, f.Event, f.Name)
		events[f.Event] = true
		var got hook.Agent
		h := hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
			got = ev.Agent()
			return nil, nil
		})
		r := hooktest.Record(h, f.JSON)
		require.Equal(t, hook.ExitOK, r.Code, "%s: %s", f.Name, r.Stderr)
		assert.Equal(t, hook.AgentCodex, got, f.Name)
	}
	for _, ev := range []string{"PreToolUse", "PostToolUse", "PermissionRequest", "SessionStart", "Stop"} {
		assert.True(t, events[ev], ev)
	}
	// Copies: changing one does not change the next call's.
	fs[0].JSON[0] = 'x'
	assert.Equal(t, byte('{'), hooktest.CodexFixtures()[0].JSON[0])
}

// codexRun is the property run of h on the Codex fixtures.
func codexRun(h hook.Handler) *hooktest.Report {
	return hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(h, p), nil },
		&hooktest.Options{Fixtures: hooktest.CodexFixtures(), Exact: true, Changes: []string{"fingerprint"}})
}

func TestCodexPropertyRunGoodRewrite(t *testing.T) {
	h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	rep := codexRun(h)
	require.NoError(t, rep.Err())
	assert.Positive(t, rep.Updates)
	assert.Positive(t, rep.Cases)
}

// TestCodexPropertyRunRewriteWithoutDecision: the rewrite Claude Code
// takes without a decision is refused under Codex, so the run fails on
// the unchanged Codex payloads, while it passes on Claude Code's.
func TestCodexPropertyRunRewriteWithoutDecision(t *testing.T) {
	h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
		return &hook.PreToolUseOutput{UpdatedInput: upd}, err
	})
	rep := codexRun(h)
	require.Error(t, rep.Err())
	found := false
	for _, f := range rep.Failures {
		if f.Fixture == "codex/pre-tool-use" && strings.Contains(f.Error(), "an allow skips Codex's approval prompt") && strings.Contains(f.Error(), "hook.CodexRewriteSkip") {
			found = true
		}
	}
	assert.True(t, found, "%v", rep.Err())
	claude := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(h, p), nil }, &hooktest.Options{Exact: true, Changes: []string{"fingerprint"}})
	assert.NoError(t, claude.Err())

	// With a choice for Codex the same rewrite passes there too (skip
	// answers nothing under Codex, so a run of it tests nothing).
	for _, choice := range []hook.CodexRewrite{hook.CodexRewriteAllow, hook.CodexRewriteDeny} {
		chosen := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
			return &hook.PreToolUseOutput{UpdatedInput: upd, CodexRewrite: choice}, err
		})
		assert.NoError(t, codexRun(chosen).Err(), "CodexRewrite %d", choice)
	}
}
