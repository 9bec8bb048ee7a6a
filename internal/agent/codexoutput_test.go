package agent

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckCodexToolOutput(t *testing.T) {
	assert.NoError(t, CheckCodexToolOutput("mcp__db__query", false, true), "an MCP tool's result is Codex's to replace")
	assert.NoError(t, CheckCodexToolOutput("Bash", false, false))
	for _, c := range []struct {
		tool          string
		out, mcp      bool
		field, saying string
	}{
		{"Bash", false, true, "hookSpecificOutput.updatedMCPToolOutput", `for Bash it reports "PostToolUse hook returned unsupported updatedMCPToolOutput"`},
		{"Bash", true, false, "hookSpecificOutput.updatedToolOutput", "under Codex the result of Bash cannot be replaced"},
		{"mcp__db__query", true, false, "hookSpecificOutput.updatedToolOutput", "it replaces an MCP tool's result only with updatedMCPToolOutput"},
	} {
		err := CheckCodexToolOutput(c.tool, c.out, c.mcp)
		var ce *CodexError
		require.True(t, errors.As(err, &ce), "%v", err)
		assert.Equal(t, c.field, ce.Field)
		assert.Contains(t, err.Error(), c.saying)
		assert.Contains(t, err.Error(), "Codex would refuse this PostToolUse answer")
		assert.NotContains(t, err.Error(), "Claude Code")
	}
}
