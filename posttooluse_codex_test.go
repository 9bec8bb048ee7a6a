package hook_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// A rewrite of a tool's result under Codex is judged by Codex's rule: it
// has no updatedToolOutput and replaces an MCP tool's result only. The
// refusal says so, and never quotes Claude Code's rule.
func TestCodexToolOutputRefusalsSpeakOfCodex(t *testing.T) {
	var bash jsontext.Value
	for _, f := range hooktest.CodexFixtures() {
		if f.Name == "codex/post-tool-use" {
			bash = f.JSON
		}
	}
	if !assert.NotNil(t, bash) {
		return
	}
	mcp := hooktest.WithField(hooktest.WithField(bash, "tool_name", "mcp__db__query"), "tool_response", jsontext.Value(`[{"type":"text","text":"3 rows"}]`))
	serve := func(payload []byte, out *hook.PostToolUseOutput) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := hook.Serve(context.Background(), bytes.NewReader(payload), &stdout, &stderr,
			hook.PostToolUseFunc(func(context.Context, *hook.PostToolUse) (*hook.PostToolUseOutput, error) { return out, nil }))
		return code, stdout.String(), stderr.String()
	}
	for _, c := range []struct {
		name    string
		payload []byte
		out     *hook.PostToolUseOutput
		saying  string
	}{
		{"Bash, updatedMCPToolOutput", bash, &hook.PostToolUseOutput{UpdatedMCPToolOutput: jsontext.Value(`"[redacted]"`)}, `Codex applies updatedMCPToolOutput to an MCP tool's result only (for Bash it reports "PostToolUse hook returned unsupported updatedMCPToolOutput")`},
		{"Bash, updatedToolOutput", bash, &hook.PostToolUseOutput{UpdatedToolOutput: jsontext.Value(`"[redacted]"`)}, "Codex has no updatedToolOutput"},
		{"MCP, updatedToolOutput", mcp, &hook.PostToolUseOutput{UpdatedToolOutput: jsontext.Value(`[{"type":"text","text":"[redacted]"}]`)}, "it replaces an MCP tool's result only with updatedMCPToolOutput"},
	} {
		code, stdout, stderr := serve(c.payload, c.out)
		assert.Equal(t, hook.ExitError, code, c.name)
		assert.Empty(t, stdout, c.name)
		assert.Contains(t, stderr, "hook: invalid answer to PostToolUse: for Codex ", c.name)
		assert.Contains(t, stderr, c.saying, c.name)
		assert.NotContains(t, stderr, "Claude Code", c.name)
		assert.NotContains(t, stderr, "use UpdatedToolOutput", c.name)
	}
	code, stdout, stderr := serve(mcp, &hook.PostToolUseOutput{UpdatedMCPToolOutput: jsontext.Value(`[{"type":"text","text":"[redacted]"}]`)})
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":[{"type":"text","text":"[redacted]"}]}}`, stdout)
}
