package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// askHook answers every PreToolUse with "ask": valid for Claude Code,
// refused by Codex. It is not built with the library, so only hookcheck's
// own Codex check can find it.
const askHook = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}'`

// TestAgentCodexFindsRefusedAnswer: under -agent codex, the built-in
// payloads are Codex's and an answer Codex would refuse is a finding,
// named by the field and the rule.
func TestAgentCodexFindsRefusedAnswer(t *testing.T) {
	code, rep := hookcheck(t, "-agent", "codex", "-event", "PreToolUse", "-values", "title", "-per-member", "1", "--", "sh", "-c", askHook)
	assert.Equal(t, exitFindings, code)
	for _, c := range rep.Cases {
		assert.True(t, strings.HasPrefix(c.Fixture, "codex/"), c.Fixture)
	}
	fs := findings(rep, "codex/pre-tool-use", kindCodex)
	require.NotEmpty(t, fs, failing(rep))
	assert.Equal(t, "/hookSpecificOutput/permissionDecision", fs[0].Pointer)
	assert.Contains(t, fs[0].Message, `Codex does not support "ask"`)

	// The same hook under Claude Code has no such finding.
	_, rep = hookcheck(t, "-event", "PreToolUse", "-values", "title", "-per-member", "1", "--", "sh", "-c", askHook)
	for _, c := range rep.Cases {
		for _, f := range c.Findings {
			assert.NotEqual(t, kindCodex, f.Kind, c.Name)
		}
	}
}

// TestAgentCodexGoodHook: a hook built with the library, which rewrites
// with Decision: hook.Allow and Merge, passes under -agent codex, on
// Codex's payload of the -tool call.
func TestAgentCodexGoodHook(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/gohook")
	code, rep := hookcheck(t, "-agent", "codex", "-tool", "mcp__probe__listen_here", "-input", `{"room":"lobby","n":1}`, "-values", "title,quote", "-per-member", "2", "--", bin)
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	assert.Positive(t, rep.Updated, "the hook rewrote the call")
	var names []string
	for _, c := range rep.Cases {
		names = append(names, c.Fixture)
	}
	assert.Contains(t, names, "pretooluse mcp__probe__listen_here")
}

func TestAgentFlag(t *testing.T) {
	_, err := parseFlags([]string{"-agent", "cursor", "--", "true"}, new(strings.Builder))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-agent must be claude or codex")
	cfg, err := parseFlags([]string{"-agent", "codex", "--", "true"}, new(strings.Builder))
	require.NoError(t, err)
	assert.True(t, cfg.codex)
}

// TestAgentCodexPlainText: under -agent codex a plain-text answer is
// checked as Codex reads it: context on SessionStart, a finding when it
// starts with "[" (Codex takes it for broken JSON) or when the event is
// one whose plain stdout Codex drops (PreCompact).
func TestAgentCodexPlainText(t *testing.T) {
	cases := []struct {
		event, text string
		refused     string
	}{
		{"SessionStart", "tests run with -race", ""},
		{"SessionStart", "[ci] tests run with -race", "broken JSON"},
		{"PreCompact", "keep the test names", "ignores plain text on PreCompact"},
	}
	for _, c := range cases {
		_, rep := hookcheck(t, "-agent", "codex", "-event", c.event, "-values", "title", "-per-member", "1", "--",
			"sh", "-c", "cat >/dev/null; printf '%s\\n' '"+c.text+"'")
		var got []finding
		for _, cs := range rep.Cases {
			for _, f := range cs.Findings {
				if f.Kind == kindCodex {
					got = append(got, f)
				}
			}
		}
		if c.refused == "" {
			assert.Empty(t, got, "%s %q", c.event, c.text)
			continue
		}
		require.NotEmpty(t, got, "%s %q: %s", c.event, c.text, failing(rep))
		assert.Contains(t, got[0].Message, c.refused)
	}
}
