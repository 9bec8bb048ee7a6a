package main

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dirNames lists the entries of dir ("" when it does not exist).
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// runNoBlock runs hookctl and fails the test when it has not returned
// after a minute (a named pipe opened for reading waits for a writer).
func (e *env) runNoBlock(args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	type result struct {
		o, er string
		c     int
	}
	done := make(chan result, 1)
	go func() {
		o, er, c := e.run(args...)
		done <- result{o, er, c}
	}()
	select {
	case r := <-done:
		return r.o, r.er, r.c
	case <-time.After(time.Minute):
		e.t.Fatalf("hookctl %v is still blocked after a minute", args)
		return "", "", 0
	}
}

// assertCLIRefuses runs every hookctl command that writes or reads the
// settings path (named shown in messages) for the agent, and checks that
// each write is refused, naming the file's type, reads report it without
// blocking, and the folder holds what it held before.
func assertCLIRefuses(t *testing.T, e *env, path, want string, agentArgs ...string) {
	t.Helper()
	dir := filepath.Dir(path)
	before := dirNames(t, dir)
	fi0, err := os.Lstat(path)
	require.NoError(t, err)
	base := append([]string{"-event", "PreToolUse", "-matcher", "Bash"}, agentArgs...)
	base = append(base, "-settings", path)
	for _, cmd := range [][]string{
		append(append([]string{"install"}, base...), "--", "/opt/guard"),
		append(append([]string{"install", "-dry-run"}, base...), "--", "/opt/guard"),
		append(append([]string{"uninstall"}, base...), "--", "/opt/guard"),
		append(append([]string{"uninstall", "-dry-run"}, base...), "--", "/opt/guard"),
	} {
		_, errOut, code := e.runNoBlock(cmd...)
		assert.Equal(t, 1, code, "%v: %s", cmd, errOut)
		assert.Contains(t, errOut, want, "%v", cmd)
		assert.Contains(t, errOut, "not a regular file", "%v", cmd)
		assert.Equal(t, before, dirNames(t, dir), "%v left something behind", cmd)
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, fi0.Mode(), fi.Mode(), "%v changed the node", cmd)
	}
}

// TestInstallRefusesDanglingLink checks that a settings file that is a
// link to nothing is refused, and not replaced by a file, for Claude Code
// and for Codex.
func TestInstallRefusesDanglingLink(t *testing.T) {
	e, _ := codexEnv(t)
	dir := filepath.Join(e.project, ".claude")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(filepath.Join(e.project, "dotfiles", "settings.json"), link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("symbolic links need privileges on Windows: %v", err)
		}
		require.NoError(t, err)
	}
	assertCLIRefuses(t, e, link, "which does not exist")
	codexLink := filepath.Join(dir, "hooks.json")
	require.NoError(t, os.Symlink(filepath.Join(e.project, "dotfiles", "hooks.json"), codexLink))
	assertCLIRefuses(t, e, codexLink, "which does not exist", "-agent", "codex")
	_, err := os.Lstat(filepath.Join(e.project, "dotfiles"))
	assert.True(t, os.IsNotExist(err), "the link's target folder was created")
}

// TestInstallRefusesDirectory checks a folder where the file should be.
func TestInstallRefusesDirectory(t *testing.T) {
	e, _ := codexEnv(t)
	path := filepath.Join(e.project, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(path, 0o755))
	assertCLIRefuses(t, e, path, "a directory")
	assertCLIRefuses(t, e, path, "a directory", "-agent", "codex")
}

// TestPluginOutputsRefuseNonRegular checks that plugin build neither
// writes a manifest through a dangling link nor replaces a binary path
// that is not a regular file.
func TestPluginOutputsRefuseNonRegular(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".claude-plugin")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	link := filepath.Join(dir, "plugin.json")
	if err := os.Symlink(filepath.Join(root, "elsewhere", "plugin.json"), link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("symbolic links need privileges on Windows: %v", err)
		}
		require.NoError(t, err)
	}
	created, err := writeManifest(root, "p")
	assert.False(t, created)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "which does not exist")
	assert.Equal(t, []string{"plugin.json"}, dirNames(t, dir))
	_, err = os.Lstat(filepath.Join(root, "elsewhere"))
	assert.True(t, os.IsNotExist(err))

	bin := filepath.Join(root, "bin")
	out := filepath.Join(bin, binName("h", target{"linux", "amd64"}))
	require.NoError(t, os.MkdirAll(out, 0o755))
	err = buildTarget("./testdata/pluginhook", out, target{"linux", "amd64"}, os.Stderr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a directory, not a regular file")
	assert.Equal(t, []string{filepath.Base(out)}, dirNames(t, bin), "a temporary folder was left")
	assert.NoError(t, checkReplaceable(filepath.Join(bin, "absent")))
}
