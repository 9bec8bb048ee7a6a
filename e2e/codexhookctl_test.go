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

// TestCodexHookctlInstall: a hook installed by `hookctl install -agent
// codex` fires on the real Codex. In the user layer ($CODEX_HOME/hooks.json,
// a file hookctl creates) the guard's deny blocks the shell call; in the
// project layer (.codex/hooks.json, read once the user's config.toml
// trusts the project) its rewrite runs instead of the original command.
// Both files pass agent.CheckCodexHooksFile, and hookctl list -agent codex
// names the hook with its file.
func TestCodexHookctlInstall(t *testing.T) {
	bin := needCodex(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "./testdata/codexhook")
	hookctl := hooktest.BuildGo(t, "../cmd/hookctl")
	ctl := func(t *testing.T, home, project string, args ...string) string {
		t.Helper()
		cmd := exec.Command(hookctl, args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "HOME="+home)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "hookctl %v: %s", args, out)
		return string(out)
	}

	t.Run("user", func(t *testing.T) {
		t.Parallel()
		log := filepath.Join(t.TempDir(), "payloads.log")
		const cmd = "echo ran > marker.txt"
		var listed string
		r := runCodex(t, bin, codexSession{
			Turns: []any{execCommand(cmd), map[string]any{"say": "ok"}},
			Setup: func(home, project string) {
				ctl(t, home, project, "install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse",
					"-matcher", "Bash", "-timeout", "60", "--", hook, log, "deny")
				b, err := os.ReadFile(filepath.Join(home, "hooks.json"))
				require.NoError(t, err)
				require.NoError(t, agent.CheckCodexHooksFile(b), "%s", b)
				listed = ctl(t, home, project, "list", "-agent", "codex")
			},
		})
		assert.Contains(t, listed, "hooks.json")
		assert.Contains(t, listed, "PreToolUse")
		codexPayload(t, log, cmd)
		assert.Equal(t, []string{"Blocked"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
		assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the denied command ran")
		assert.Contains(t, r.toolOutput(t, "call_1"), "codexhook: no "+cmd)
	})

	t.Run("project", func(t *testing.T) {
		t.Parallel()
		log := filepath.Join(t.TempDir(), "payloads.log")
		const cmd = "echo original > orig.txt"
		r := runCodex(t, bin, codexSession{
			Turns: []any{execCommand(cmd), map[string]any{"say": "ok"}},
			Setup: func(home, project string) {
				ctl(t, home, project, "install", "-agent", "codex", "-event", "PreToolUse", "-matcher", "Bash",
					"--", hook, log, "allow", rewrittenCommand)
				b, err := os.ReadFile(filepath.Join(project, ".codex", "hooks.json"))
				require.NoError(t, err)
				require.NoError(t, agent.CheckCodexHooksFile(b), "%s", b)
				trustProject(t, home, project)
			},
		})
		codexPayload(t, log, cmd)
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
// (hookctl install says so in a note, and doctor -agent codex reports it.)
func TestCodexProjectHooksNeedTrust(t *testing.T) {
	bin := needCodex(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "./testdata/codexhook")
	hookctl := hooktest.BuildGo(t, "../cmd/hookctl")
	log := filepath.Join(t.TempDir(), "payloads.log")
	var doctor string
	r := runCodex(t, bin, codexSession{
		Turns: []any{execCommand("echo ran > marker.txt"), map[string]any{"say": "ok"}},
		Setup: func(home, project string) {
			for _, args := range [][]string{
				{"install", "-agent", "codex", "-event", "PreToolUse", "-matcher", "Bash", "--", hook, log, "deny"},
				{"doctor", "-agent", "codex"},
			} {
				cmd := exec.Command(hookctl, args...)
				cmd.Dir = project
				cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "HOME="+home)
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "hookctl %v: %s", args, out)
				doctor = string(out)
			}
		},
	})
	assert.Contains(t, doctor, "only when the project is trusted")
	assert.Empty(t, payloads(t, log), "the hook of an untrusted project ran")
	assert.Empty(t, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
	assert.FileExists(t, filepath.Join(r.Project, "marker.txt"))
}

// trustProject appends to home's config.toml the table that marks project
// trusted, without which Codex does not load its .codex/ layer.
func trustProject(t *testing.T, home, project string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	q, err := tomlQuote(project)
	require.NoError(t, err)
	_, err = f.WriteString("[projects." + q + "]\ntrust_level = \"trusted\"\n")
	require.NoError(t, err)
}

// tomlQuote writes s as a TOML literal string.
func tomlQuote(s string) (string, error) {
	for _, c := range s {
		if c == '\'' || c == '\n' {
			return "", os.ErrInvalid
		}
	}
	return "'" + s + "'", nil
}
