package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// vaultCall is an MCP tool's call whose result holds a secret in its
// first block, so that the redaction hooks answer.
var vaultCall = []string{"-tool", "mcp__vault__read", "-input", `{"path":"app/key"}`,
	"-response", `[{"type":"text","text":"token sk-live-77 for app"},{"type":"text","text":"expires in 3 days"}]`}

// TestHandBuiltRedactorLosesOutputMembers: a PostToolUse hook that builds
// the result it answers from the members it knows drops the others, and a
// content block; hookcheck reports each, at its place in tool_response.
func TestHandBuiltRedactorLosesOutputMembers(t *testing.T) {
	args := append([]string{"-matcher", "Bash|mcp__vault__read", "-values", "title,quote,lone high surrogate escape", "-changed-output", "/0/text"}, vaultCall...)
	code, rep := hookcheck(t, append(args, "--", "python3", "testdata/python/redact_drop.py")...)
	assert.Equal(t, exitFindings, code)
	lost := map[string]bool{}
	for _, c := range rep.Cases {
		for _, f := range c.Findings {
			if f.Kind == kindLost {
				lost[f.Pointer] = true
			}
		}
	}
	assert.True(t, lost["/tool_response/interrupted"], "%v", lost)
	assert.True(t, lost["/tool_response/noOutputExpected"], "%v", lost)
	assert.True(t, lost["/tool_response/1"], "the second content block: %v", lost)
	assert.True(t, lost["/tool_response/seat-count"], "the unusual names of a Bash output: %v", lost)
	fs := findings(rep, "posttooluse-bash", kindLost)
	require.NotEmpty(t, fs, failing(rep))
	assert.Contains(t, fs[0].Message, "in the answer's updatedToolOutput ("+hooktest.RuleKeepOutput+")")
	var tricky bool
	for _, c := range rep.Cases {
		tricky = tricky || strings.HasPrefix(c.Pointer, "/tool_response/")
	}
	assert.True(t, tricky, "tricky values go into tool_response")
}

// TestLibraryRedactorKeepsOutputMembers: the same redaction built with the
// library keeps every member and block it does not change.
func TestLibraryRedactorKeepsOutputMembers(t *testing.T) {
	bin := hooktest.BuildGo(t, "./testdata/goredact")
	args := append([]string{"-matcher", "Bash|mcp__vault__read", "-strict", "-changed-output", "/0/text"}, vaultCall...)
	code, rep := hookcheck(t, append(args, "--", bin)...)
	assert.Equal(t, exitPass, code, "findings:\n%s", failing(rep))
	assert.Positive(t, rep.Updated, "the secret result is redacted")
	assert.Contains(t, caseNames(rep), "posttooluse mcp__vault__read + unusual member names")
}

// TestPostToolUseHintNamesResponse: a PostToolUse hook that answered
// nothing is pointed at -response, the flag that reaches its event.
func TestPostToolUseHintNamesResponse(t *testing.T) {
	code, rep := hookcheck(t, "-event", "PostToolUse", "-values", "title", "--", "python3", "testdata/python/good.py")
	assert.Equal(t, exitFindings, code)
	assert.Contains(t, rep.Vacuous, "-response '...its tool_response...' sends a PostToolUse payload")
	assert.NotContains(t, rep.Vacuous, "-tool sends no PostToolUse payload")
}

// TestCodexOutputRefusalSpeaksOfCodex: under -agent codex, a rewrite of a
// Bash output is refused in Codex's words, once.
func TestCodexOutputRefusalSpeaksOfCodex(t *testing.T) {
	code, rep := hookcheck(t, "-agent", "codex", "-event", "PostToolUse", "-values", "title",
		"--", "sh", "-c", `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"[redacted]"}}'`)
	assert.Equal(t, exitFindings, code)
	fs := findings(rep, "codex/post-tool-use", kindCodex)
	require.Len(t, fs, 1, failing(rep))
	assert.Contains(t, fs[0].Message, `Codex applies updatedMCPToolOutput to an MCP tool's result only (for Bash it reports "PostToolUse hook returned unsupported updatedMCPToolOutput")`)
	assert.NotContains(t, fs[0].Message, "Claude Code")
	assert.Empty(t, findings(rep, "codex/post-tool-use", kindRejected), "reported once, as Codex's refusal")
	assert.NotEmpty(t, findings(rep, "codex/post-tool-use", kindMangled), "and the output it replaced is changed")
}
