package e2e_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/clientrun"
)

// TestCopilotProtectfiles: examples/protectfiles under the real GitHub
// Copilot CLI, whose create, edit and view calls reach it as Write, Edit
// and Read naming the file "path": a create and a view of .env are
// denied with the reason, and the file is neither written nor read; an
// ordinary file is written.
func TestCopilotProtectfiles(t *testing.T) {
	bin := needCopilot(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "../examples/protectfiles")
	r := runCopilot(t, bin, clientrun.Script{Turns: [][]clientrun.Call{
		{{Tool: "create", Input: `{"path":".env","file_text":"KEY=1\n"}`}},
		{{Tool: "view", Input: `{"path":".env.local"}`}},
		{{Tool: "create", Input: `{"path":"notes.txt","file_text":"hello\n"}`}},
	}}, copilotHooks(t, "PreToolUse", hook), func(_, project string) {
		require.NoError(t, os.WriteFile(filepath.Join(project, ".env.local"), []byte("SECRET=2\n"), 0o600))
	})
	assert.NoFileExists(t, filepath.Join(r.Project, ".env"), "protectfiles let Copilot's create of .env through")
	for i, want := range []string{"protectfiles blocked Write of " + filepath.Join(r.Project, ".env"), "protectfiles blocked Read of " + filepath.Join(r.Project, ".env.local")} {
		told, ok := r.API.ToolResult(clientrun.ChatCallID(i + 1))
		require.True(t, ok, "call %d", i+1)
		assert.Contains(t, told, want, "call %d", i+1)
		assert.NotContains(t, told, "SECRET=2")
	}
	assert.FileExists(t, filepath.Join(r.Project, "notes.txt"))
}
