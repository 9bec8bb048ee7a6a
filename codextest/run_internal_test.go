package codextest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// failTB records the failures of a Run instead of failing the test.
type failTB struct {
	*testing.T
	errs []string
}

func (f *failTB) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *failTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}

func (f *failTB) Failed() bool { return len(f.errs) > 0 }

// runFailing runs s through a failTB and returns the failures.
func runFailing(t *testing.T, s Session) []string {
	f := &failTB{T: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(f, s)
	}()
	<-done
	return f.errs
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
