package claudetest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook/internal/testutil"
)

// TestRunReportsAToolNoRequestOffers: a script whose first tool Claude Code
// does not offer (a misspelled MCP tool) fails its test with the tools that
// were offered, instead of passing with no call made.
func TestRunReportsAToolNoRequestOffers(t *testing.T) {
	Need(t)
	t.Parallel()
	f := testutil.Failing(t, func(tb *testutil.FailTB) {
		Run(tb, Session{
			MCP:   []MCPServer{{Name: "probe", Tools: []MCPTool{{Name: "listen_here"}}}},
			Turns: []Turn{{MCP("probe", "listen_hear", `{}`)}},
		})
	})
	if assert.Len(t, f.Errs, 1, "%q", f.Errs) {
		assert.True(t, strings.HasPrefix(f.Errs[0], `claudetest: no request offered "mcp__probe__listen_hear", the tool of the script's first call`), f.Errs[0])
		assert.Contains(t, f.Errs[0], `"mcp__probe__listen_here"`, "the tools offered")
	}
}

// TestInterruptWhen: the file's appearance interrupts the turn while the
// Bash call that made it runs; a recorder sees Claude Code's Interrupt;
// a file that never appears fails the test, saying so.
func TestInterruptWhen(t *testing.T) {
	Need(t)
	t.Parallel()
	r := Run(t, Session{
		Turns:         []Turn{{Bash("touch go.txt && sleep 60 && touch late.txt")}},
		Hooks:         []Hook{{Event: "Interrupt"}},
		InterruptWhen: "go.txt",
	})
	assert.True(t, r.Interrupted)
	assert.Equal(t, 1, r.ExitCode)
	if runs := r.HooksOf("record", "Interrupt"); assert.Len(t, runs, 1, "%v", r.Events()) {
		src, _ := runs[0].Input("source")
		assert.Equal(t, `"user"`, string(src))
	}
	_, late := r.File("late.txt")
	assert.False(t, late)

	f := testutil.Failing(t, func(tb *testutil.FailTB) {
		Run(tb, Session{Turns: []Turn{{Bash("echo hi")}}, InterruptWhen: "never.txt"})
	})
	if assert.Len(t, f.Errs, 1, "%q", f.Errs) {
		assert.Contains(t, f.Errs[0], "Session.InterruptWhen: never.txt never appeared in the project")
	}
}
