package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/clientrun"
)

// TestCopilotHookctlInstall: a hook installed with hookctl install
// -agent copilot (the default, user scope) is loaded by the real Copilot
// and denies its shell call; hookctl doctor finds nothing wrong with the
// file it wrote.
func TestCopilotHookctlInstall(t *testing.T) {
	bin := needCopilot(t)
	t.Parallel()
	hookctl := hooktest.BuildGo(t, "../cmd/hookctl")
	hook := hooktest.BuildGo(t, "./testdata/shellhook")
	log := filepath.Join(t.TempDir(), "payloads.log")
	const cmd = "echo ran > marker.txt"
	ctl := func(home, project string, args ...string) string {
		c := exec.Command(hookctl, args...)
		c.Dir = project
		c.Env = append(os.Environ(), "HOME="+home)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "hookctl %v: %s", args, out)
		return string(out)
	}
	var doctor string
	r := runCopilot(t, bin, clientrun.Script{Turns: [][]clientrun.Call{{copilotShell(t, cmd)}}}, "", func(home, project string) {
		ctl(home, project, "install", "-agent", "copilot", "-event", "PreToolUse", "-timeout", "30", "--", hook, log, "deny")
		doctor = ctl(home, project, "doctor", "-agent", "copilot")
	})
	assert.Contains(t, doctor, "0 errors, 0 warnings")
	copilotPayload(t, log, cmd)
	assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the denied command ran")
	told, _ := r.API.ToolResult(clientrun.ChatCallID(1))
	assert.Equal(t, "Denied by preToolUse hook: shellhook: no "+cmd, told)
}

// TestCopilotProjectHooks: Copilot loads a project's .github/hooks in -p
// mode only once the folder is trusted (its trusted_folders in
// ~/.copilot/config.json, which the interactive trust prompt writes); a
// git repository alone is not enough.
func TestCopilotProjectHooks(t *testing.T) {
	bin := needCopilot(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "./testdata/shellhook")
	for _, c := range []struct {
		name         string
		git, trusted bool
	}{{"plain folder", false, false}, {"git repository", true, false}, {"trusted folder", false, true}} {
		log := filepath.Join(t.TempDir(), "payloads.log")
		r := runCopilot(t, bin, clientrun.Script{Turns: [][]clientrun.Call{{copilotShell(t, "echo ran > marker.txt")}}}, "", func(home, project string) {
			dir := filepath.Join(project, ".github", "hooks")
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "hooks.json"), []byte(copilotHooks(t, "PreToolUse", hook, log, "deny")), 0o644))
			if c.git {
				g := exec.Command("git", "init", "-q")
				g.Dir = project
				require.NoError(t, g.Run())
			}
			if c.trusted {
				require.NoError(t, os.WriteFile(filepath.Join(home, ".copilot", "config.json"), []byte(`{"trusted_folders":[`+quoteJSONString(project)+`]}`), 0o644))
			}
		})
		ran := 0
		if _, err := os.Stat(filepath.Join(r.Project, "marker.txt")); err == nil {
			ran = 1
		}
		if c.trusted {
			assert.Len(t, payloads(t, log), 1, "%s: the project's hook ran", c.name)
			assert.Equal(t, 0, ran, "%s: the denied command ran", c.name)
		} else {
			assert.Empty(t, payloads(t, log), "%s: the project's hook ran", c.name)
			assert.Equal(t, 1, ran, "%s: the command did not run", c.name)
		}
	}
}

// quoteJSONString returns s as a JSON string.
func quoteJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
