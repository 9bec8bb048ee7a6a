package agent

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNotServed(t *testing.T) {
	assert.Empty(t, ClaudeCode.NotServed(true))
	assert.Empty(t, Codex.NotServed(false))
	assert.Empty(t, CopilotCLI.NotServed(true))
	for _, a := range []Agent{Cursor, GeminiCLI, CopilotCLICamel, Unknown} {
		closed, open := a.NotServed(true), a.NotServed(false)
		for _, m := range []string{closed, open} {
			assert.Contains(t, m, a.String())
			assert.NotContains(t, m, "\n", "one line")
		}
		assert.Contains(t, closed, "blocked")
		assert.Contains(t, open, "let the call proceed")
		assert.False(t, strings.Contains(open, "blocked"))
	}
}
