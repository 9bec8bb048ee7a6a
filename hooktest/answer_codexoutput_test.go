package hooktest_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

// An answer to Codex that rewrites a tool's result is judged by Codex's
// rule, in Codex's words.
func TestCheckAnswerCodexToolOutput(t *testing.T) {
	var bash jsontext.Value
	for _, f := range hooktest.CodexFixtures() {
		if f.Name == "codex/post-tool-use" {
			bash = f.JSON
		}
	}
	require.NotNil(t, bash)
	mcp := hooktest.WithField(bash, "tool_name", "mcp__db__query")
	for _, c := range []struct {
		name, answer string
		payload      jsontext.Value
		want         string // "" for no violation
	}{
		{"Bash, legacy field", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"x"}}`, bash, "/hookSpecificOutput/updatedMCPToolOutput: Codex would refuse this PostToolUse answer: hookSpecificOutput.updatedMCPToolOutput: Codex applies updatedMCPToolOutput to an MCP tool's result only"},
		{"Bash, new field", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"x"}}`, bash, "/hookSpecificOutput/updatedToolOutput: Codex would refuse this PostToolUse answer: hookSpecificOutput.updatedToolOutput: Codex has no updatedToolOutput"},
		{"MCP, legacy field", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"x"}}`, mcp, ""},
	} {
		err := hooktest.CheckAnswer(c.payload, 0, []byte(c.answer), nil)
		if c.want == "" {
			assert.NoError(t, err, c.name)
			continue
		}
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
		assert.NotContains(t, err.Error(), "Claude Code", c.name)
	}
}
