//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/settings"
)

// TestInstallRefusesNamedPipe checks that a named pipe where a settings
// file, a Codex hooks.json or config.toml, or a plugin's hooks.json should
// be neither blocks hookctl nor leaves a lock or temporary file: install
// used to wait for a writer forever.
func TestInstallRefusesNamedPipe(t *testing.T) {
	e, home := codexEnv(t)
	path := filepath.Join(e.project, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	assertCLIRefuses(t, e, path, "a named pipe")
	codexPath := filepath.Join(e.project, ".claude", "hooks.json")
	require.NoError(t, syscall.Mkfifo(codexPath, 0o600))
	assertCLIRefuses(t, e, codexPath, "a named pipe", "-agent", "codex")

	// list and doctor read the files: they report the pipe, and return.
	_, errOut, code := e.runNoBlock("list")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "a named pipe")
	_, _, _ = e.runNoBlock("doctor")

	// A config.toml that is a pipe beside the Codex hooks.json install writes.
	require.NoError(t, syscall.Mkfifo(filepath.Join(home, "config.toml"), 0o600))
	_, errOut, code = e.runNoBlock("install", "-agent", "codex", "-scope", "user", "-event", "Stop", "--", "/opt/stop")
	assert.Equal(t, 0, code, errOut)
	_, _, _ = e.runNoBlock("list", "-agent", "codex")
	_, _, _ = e.runNoBlock("doctor", "-agent", "codex")

	// A plugin whose hooks.json is a pipe.
	plugin := t.TempDir()
	hooksFile := settings.PluginHooksFile(plugin)
	require.NoError(t, os.MkdirAll(filepath.Dir(hooksFile), 0o755))
	require.NoError(t, syscall.Mkfifo(hooksFile, 0o600))
	_, errOut, code = e.runNoBlock("install", "-plugin", plugin, "-event", "Stop", "--", "/opt/stop")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "a named pipe")
	assert.Equal(t, []string{"hooks.json"}, dirNames(t, filepath.Dir(hooksFile)))
}
