package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
)

// shellProbe is a plugin hook command that records, in the project's
// shell.txt, what the shell Claude Code starts for a command hook is and
// sets: one name=value line each.
const shellProbe = `{ printf 'argv0=%s\n' "$0"; printf 'cmdline=%s\n' "$(tr '\0' ' ' < /proc/$$/cmdline)"; ` +
	`printf 'SHELL=%s\n' "$SHELL"; printf 'BASH_VERSION=%s\n' "$BASH_VERSION"; ` +
	`printf 'OSTYPE=%s\n' "$OSTYPE"; printf 'HOSTTYPE=%s\n' "$HOSTTYPE"; printf 'MACHTYPE=%s\n' "$MACHTYPE"; ` +
	`printf 'CLAUDE_PLUGIN_ROOT=%s\n' "$CLAUDE_PLUGIN_ROOT"; printf 'CLAUDE_PLUGIN_DATA=%s\n' "$CLAUDE_PLUGIN_DATA"; ` +
	`printf 'CLAUDE_PROJECT_DIR=%s\n' "$CLAUDE_PROJECT_DIR"; printf 'uname=%s\n' "$(uname -sm)"; } > "$CLAUDE_PROJECT_DIR/shell.txt"`

// TestPluginHookShell records which shell runs a plugin's command hook
// in shell form on Linux and what it sets (docs/e2e.md): /bin/sh -c
// COMMAND (dash on Debian, so no $BASH_VERSION, $OSTYPE or $HOSTTYPE),
// with ${CLAUDE_PLUGIN_ROOT} the plugin's folder. hookctl plugin build's
// command therefore works without bash's variables too. Setting SHELL
// to bash does not change the shell.
func TestPluginHookShell(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	plugin := t.TempDir()
	writeJSON(t, filepath.Join(plugin, ".claude-plugin", "plugin.json"), map[string]any{"name": "shellprobe"})
	writeJSON(t, filepath.Join(plugin, "hooks", "hooks.json"), map[string]any{"hooks": map[string]any{
		"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{
			map[string]any{"type": "command", "command": shellProbe},
		}}},
	}})
	// SHELL is unset in claudetest's runs; set to bash through the
	// settings' env it must change nothing.
	for _, env := range []map[string]any{nil, {"SHELL": "/bin/bash"}} {
		t.Run(fmt.Sprintf("env %v", env), func(t *testing.T) {
			var set map[string]any
			if env != nil {
				set = map[string]any{"env": env}
			}
			r := claudetest.Run(t, claudetest.Session{
				Turns:      []claudetest.Turn{{claudetest.Bash("echo ran")}},
				PluginDirs: []string{plugin},
				Settings:   set,
			})
			out, ok := r.File("shell.txt")
			require.True(t, ok, "the plugin's hook did not run; debug hooks: %q", r.DebugHooks)
			t.Logf("the hook's shell:\n%s", out)
			got := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				k, v, _ := strings.Cut(line, "=")
				got[k] = v
			}
			assert.Equal(t, "/bin/sh", got["argv0"], "the shell")
			assert.Equal(t, "/bin/sh -c "+shellProbe+" ", got["cmdline"], "the command line: sh -c and the command, unchanged")
			if sh, err := filepath.EvalSymlinks("/bin/sh"); err == nil && filepath.Base(sh) != "bash" {
				assert.Empty(t, got["BASH_VERSION"]+got["OSTYPE"]+got["HOSTTYPE"], "a POSIX sh sets none of bash's variables")
			}
			if env != nil {
				assert.Equal(t, "/bin/bash", got["SHELL"])
			}
			real, err := filepath.EvalSymlinks(plugin)
			require.NoError(t, err)
			assert.Contains(t, []string{plugin, real}, got["CLAUDE_PLUGIN_ROOT"], "CLAUDE_PLUGIN_ROOT is the plugin's folder")
			assert.NotEmpty(t, got["CLAUDE_PLUGIN_DATA"])
		})
	}
}

// writeJSON writes v as JSON to path, making its folder.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
}

// TestPluginBuiltByHookctl builds examples/fingerprint into a plugin
// with hookctl plugin build, for this system and macOS (all six systems
// take many minutes to cross-compile on a loaded machine; the layout and
// the command do not depend on how many), and has Claude
// Code load the plugin from its folder (claude --plugin-dir): the hook
// must fire through the plugin's launch command, run the Linux binary
// and its rewrite (the fingerprint it adds) reach the MCP tool, with the
// room byte for byte.
func TestPluginBuiltByHookctl(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	hookctl := hooktest.BuildGo(t, "../cmd/hookctl")
	plugin := filepath.Join(t.TempDir(), "fingerprint plugin")
	host := runtime.GOOS + "-" + runtime.GOARCH
	cmd := exec.Command(hookctl, "plugin", "build", "-dir", plugin, "-event", "PreToolUse",
		"-matcher", "mcp__probe__listen_here", "-on-failure", "block",
		"-targets", runtime.GOOS+"/"+runtime.GOARCH+",darwin/arm64", "../examples/fingerprint")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "hookctl plugin build: %s", out)
	t.Logf("hookctl plugin build:\n%s", out)
	for _, sys := range []string{host, "darwin-arm64"} {
		assert.FileExists(t, filepath.Join(plugin, "bin", "fingerprint-"+sys))
	}
	hooksJSON, err := os.ReadFile(filepath.Join(plugin, "hooks", "hooks.json"))
	require.NoError(t, err)
	t.Logf("hooks/hooks.json:\n%s", hooksJSON)

	const room = `{"room":"kitchen \u00e9 \ud83d\ude00","note":{"keep":[1,2.5,"x"]}}`
	r := claudetest.Run(t, claudetest.Session{
		MCP:        []claudetest.MCPServer{listenServer},
		Turns:      []claudetest.Turn{{claudetest.MCP("probe", "listen_here", room)}},
		PluginDirs: []string{plugin},
	})
	require.Len(t, r.MCPCalls, 1, "calls the MCP server received; debug hooks: %q", r.DebugHooks)
	args := r.MCPCalls[0].Arguments
	assert.Equal(t, `"`+fingerprintOf(r.Project)+`"`, string(field(t, args, "fingerprint")), "the plugin's rewrite reached the tool")
	assert.Equal(t, `"kitchen é 😀"`, string(field(t, args, "room")))
	assert.Equal(t, `{"keep":[1,2.5,"x"]}`, string(field(t, args, "note")), "members the hook does not know are kept byte for byte")
	res := told(t, r, 1)
	assert.False(t, res.IsError, res.Text)
	assert.Equal(t, "listening", res.Text)
}
