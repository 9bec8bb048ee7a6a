package e2e_test

// Codex's hook trust with the real client: the keys and hashes hookctl
// and internal/agent compute are those Codex computes, a hook installed
// with `hookctl install -agent codex -trust` runs without
// --dangerously-bypass-hook-trust, and one installed without it, or
// changed since, does not, as hookctl doctor says.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
)

// hookctlIn returns a function that runs hookctl (built once) in project
// with CODEX_HOME (and HOME) home, and returns its combined output and
// exit code.
func hookctlIn(t *testing.T) func(t *testing.T, home, project string, args ...string) (string, int) {
	bin := hooktest.BuildGo(t, "../cmd/hookctl")
	return func(t *testing.T, home, project string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "HOME="+home)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		require.NoError(t, err, "hookctl %v", args)
		return string(out), 0
	}
}

// codexSourceOf returns the path Codex names the file name of the folder
// dir by: dir with its symbolic links resolved.
func codexSourceOf(t *testing.T, dir, name string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	return filepath.Join(real, name)
}

// TestCodexTrustHashes: for the hooks of a user hooks.json (the file
// whose hashes internal/agent's unit test holds), of the user's
// config.toml and of a trusted project's .codex/hooks.json, the key and
// hash agent.CodexHooksOf computes are those `codex app-server` lists;
// with the listed hashes written as Codex writes them, hookctl doctor
// finds every hook trusted, as Codex does, and a hash changed in
// config.toml is reported by both as changed.
func TestCodexTrustHashes(t *testing.T) {
	bin := needCodex(t)
	t.Parallel()
	ctl := hookctlIn(t)
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".codex"), 0o755))
	require.NoError(t, os.MkdirAll(home, 0o755))

	userHooks, err := os.ReadFile(filepath.Join("..", "internal", "agent", "testdata", "codextrust", "hooks.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(home, "hooks.json"), userHooks, 0o644))
	projectHooks := []byte(`{"hooks":{"PostToolUse":[{"matcher":"Edit|Write","hooks":[{"type":"command","command":"/bin/true","timeout":15,"statusMessage":"checking"}]}],` +
		`"Stop":[{"matcher":"ignored","hooks":[{"type":"command","command":"/bin/true","async":true}]}]}}`)
	require.NoError(t, os.WriteFile(filepath.Join(project, ".codex", "hooks.json"), projectHooks, 0o644))
	config := codexMinimalConfig + `
[[hooks.PreToolUse]]
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "/bin/true --strict"
timeout = 10
timeoutSec = 99
statusMessage = "checking"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = '/bin/true'
async = true
additionalContextLimit = 7

[projects.'` + project + `']
trust_level = "trusted"
`
	require.NotContains(t, project, "'")
	configPath := filepath.Join(home, "config.toml")
	require.NoError(t, os.WriteFile(configPath, []byte(config), 0o644))

	listed, warnings := codexListHooks(t, bin, home, project)
	t.Logf("Codex's warnings: %q", warnings)
	ours := map[string]string{}
	for _, f := range []struct {
		dir  string
		data []byte
	}{{home, userHooks}, {filepath.Join(project, ".codex"), projectHooks}} {
		hooks, err := agent.CodexHooksOf(f.data)
		require.NoError(t, err)
		for _, h := range hooks {
			hash, err := h.Hash()
			require.NoError(t, err)
			ours[h.Key(codexSourceOf(t, f.dir, "hooks.json"))] = hash
		}
	}
	theirs := map[string]string{}
	tomlHooks := 0
	for _, h := range listed {
		assert.Equal(t, "untrusted", h.TrustStatus, h.Key)
		if filepath.Base(h.SourcePath) == "config.toml" {
			tomlHooks++
			continue
		}
		theirs[h.Key] = h.CurrentHash
	}
	assert.Equal(t, theirs, ours, "the keys and hashes of the hooks.json hooks")
	assert.Equal(t, 2, tomlHooks, "Codex lists the config.toml hooks: %+v", listed)
	assert.Len(t, ours, 12)

	// Every hook untrusted: doctor says so for each (the config.toml
	// ones included).
	doctor, _ := ctl(t, home, project, "doctor", "-agent", "codex")
	assert.Equal(t, len(listed), strings.Count(doctor, "installed, not trusted: will not run"), doctor)

	// Trust each with the hash Codex listed, as Codex writes it.
	var trust strings.Builder
	trust.WriteString(config)
	for _, h := range listed {
		trust.WriteString(trustTable(h.Key, h.CurrentHash))
	}
	require.NoError(t, os.WriteFile(configPath, []byte(trust.String()), 0o644))
	listed, _ = codexListHooks(t, bin, home, project)
	for _, h := range listed {
		assert.Equal(t, "trusted", h.TrustStatus, h.Key)
	}
	doctor, _ = ctl(t, home, project, "doctor", "-agent", "codex")
	assert.NotContains(t, doctor, "will not run", "hookctl computes the hashes Codex listed, config.toml's included")

	// A hash that is not the hook's: Codex and doctor say it changed.
	var tomlKey, tomlHash string
	for _, h := range listed {
		if strings.HasSuffix(h.Key, "config.toml:pre_tool_use:0:0") {
			tomlKey, tomlHash = h.Key, h.CurrentHash
		}
	}
	require.NotEmpty(t, tomlKey)
	changed := strings.Replace(trust.String(), trustTable(tomlKey, tomlHash), trustTable(tomlKey, "sha256:0000"), 1)
	require.NoError(t, os.WriteFile(configPath, []byte(changed), 0o644))
	listed, _ = codexListHooks(t, bin, home, project)
	for _, h := range listed {
		want := "trusted"
		if h.Key == tomlKey {
			want = "modified"
		}
		assert.Equal(t, want, h.TrustStatus, h.Key)
	}
	doctor, _ = ctl(t, home, project, "doctor", "-agent", "codex")
	assert.Equal(t, 1, strings.Count(doctor, "will not run"), doctor)
	assert.Regexp(t, `config.toml:\d+:\d+: error: changed since it was trusted`, doctor)
}

// TestCodexTrustRuns: without --dangerously-bypass-hook-trust, Codex
// runs a hook installed with `hookctl install -agent codex -trust` (in the
// user's layer and in a trusted project's), and none installed without
// -trust or changed since it was trusted; hookctl doctor says which will
// not run, and why.
func TestCodexTrustRuns(t *testing.T) {
	needCodex(t)
	ctl := hookctlIn(t)
	install := func(t *testing.T, home, project string, args ...string) {
		t.Helper()
		out, code := ctl(t, home, project, append([]string{"install", "-agent", "codex", "-event", "PreToolUse", "-matcher", "Bash"}, args...)...)
		require.Equal(t, 0, code, out)
	}
	const cmd = "echo ran > marker.txt"
	runs := func(t *testing.T, r shellCall) {
		t.Helper()
		codexPayload(t, r.Log, cmd)
		assert.Equal(t, []string{"Blocked"}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
		assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the denied command ran")
	}
	doesNotRun := func(t *testing.T, r shellCall) {
		t.Helper()
		assert.Empty(t, payloads(t, r.Log), "the hook ran")
		assert.Empty(t, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
		assert.FileExists(t, filepath.Join(r.Project, "marker.txt"))
	}

	t.Run("user", func(t *testing.T) {
		var doctor string
		r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
			s.CheckTrust = true
			s.Setup = func(home, project string) {
				install(t, home, project, "-scope", "user", "-trust", "--", hook, log, "deny")
				doctor, _ = ctl(t, home, project, "doctor", "-agent", "codex")
			}
		})
		assert.NotContains(t, doctor, "will not run")
		runs(t, r)
	})

	t.Run("project", func(t *testing.T) {
		r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
			s.CheckTrust = true
			s.Setup = func(home, project string) {
				trustProject(t, home, project)
				install(t, home, project, "-trust", "--", hook, log, "deny")
			}
		})
		runs(t, r)
	})

	t.Run("untrusted", func(t *testing.T) {
		var doctor string
		r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
			s.CheckTrust = true
			s.Setup = func(home, project string) {
				install(t, home, project, "-scope", "user", "--", hook, log, "deny")
				doctor, _ = ctl(t, home, project, "doctor", "-agent", "codex")
			}
		})
		assert.Regexp(t, `hooks.json:\d+:\d+: error: installed, not trusted: will not run`, doctor)
		doesNotRun(t, r)
	})

	t.Run("changed", func(t *testing.T) {
		var doctor string
		r := runShellCall(t, cmd, func(s *codexSession, hook, log string) {
			s.CheckTrust = true
			s.Setup = func(home, project string) {
				install(t, home, project, "-scope", "user", "-trust", "--", hook, log, "deny")
				install(t, home, project, "-scope", "user", "-timeout", "30", "--", hook, log, "deny")
				doctor, _ = ctl(t, home, project, "doctor", "-agent", "codex")
			}
		})
		assert.Contains(t, doctor, "changed since it was trusted")
		doesNotRun(t, r)
	})
}
