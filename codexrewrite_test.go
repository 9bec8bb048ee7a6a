package hook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/testutil"
)

// rewriter returns a handler that rewrites a Bash call's command to cmd
// with Merge, making no decision, with choice as its CodexRewrite and
// reason as its Reason.
func rewriter(cmd string, choice hook.CodexRewrite, reason string) hook.Handler {
	return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"command": cmd})
		return &hook.PreToolUseOutput{UpdatedInput: upd, CodexRewrite: choice, Reason: reason}, err
	})
}

// TestCodexRewriteChoices: a rewrite without a decision is written as it
// is to Claude Code and Copilot (which apply it and then ask as usual),
// whatever CodexRewrite says; under Codex it becomes what the author
// chose, every answer passing Codex's rules, and the zero value is an
// invalid answer that never approves.
func TestCodexRewriteChoices(t *testing.T) {
	claude := testutil.PreToolUse("Bash", `{"command":"npm test"}`)
	cases := []struct {
		name   string
		choice hook.CodexRewrite
		reason string
		codex  string // stdout under Codex ("" for none)
	}{
		{"allow", hook.CodexRewriteAllow, "", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"npm ci"}}}`},
		{"allow, reason", hook.CodexRewriteAllow, "ci mode", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ci mode","updatedInput":{"command":"npm ci"}}}`},
		{"skip", hook.CodexRewriteSkip, "", ``},
		{"skip, reason", hook.CodexRewriteSkip, "unused", ``},
		{"deny", hook.CodexRewriteDeny, "run npm ci yourself", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"run npm ci yourself"}}`},
		{"deny, blank reason", hook.CodexRewriteDeny, " \t", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by hook"}}`},
		{"deny, no reason", hook.CodexRewriteDeny, "", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by hook"}}`},
	}
	for _, c := range cases {
		h := rewriter("npm ci", c.choice, c.reason)
		code, stdout, stderr := testutil.Serve(t, h, codexPre())
		require.Equal(t, hook.ExitOK, code, "%s: %s", c.name, stderr)
		assert.Empty(t, stderr, c.name)
		if c.codex == "" {
			assert.Empty(t, stdout, c.name)
		} else {
			assert.Equal(t, c.codex+"\n", stdout, c.name)
			assert.NoError(t, agent.CheckCodexAnswer("PreToolUse", []byte(stdout)), c.name)
		}
		for _, p := range [][]byte{claude, []byte(copilotPre)} {
			code, stdout, stderr := testutil.Serve(t, h, p)
			require.Equal(t, hook.ExitOK, code, "%s: %s", c.name, stderr)
			assert.Contains(t, stdout, `"updatedInput":{"command":"npm ci"`, c.name)
			assert.NotContains(t, stdout, "permissionDecision", "%s: no decision, and the Codex deny's reason is not written: %s", c.name, stdout)
		}
	}
}

// TestCodexRewriteSkipKeepsContext: skipping the rewrite under Codex
// keeps the rest of the answer.
func TestCodexRewriteSkipKeepsContext(t *testing.T) {
	h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"command": "npm ci"})
		return &hook.PreToolUseOutput{UpdatedInput: upd, CodexRewrite: hook.CodexRewriteSkip, AdditionalContext: "ci mode"}, err
	})
	code, stdout, stderr := testutil.Serve(t, h, codexPre())
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ci mode"}}`+"\n", stdout)
	assert.NoError(t, agent.CheckCodexAnswer("PreToolUse", []byte(stdout)))
}

// TestCodexRewriteUnchangedIsNoAnswer: a rewrite that changes nothing is
// not written, so under Codex no choice applies: not even a deny.
func TestCodexRewriteUnchangedIsNoAnswer(t *testing.T) {
	for _, choice := range []hook.CodexRewrite{hook.CodexRewriteUnset, hook.CodexRewriteAllow, hook.CodexRewriteSkip, hook.CodexRewriteDeny} {
		h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{UpdatedInput: e.ToolInput, CodexRewrite: choice}, nil
		})
		code, stdout, stderr := testutil.Serve(t, h, codexPre())
		require.Equal(t, hook.ExitOK, code, "%d: %s", choice, stderr)
		assert.Empty(t, stdout, "%d", choice)
	}
}

// TestCodexRewriteBesideDecision: a Decision wins over CodexRewrite, and
// a deny under Codex drops a rewrite that Codex would refuse (failing
// open: the denied call would run).
func TestCodexRewriteBesideDecision(t *testing.T) {
	for _, choice := range []hook.CodexRewrite{hook.CodexRewriteUnset, hook.CodexRewriteSkip, hook.CodexRewriteDeny} {
		h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]string{"command": "npm ci"})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd, CodexRewrite: choice}, err
		})
		code, stdout, stderr := testutil.Serve(t, h, codexPre())
		require.Equal(t, hook.ExitOK, code, stderr)
		assert.Contains(t, stdout, `"permissionDecision":"allow","updatedInput":{"command":"npm ci"}`)
	}
	deny := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"command": "npm ci"})
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no", UpdatedInput: upd, CodexRewrite: hook.CodexRewriteAllow}, err
	})
	code, stdout, stderr := testutil.Serve(t, deny, codexPre())
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`+"\n", stdout)
	assert.NoError(t, agent.CheckCodexAnswer("PreToolUse", []byte(stdout)))
}

// TestCodexRewriteCarelessAuthor: a Reason without a decision is refused
// unless it explains a CodexRewriteDeny beside a rewrite, under every
// agent; a CodexRewrite that is not a constant is refused.
func TestCodexRewriteCarelessAuthor(t *testing.T) {
	cases := []struct {
		name string
		out  func(e *hook.PreToolUse) *hook.PreToolUseOutput
		want string
	}{
		{"reason with no choice", func(e *hook.PreToolUse) *hook.PreToolUseOutput {
			upd, _ := e.Merge(map[string]string{"command": "npm ci"})
			return &hook.PreToolUseOutput{UpdatedInput: upd, Reason: "why"}
		}, "a permission decision reason needs a decision"},
		{"deny reason without a rewrite", func(e *hook.PreToolUse) *hook.PreToolUseOutput {
			return &hook.PreToolUseOutput{CodexRewrite: hook.CodexRewriteDeny, Reason: "why"}
		}, "a permission decision reason needs a decision"},
		{"not a constant", func(e *hook.PreToolUse) *hook.PreToolUseOutput {
			upd, _ := e.Merge(map[string]string{"command": "npm ci"})
			return &hook.PreToolUseOutput{UpdatedInput: upd, CodexRewrite: 9}
		}, "CodexRewrite 9 is not one of"},
		{"not a constant, legacy form", func(e *hook.PreToolUse) *hook.PreToolUseOutput {
			return &hook.PreToolUseOutput{Decision: hook.Allow, Legacy: true, CodexRewrite: 9}
		}, "CodexRewrite 9 is not one of"},
	}
	for _, c := range cases {
		h := hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return c.out(e), nil
		})
		for _, p := range [][]byte{codexPre(), testutil.PreToolUse("Bash", `{"command":"npm test"}`), []byte(copilotPre)} {
			code, stdout, stderr := testutil.Serve(t, h, p)
			assert.Equal(t, hook.ExitError, code, c.name)
			assert.Empty(t, stdout, c.name)
			assert.Contains(t, stderr, c.want, c.name)
		}
	}
}

// TestCodexRewriteInAChain: the combined rewrite holds every handler's,
// so under Codex it gets the most cautious choice of the handlers that
// rewrote (deny, then unset, then skip, then allow); a handler that did
// not rewrite does not count, and a later Decision wins as usual.
func TestCodexRewriteInAChain(t *testing.T) {
	none := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{AdditionalContext: "seen"}, nil
	})
	allowed := `"permissionDecision":"allow","updatedInput":{"command":"b"}`
	cases := []struct {
		name string
		hs   []hook.Handler
		want string // in stdout; "" for no rewrite and no decision; "!" for an invalid answer
	}{
		{"allow, allow", []hook.Handler{rewriter("a", hook.CodexRewriteAllow, ""), rewriter("b", hook.CodexRewriteAllow, "")}, allowed},
		{"allow, skip", []hook.Handler{rewriter("a", hook.CodexRewriteAllow, ""), rewriter("b", hook.CodexRewriteSkip, "")}, ""},
		{"skip, allow", []hook.Handler{rewriter("a", hook.CodexRewriteSkip, ""), rewriter("b", hook.CodexRewriteAllow, "")}, ""},
		{"allow, unset", []hook.Handler{rewriter("a", hook.CodexRewriteAllow, ""), rewriter("b", hook.CodexRewriteUnset, "")}, "!"},
		{"unset, skip", []hook.Handler{rewriter("a", hook.CodexRewriteUnset, ""), rewriter("b", hook.CodexRewriteSkip, "")}, "!"},
		{"deny, allow", []hook.Handler{rewriter("a", hook.CodexRewriteDeny, "first"), rewriter("b", hook.CodexRewriteAllow, "")}, `"permissionDecision":"deny","permissionDecisionReason":"first"`},
		{"skip, deny", []hook.Handler{rewriter("a", hook.CodexRewriteSkip, ""), rewriter("b", hook.CodexRewriteDeny, "second")}, `"permissionDecision":"deny","permissionDecisionReason":"second"`},
		{"no rewrite counts not", []hook.Handler{none, rewriter("b", hook.CodexRewriteAllow, ""), none}, allowed},
	}
	for _, c := range cases {
		code, stdout, stderr := testutil.Serve(t, hook.Chain(c.hs...), codexPre())
		switch c.want {
		case "!":
			assert.Equal(t, hook.ExitError, code, c.name)
			assert.Contains(t, stderr, "hook.CodexRewriteAllow", c.name)
			continue
		case "":
			require.Equal(t, hook.ExitOK, code, "%s: %s", c.name, stderr)
			assert.NotContains(t, stdout, "updatedInput", c.name)
			assert.NotContains(t, stdout, "permissionDecision", c.name)
		default:
			require.Equal(t, hook.ExitOK, code, "%s: %s", c.name, stderr)
			assert.Contains(t, stdout, c.want, c.name)
		}
		if strings.TrimSpace(stdout) != "" {
			assert.NoError(t, agent.CheckCodexAnswer("PreToolUse", []byte(stdout)), "%s: %s", c.name, stdout)
		}
		// Under Claude Code the combined rewrite goes through, no
		// decision added.
		code, stdout, stderr = testutil.Serve(t, hook.Chain(c.hs...), testutil.PreToolUse("Bash", `{"command":"npm test"}`))
		require.Equal(t, hook.ExitOK, code, "%s: %s", c.name, stderr)
		assert.Contains(t, stdout, `"updatedInput":{"command":"b"}`, c.name)
		assert.NotContains(t, stdout, "permissionDecision", c.name)
	}
}

// TestCodexRewriteUnsetFailClosed: under FailClosed the unset choice
// blocks the call under Codex (exit 2 with the trade-off); it never
// approves it.
func TestCodexRewriteUnsetFailClosed(t *testing.T) {
	code, stdout, stderr := testutil.Serve(t, hook.FailClosed(rewriter("npm ci", hook.CodexRewriteUnset, "")), codexPre())
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "an allow skips Codex's approval prompt")
}

// TestCodexRewriteChainReasons: the combined rewrite carries the reasons
// of the handlers whose choice it took, and only theirs: a reason given
// for an allow is not the reason of a deny that a stricter handler chose,
// and a chain whose handlers each give a valid answer alone gives a valid
// one under Claude Code (where CodexRewrite reasons are not written), even
// when the combined choice is unset.
func TestCodexRewriteChainReasons(t *testing.T) {
	cases := []struct {
		name string
		hs   []hook.Handler
		want string // in Codex's stdout; "!" for the unset refusal
	}{
		{"allow with reason, unset", []hook.Handler{rewriter("a", hook.CodexRewriteAllow, "ci mode"), rewriter("b", hook.CodexRewriteUnset, "")}, "!"},
		{"deny, allow with reason", []hook.Handler{rewriter("a", hook.CodexRewriteDeny, "run it yourself"), rewriter("b", hook.CodexRewriteAllow, "ci mode")}, `"permissionDecision":"deny","permissionDecisionReason":"run it yourself"}`},
		{"allow with reason, deny", []hook.Handler{rewriter("a", hook.CodexRewriteAllow, "ci mode"), rewriter("b", hook.CodexRewriteDeny, "")}, `"permissionDecision":"deny","permissionDecisionReason":"blocked by hook"}`},
		{"skip with reason, allow with reason", []hook.Handler{rewriter("a", hook.CodexRewriteSkip, "unused"), rewriter("b", hook.CodexRewriteAllow, "ci mode")}, ""},
		{"deny, deny", []hook.Handler{rewriter("a", hook.CodexRewriteDeny, "one"), rewriter("b", hook.CodexRewriteDeny, "two")}, `"permissionDecisionReason":"one\ntwo"}`},
		{"allow, allow", []hook.Handler{rewriter("a", hook.CodexRewriteAllow, "one"), rewriter("b", hook.CodexRewriteAllow, "two")}, `"permissionDecision":"allow","permissionDecisionReason":"one\ntwo"`},
	}
	for _, c := range cases {
		code, stdout, stderr := testutil.Serve(t, hook.Chain(c.hs...), codexPre())
		switch c.want {
		case "!":
			assert.Equal(t, hook.ExitError, code, c.name)
			assert.Contains(t, stderr, "hook.CodexRewriteAllow", "%s: the refusal names the choices", c.name)
		case "":
			require.Equal(t, hook.ExitOK, code, "%s: %s", c.name, stderr)
			assert.Empty(t, strings.TrimSpace(stdout), c.name)
		default:
			require.Equal(t, hook.ExitOK, code, "%s: %s", c.name, stderr)
			assert.Contains(t, stdout, c.want, c.name)
			assert.NoError(t, agent.CheckCodexAnswer("PreToolUse", []byte(stdout)), "%s: %s", c.name, stdout)
		}
		code, stdout, stderr = testutil.Serve(t, hook.Chain(c.hs...), testutil.PreToolUse("Bash", `{"command":"npm test"}`))
		require.Equal(t, hook.ExitOK, code, "%s under Claude Code: %s", c.name, stderr)
		assert.Contains(t, stdout, `"updatedInput":{"command":"b"}`, c.name)
		assert.NotContains(t, stdout, "permissionDecision", c.name)
	}
}
