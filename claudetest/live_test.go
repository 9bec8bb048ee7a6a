package claudetest

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

// TestRunReportsAToolNoRequestOffers: a script whose first tool Claude Code
// does not offer (a misspelled MCP tool) fails its test with the tools that
// were offered, instead of passing with no call made.
func TestRunReportsAToolNoRequestOffers(t *testing.T) {
	Need(t)
	t.Parallel()
	f := &failTB{T: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(f, Session{
			MCP:   []MCPServer{{Name: "probe", Tools: []MCPTool{{Name: "listen_here"}}}},
			Turns: []Turn{{MCP("probe", "listen_hear", `{}`)}},
		})
	}()
	<-done
	if assert.Len(t, f.errs, 1, "%q", f.errs) {
		assert.True(t, strings.HasPrefix(f.errs[0], `claudetest: no request offered "mcp__probe__listen_hear", the tool of the script's first call`), f.errs[0])
		assert.Contains(t, f.errs[0], `"mcp__probe__listen_here"`, "the tools offered")
	}
}
