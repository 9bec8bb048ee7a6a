package agent

import (
	"fmt"
	"strings"
)

// CheckCodexToolOutput checks the rewrite of a tool's result in a
// PostToolUse answer to Codex, which its output schema alone does not
// tell: tool is the payload's tool_name; toolOutput and mcpToolOutput say
// whether the answer's hookSpecificOutput carries a non-null
// updatedToolOutput and updatedMCPToolOutput. Codex has no
// updatedToolOutput (its answer is closed), and applies
// updatedMCPToolOutput to an MCP tool's result only: for another tool it
// reports "PostToolUse hook returned unsupported updatedMCPToolOutput".
// Every refusal is a [*CodexError] that states Codex's rule, not Claude
// Code's: under Codex a shell output cannot be replaced at all.
func CheckCodexToolOutput(tool string, toolOutput, mcpToolOutput bool) error {
	mcp := strings.HasPrefix(tool, "mcp__")
	switch {
	case toolOutput && mcp:
		return &CodexError{Event: "PostToolUse", Field: "hookSpecificOutput.updatedToolOutput",
			Rule: "Codex has no updatedToolOutput (its PostToolUse answer is closed); it replaces an MCP tool's result only with updatedMCPToolOutput"}
	case toolOutput:
		return &CodexError{Event: "PostToolUse", Field: "hookSpecificOutput.updatedToolOutput",
			Rule: fmt.Sprintf("Codex has no updatedToolOutput (its PostToolUse answer is closed), and replaces only an MCP tool's result (with updatedMCPToolOutput): under Codex the result of %s cannot be replaced; give the model feedback with decision \"block\" and a reason, or additionalContext", toolLabel(tool))}
	case mcpToolOutput && !mcp:
		return &CodexError{Event: "PostToolUse", Field: "hookSpecificOutput.updatedMCPToolOutput",
			Rule: fmt.Sprintf("Codex applies updatedMCPToolOutput to an MCP tool's result only (for %s it reports \"PostToolUse hook returned unsupported updatedMCPToolOutput\"): under Codex the result of %s cannot be replaced; give the model feedback with decision \"block\" and a reason, or additionalContext", toolLabel(tool), toolLabel(tool))}
	}
	return nil
}

// toolLabel names tool in a message.
func toolLabel(tool string) string {
	if tool == "" {
		return "a tool that is not an MCP tool"
	}
	return tool
}
