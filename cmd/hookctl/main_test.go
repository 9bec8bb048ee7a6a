package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/settings"
)

// env is a fake machine: a home with a Claude config folder, and a project.
type env struct {
	t             *testing.T
	home, project string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "proj")}
	require.NoError(t, os.MkdirAll(filepath.Join(e.home, ".claude"), 0o755))
	require.NoError(t, os.MkdirAll(e.project, 0o755))
	t.Setenv("HOME", e.home)
	t.Setenv("USERPROFILE", e.home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_CODE_PLUGIN_CACHE_DIR", "")
	t.Setenv("HOOKCTL_MANAGED_DIR", filepath.Join(root, "managed"))
	// The ledger (os.UserConfigDir) goes under the fake home too.
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(e.home, ".config"))
	t.Setenv("AppData", filepath.Join(e.home, "AppData", "Roaming"))
	return e
}

// run runs hookctl with -project set (placed after the command name).
func (e *env) run(args ...string) (stdout, stderr string, code int) {
	var o, er bytes.Buffer
	full := append([]string{args[0], "-project", e.project}, args[1:]...)
	code = run(full, &o, &er)
	return o.String(), er.String(), code
}

// write writes a file under root, making folders; mode 0o755 for programs.
func write(t *testing.T, path, content string, mode os.FileMode) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), mode))
	return path
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// lineOf returns the line (from 1) of the first occurrence of s in content.
func lineOf(t *testing.T, content, s string) int {
	t.Helper()
	i := strings.Index(content, s)
	require.GreaterOrEqual(t, i, 0, "%q not in the file", s)
	return 1 + strings.Count(content[:i], "\n")
}

func TestInstallListUninstall(t *testing.T) {
	e := newEnv(t)
	prog := write(t, filepath.Join(e.project, "bin", "guard"), "#!/bin/sh\n", 0o755)
	settingsPath := filepath.Join(e.project, ".claude", "settings.json")
	orig := "{\r\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\r\n    \"n\": 100000000000000000000001\r\n}"
	write(t, settingsPath, orig, 0o600)

	out, errOut, code := e.run("install", "-event", "PreToolUse", "-matcher", "Bash", "-timeout", "5", "--", prog, "--policy", "strict")
	require.Equal(t, 0, code, errOut)
	shown := settings.Handler{Command: prog, Args: []string{"--policy", "strict"}}.String() // quoted where it has backslashes
	assert.Equal(t, filepath.Join(".claude", "settings.json")+": installed PreToolUse[Bash] "+shown+"\n", out)
	installed := read(t, settingsPath)
	assert.True(t, strings.HasPrefix(installed, "{\r\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\r\n    \"n\": 100000000000000000000001,\r\n    \"hooks\": {\r\n        \"PreToolUse\": ["), installed)
	assert.NotContains(t, strings.ReplaceAll(installed, "\r\n", ""), "\n", "LF in a CRLF file")

	out, _, code = e.run("install", "-event", "PreToolUse", "-matcher", "Bash", "-timeout", "5", "--", prog, "--policy", "strict")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "already installed, unchanged")
	assert.Equal(t, installed, read(t, settingsPath))

	out, errOut, code = e.run("list")
	require.Equal(t, 0, code, errOut)
	line := lineOf(t, installed, `"type": "command"`) - 1
	assert.Contains(t, out, "project  "+filepath.Join(".claude", "settings.json")+":"+strconv.Itoa(line)+"  PreToolUse  Bash     "+shown+"  (timeout 5s)")

	out, _, code = e.run("list", "-json")
	require.Equal(t, 0, code)
	var got []listed
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	require.Len(t, got, 1)
	assert.Equal(t, listed{Scope: "project", File: filepath.Join(".claude", "settings.json"), Line: line, Column: 21, Event: "PreToolUse",
		Matcher: "Bash", Type: "command", Command: prog, Args: []string{"--policy", "strict"}, Timeout: 5}, got[0])

	out, errOut, code = e.run("uninstall", "-dry-run", "-event", "PreToolUse", "-matcher", "Bash", "--", prog, "--policy", "strict")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "-        \"PreToolUse\": [\r\n")
	assert.Equal(t, installed, read(t, settingsPath), "a dry run wrote")

	out, errOut, code = e.run("uninstall", "-event", "PreToolUse", "-matcher", "Bash", "--", prog, "--policy", "strict")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "removed 1 handler(s)")
	assert.Equal(t, orig, read(t, settingsPath), "uninstall did not restore the file")

	_, errOut, code = e.run("uninstall", "-event", "PreToolUse", "-matcher", "Bash", "--", prog, "--policy", "strict")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "nothing to uninstall")
}

func TestInstallScopesAndShellForm(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ scope, file string }{
		{"user", filepath.Join(e.home, ".claude", "settings.json")},
		{"project", filepath.Join(e.project, ".claude", "settings.json")},
		{"local", filepath.Join(e.project, ".claude", "settings.local.json")},
	} {
		_, errOut, code := e.run("install", "-scope", c.scope, "-event", "Stop", "--", `notify-send "done: $CLAUDE_PROJECT_DIR"`)
		require.Equal(t, 0, code, errOut)
		hs, err := settings.ReadFile(c.file)
		require.NoError(t, err)
		require.Len(t, hs, 1, c.scope)
		assert.Nil(t, hs[0].Handler.Args, "shell form expected")
		assert.Equal(t, `notify-send "done: $CLAUDE_PROJECT_DIR"`, hs[0].Handler.Command)
	}
	// CLAUDE_CONFIG_DIR moves the user settings.
	cfg := filepath.Join(e.home, "cfg")
	t.Setenv("CLAUDE_CONFIG_DIR", cfg)
	_, errOut, code := e.run("install", "-scope", "user", "-event", "SessionStart", "-matcher", "startup", "--", "/bin/true")
	require.Equal(t, 0, code, errOut)
	hs, err := settings.ReadFile(filepath.Join(cfg, "settings.json"))
	require.NoError(t, err)
	assert.Len(t, hs, 1)

	// -settings FILE
	other := filepath.Join(e.project, "elsewhere.json")
	_, errOut, code = e.run("install", "-settings", other, "-event", "Stop", "-exec", "--", "/bin/true")
	require.Equal(t, 0, code, errOut)
	hs, err = settings.ReadFile(other)
	require.NoError(t, err)
	require.Len(t, hs, 1)
	assert.Equal(t, []string{}, hs[0].Handler.Args, "-exec writes args")
}

func TestInstallPlugin(t *testing.T) {
	e := newEnv(t)
	dir := filepath.Join(e.project, "myplugin")
	write(t, filepath.Join(dir, "bin", "hook"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(dir, "policy.json"), "{}", 0o644)
	_, errOut, code := e.run("install", "-plugin", dir, "-event", "PostToolUse", "-matcher", "Write|Edit", "--",
		filepath.Join(dir, "bin", "hook"), "policy.json", "--verbose")
	require.Equal(t, 0, code, errOut)
	hs, err := settings.ReadFile(filepath.Join(dir, "hooks", "hooks.json"))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	assert.Equal(t, "${CLAUDE_PLUGIN_ROOT}/bin/hook", hs[0].Handler.Command)
	assert.Equal(t, []string{"${CLAUDE_PLUGIN_ROOT}/policy.json", "--verbose"}, hs[0].Handler.Args)

	out, errOut, code := e.run("list", "-plugin", dir)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "plugin myplugin  "+filepath.FromSlash("myplugin/hooks/hooks.json")+":7  PostToolUse  Write|Edit  ${CLAUDE_PLUGIN_ROOT}/bin/hook ${CLAUDE_PLUGIN_ROOT}/policy.json --verbose")

	out, errOut, code = e.run("doctor", "-plugin", dir)
	assert.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, "0 errors, 0 warnings")

	// The same plugin, installed: listed only when enabled.
	rec := `{"version": 2, "plugins": {"myplugin@market": [{"scope": "user", "installPath": ` + quote(dir) + `}]}}`
	write(t, filepath.Join(e.home, ".claude", "plugins", "installed_plugins.json"), rec, 0o644)
	write(t, filepath.Join(e.home, ".claude", "plugins", "known_marketplaces.json"), `{"market": {}}`, 0o644)
	out, _, _ = e.run("list")
	assert.NotContains(t, out, "myplugin@market")
	write(t, filepath.Join(e.project, ".claude", "settings.json"), `{"enabledPlugins": {"myplugin@market": true}}`, 0o644)
	out, _, _ = e.run("list")
	assert.Contains(t, out, "plugin myplugin@market  "+filepath.FromSlash("myplugin/hooks/hooks.json")+":7")
	write(t, filepath.Join(e.project, ".claude", "settings.local.json"), `{"enabledPlugins": {"myplugin@market": false}}`, 0o644)
	out, _, _ = e.run("list")
	assert.NotContains(t, out, "myplugin@market", "local settings disable it")
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestUsageErrors(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"install", "-event", "Stop"}, "no command"},
		{[]string{"install", "--", "x"}, "-event is required"},
		{[]string{"install", "-event", "pretooluse", "--", "x"}, `unknown event "pretooluse"`},
		{[]string{"install", "-event", "Stop", "-scope", "user", "-plugin", "p", "--", "x"}, "give one of"},
		{[]string{"install", "-event", "Stop", "-scope", "global", "--", "x"}, `unknown scope "global"`},
		{[]string{"install", "-event", "PreToolUse", "-matcher", "Bash|Read(", "--", "x"}, "invalid JavaScript regular expression"},
		{[]string{"install", "-event", "Stop", "-if", "Bash(git *)", "--", "x"}, `never runs on this event`},
		{[]string{"install", "-event", "Stop", "-timeout", "-1", "--", "x"}, "give 0 or more seconds"},
		{[]string{"install", "-event", "Stop", "-nope", "--", "x"}, "not defined"},
		{[]string{"list", "extra"}, "unexpected argument"},
	} {
		_, errOut, code := e.run(c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.msg, "%v", c.args)
	}
	var o, er bytes.Buffer
	assert.Equal(t, 2, run([]string{"frobnicate"}, &o, &er))
	assert.Equal(t, 2, run(nil, &o, &er))
	_, errOut, code := e.run("install", "-event", "Stop", "-timeout", "5000", "--", "/bin/true")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "-timeout 5000 is 1.4 hours: Claude Code reads seconds")
	_, errOut, code = e.run("install", "-event", "Stop", "--", "$CLAUDE_PROJECT_DIR/bin/x", "${CLAUDE_PROJECT_DIR}/y")
	assert.Equal(t, 0, code)
	assert.Equal(t, "hookctl: warning: $CLAUDE_PROJECT_DIR is not substituted in exec form (no shell runs); write ${CLAUDE_PROJECT_DIR}\n", errOut)
}

func TestInstallRefusesBadFile(t *testing.T) {
	e := newEnv(t)
	p := filepath.Join(e.project, ".claude", "settings.json")
	bad := "{\n  \"model\": \"opus\", // mine\n}\n"
	write(t, p, bad, 0o644)
	_, errOut, code := e.run("install", "-event", "Stop", "--", "/bin/true")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "hookctl: "+filepath.Join(".claude", "settings.json")+":2:20: comments are not JSON")
	assert.Equal(t, bad, read(t, p))
	_, errOut, code = e.run("install", "-dry-run", "-event", "Stop", "--", "/bin/true")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, filepath.Join(".claude", "settings.json")+":2:20: comments are not JSON")
}

func TestUnifiedDiff(t *testing.T) {
	assert.Equal(t, "", unifiedDiff("f", "a\n", "a\n"))
	assert.Equal(t, "--- f\n+++ f\n@@ -0,0 +1,1 @@\n+{}\n", unifiedDiff("f", "", "{}\n"))
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	b := "1\n2\n3\n4\n5\nX\n6\n7\n8\n9\n10"
	assert.Equal(t, "--- f\n+++ f\n@@ -3,8 +3,9 @@\n 3\n 4\n 5\n+X\n 6\n 7\n 8\n 9\n-10\n+10\n\\ No newline at end of file\n", unifiedDiff("f", a, b))
}

func TestPluginPath(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "policy.json"), "{}", 0o644)
	t.Chdir(filepath.Dir(root))
	base := filepath.Base(root)
	for in, want := range map[string]string{
		filepath.Join(root, "bin", "gone"):   "${CLAUDE_PLUGIN_ROOT}/bin/gone",
		"./" + base + "/bin/x":               "${CLAUDE_PLUGIN_ROOT}/bin/x",
		base + "/bin/x":                      "${CLAUDE_PLUGIN_ROOT}/bin/x",
		"policy.json":                        "${CLAUDE_PLUGIN_ROOT}/policy.json",
		"--check":                            "--check",
		"other.json":                         "other.json",
		root:                                 root,
		filepath.Join(root, "..", "sibling"): filepath.Join(root, "..", "sibling"),
		"/usr/bin/env":                       "/usr/bin/env",
		"${CLAUDE_PLUGIN_ROOT}/x":            "${CLAUDE_PLUGIN_ROOT}/x",
	} {
		assert.Equal(t, want, pluginPath(root, in), in)
	}
}
