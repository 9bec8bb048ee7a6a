package codextest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook/internal/testutil"
)

// runFailing runs s and returns the failures it reported.
func runFailing(t *testing.T, s Session) []string {
	return testutil.Failing(t, func(tb *testutil.FailTB) { Run(tb, s) }).Errs
}

// TestCodexRunReportsAToolItLacks: a script calling a tool Codex does not
// have (a misspelt MCP tool) fails its test with the tools that were
// offered, instead of passing with no call made.
func TestCodexRunReportsAToolItLacks(t *testing.T) {
	Need(t)
	t.Parallel()
	errs := runFailing(t, Session{
		MCP:   []MCPServer{{Name: "probe", Tools: []MCPTool{{Name: "listen_here"}}}},
		Turns: []Turn{{MCP("probe", "listen_hear", `{}`)}},
	})
	if assert.Len(t, errs, 1, "%q", errs) {
		assert.True(t, strings.HasPrefix(errs[0], `codextest: call 1: Codex has no tool "mcp__probe__listen_hear"`), errs[0])
		assert.Contains(t, errs[0], `"mcp__probe__listen_here"`, "the tools offered")
		assert.Contains(t, errs[0], `"exec_command"`, "the tools offered")
	}
}

// TestCodexRunReportsABrokenConfig: a Session.Config that Codex cannot load
// fails the test with Codex's exit code and its complaint.
func TestCodexRunReportsABrokenConfig(t *testing.T) {
	Need(t)
	t.Parallel()
	errs := runFailing(t, Session{Config: "model = \"another\"\n"})
	if assert.NotEmpty(t, errs) {
		assert.Contains(t, strings.Join(errs, "\n"), "codex exited 1")
	}
}
