package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
)

// codexHookctl builds hookctl and returns a function that runs it in
// project with CODEX_HOME (and HOME) home, and returns its output.
func codexHookctl(t *testing.T) func(t *testing.T, home, project string, args ...string) string {
	hookctl := hooktest.BuildGo(t, "../cmd/hookctl")
	return func(t *testing.T, home, project string, args ...string) string {
		t.Helper()
		cmd := exec.Command(hookctl, args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "HOME="+home)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "hookctl %v: %s", args, out)
		return string(out)
	}
}

// codexHooksFileOK checks that the hooks.json at path is one Codex loads.
func codexHooksFileOK(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, agent.CheckCodexHooksFile(b), "%s", b)
}

// TestCodexHookctlInstall: a hook installed by `hookctl install -agent
// codex` fires on the real Codex. In the user layer ($CODEX_HOME/hooks.json,
// a file hookctl creates) the guard's deny blocks the shell call; in the
// project layer (.codex/hooks.json, read once the user's config.toml
// trusts the project) its rewrite runs instead of the original command.
// Both files pass agent.CheckCodexHooksFile, and hookctl list -agent codex
// names the hook with its file.
func TestCodexHookctlInstall(t *testing.T) {
	needCodex(t)
	ctl := codexHookctl(t)

	t.Run("user", func(t *testing.T) {
		const cmd = "echo ran > marker.txt"
		var listed string
		r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
			s.Setup = func(home, project string) {
				ctl(t, home, project, "install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse",
					"-matcher", "Bash", "-timeout", "60", "--", hook, log, "deny")
				codexHooksFileOK(t, filepath.Join(home, "hooks.json"))
				listed = ctl(t, home, project, "list", "-agent", "codex")
			}
		})
		assert.Regexp(t, `user +\S*hooks.json:\d+ +PreToolUse +Bash `, listed)
		codexPayload(t, r.Log, cmd)
		assert.Equal(t, []string{"Blocked"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
		assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the denied command ran")
		assert.Contains(t, r.toolOutput(t, "call_1"), "shellhook: no "+cmd)
	})

	t.Run("project", func(t *testing.T) {
		const cmd = "echo original > orig.txt"
		r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
			s.Setup = func(home, project string) {
				ctl(t, home, project, "install", "-agent", "codex", "-event", "PreToolUse", "-matcher", "Bash",
					"--", hook, log, "allow", rewrittenCommand)
				codexHooksFileOK(t, filepath.Join(project, ".codex", "hooks.json"))
				trustProject(t, home, project)
			}
		})
		codexPayload(t, r.Log, cmd)
		assert.Equal(t, []string{"Completed"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
		assert.NoFileExists(t, filepath.Join(r.Project, "orig.txt"), "the original command ran")
		got, err := os.ReadFile(filepath.Join(r.Project, "out.txt"))
		require.NoError(t, err, "the rewritten command did not run; told the model: %s", r.toolOutput(t, "call_1"))
		assert.Equal(t, rewritten+"\n", string(got))
	})
}

// TestCodexProjectHooksNeedTrust: the same project install without the
// user's config.toml trusting the project: Codex does not load the
// project's .codex/ layer, so the hook never runs and the command does.
// hookctl install says so in a note, and doctor -agent codex reports it.
func TestCodexProjectHooksNeedTrust(t *testing.T) {
	needCodex(t)
	ctl := codexHookctl(t)
	var doctor string
	r := runShellCall(t, "echo ran > marker.txt", func(s *codexSession, hook, log string) {
		s.Setup = func(home, project string) {
			ctl(t, home, project, "install", "-agent", "codex", "-event", "PreToolUse", "-matcher", "Bash", "--", hook, log, "deny")
			doctor = ctl(t, home, project, "doctor", "-agent", "codex")
		}
	})
	assert.Contains(t, doctor, "only when the project is trusted")
	assert.Empty(t, payloads(t, r.Log), "the hook of an untrusted project ran")
	assert.Empty(t, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
	assert.FileExists(t, filepath.Join(r.Project, "marker.txt"))
}

// trustProject appends to home's config.toml the table that marks project
// trusted, without which Codex does not load its .codex/ layer.
func trustProject(t *testing.T, home, project string) {
	t.Helper()
	require.NotContains(t, project, "'", "a TOML literal string cannot hold a quote")
	f, err := os.OpenFile(filepath.Join(home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteString("[projects.'" + project + "']\ntrust_level = \"trusted\"\n")
	require.NoError(t, err)
}
