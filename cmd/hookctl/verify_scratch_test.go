package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/settings"
)

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	require.NoError(t, writeFileMkdir(p, []byte(content)))
}

// userSetup makes a user's HOME and project with hooks in the user and
// project settings, a plugin, credentials and state that verify must not
// copy, and returns the loaded configuration.
func userSetup(t *testing.T) (*loaded, string) {
	t.Helper()
	dir := t.TempDir()
	home, proj, plugin := filepath.Join(dir, "home"), filepath.Join(dir, "proj"), filepath.Join(dir, "plug")
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CLAUDE_CODE_PLUGIN_CACHE_DIR", "")
	t.Setenv("HOOKCTL_MANAGED_DIR", filepath.Join(dir, "managed"))
	writeTestFile(t, filepath.Join(home, ".claude", "settings.json"), `{
  "model": "opus",
  "apiKeyHelper": "/bin/print-key",
  "env": {"ANTHROPIC_BASE_URL": "https://example.invalid", "HTTPS_PROXY": "http://proxy", "KEEP": "1"},
  "enabledPlugins": {"x@y": true},
  "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "~/.claude/hooks/ctx.sh"}]}]}
}`)
	writeTestFile(t, filepath.Join(home, ".claude", "hooks", "ctx.sh"), "#!/bin/sh\necho ctx\n")
	writeTestFile(t, filepath.Join(home, ".claude", ".credentials.json"), `{"claudeAiOauth":{"accessToken":"sk-secret"}}`)
	writeTestFile(t, filepath.Join(home, ".claude", "github-token"), "ghp_secret")
	writeTestFile(t, filepath.Join(home, ".claude", "projects", "p", "s.jsonl"), "transcript")
	writeTestFile(t, filepath.Join(home, ".claude.json"), `{"primaryApiKey":"sk-secret","oauthAccount":{"email":"a@b"},"projects":{"`+proj+`":{"hasTrustDialogAccepted":true,"allowedTools":[]}}}`)
	writeTestFile(t, filepath.Join(proj, ".claude", "settings.json"), `{
  "permissions": {"allow": ["Bash"]},
  "hooks": {"PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard", "args": ["-x"], "timeout": 9, "onFailure": "block", "statusMessage": "guarding"}]},
    {"matcher": "Write", "hooks": [{"type": "command", "command": "echo hi", "shell": "bash", "if": "Write(src/*)"}]}
  ]}
}`)
	writeTestFile(t, filepath.Join(proj, ".claude", "hooks", "x.sh"), "#!/bin/sh\n")
	writeTestFile(t, filepath.Join(proj, ".claude", "worktrees", "big", "f"), "no")
	writeTestFile(t, filepath.Join(plugin, ".claude-plugin", "plugin.json"), `{"name":"plug"}`)
	writeTestFile(t, filepath.Join(plugin, "lib", "tokenizer.js"), "code")
	writeTestFile(t, filepath.Join(plugin, "hooks", "hooks.json"), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/stop.sh"}]}]}}`)
	l, err := load(proj, []string{plugin})
	require.NoError(t, err)
	require.Empty(t, l.errs)
	require.Len(t, l.hooks, 4)
	return l, dir
}

// TestScratchCarriesTheConfigurationWithoutCredentials builds the scratch
// of each hook and checks what it holds: the user's settings without the
// other hooks, what reaches out or hands out keys, and installed plugins;
// the hook under test behind the recorder with its options; copies of the
// user's and project's .claude folders without credentials, transcripts
// or worktrees; the plugin copy; the project's trust alone.
func TestScratchCarriesTheConfigurationWithoutCredentials(t *testing.T) {
	l, dir := userSetup(t)
	before := userFiles{}
	var all []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all = append(all, p)
		}
		return nil
	})
	before.digest(all...)
	v := &verifier{l: l, exe: "/bin/hookctl", work: t.TempDir(), files: userFiles{}, trusted: projectTrusted(userClaudeJSON(l.locs), l.locs.Project)}
	assert.True(t, v.trusted)

	var guard int
	for i, f := range l.hooks {
		if f.hook.Handler.Command == "guard" {
			guard = i
		}
	}
	s, err := v.prepareScratch(guard, verifyPlan{})
	require.NoError(t, err)

	user, err := os.ReadFile(filepath.Join(s.home, ".claude", "settings.json"))
	require.NoError(t, err)
	us := string(user)
	for _, gone := range []string{"apiKeyHelper", "example.invalid", "HTTPS_PROXY", "enabledPlugins", "ctx.sh"} {
		assert.NotContains(t, us, gone)
	}
	assert.Contains(t, us, `"KEEP": "1"`)
	assert.Contains(t, us, `"model": "opus"`)

	proj, err := os.ReadFile(filepath.Join(s.proj, ".claude", "settings.json"))
	require.NoError(t, err)
	hs, err := settings.Parse(proj)
	require.NoError(t, err)
	var wrapped []settings.Hook
	for _, h := range hs {
		if strings.Contains(strings.Join(h.Handler.Args, " "), "-label "+hookLabel) {
			wrapped = append(wrapped, h)
		}
	}
	require.Len(t, wrapped, 1, "the hook under test alone: %s", proj)
	w := wrapped[0]
	assert.Equal(t, "PreToolUse", w.Event)
	assert.Equal(t, "Bash", w.Matcher)
	assert.Equal(t, "/bin/hookctl", w.Handler.Command)
	assert.Equal(t, []string{"__tap", "-dir", s.capDir, "-label", hookLabel, "--", "guard", "-x"}, w.Handler.Args)
	assert.Equal(t, 9.0, w.Handler.Timeout)
	assert.Equal(t, "block", w.Handler.OnFailure)
	assert.Equal(t, "guarding", w.Handler.StatusMessage)
	assert.Contains(t, string(proj), `"allow"`, "permissions kept")
	assert.Contains(t, string(proj), observerLabel, "verify's recorders of what the tool received")

	_, err = os.Stat(filepath.Join(s.home, ".claude", "hooks", "ctx.sh"))
	assert.NoError(t, err, "the user's hook scripts are copied")
	_, err = os.Stat(filepath.Join(s.proj, ".claude", "hooks", "x.sh"))
	assert.NoError(t, err, "the project's .claude is copied")
	for _, p := range []string{
		filepath.Join(s.home, ".claude", ".credentials.json"), filepath.Join(s.home, ".claude", "github-token"),
		filepath.Join(s.home, ".claude", "projects"), filepath.Join(s.proj, ".claude", "worktrees"),
	} {
		_, err := os.Stat(p)
		assert.ErrorIs(t, err, os.ErrNotExist, "%s must not be copied", p)
	}
	assert.Empty(t, credentialsIn(s.home))
	cj, err := os.ReadFile(filepath.Join(s.home, ".claude.json"))
	require.NoError(t, err)
	assert.NotContains(t, string(cj), "sk-secret")
	assert.NotContains(t, string(cj), "oauthAccount")
	assert.Contains(t, string(cj), `"hasTrustDialogAccepted":true`)

	require.Len(t, s.plugins, 1)
	ph, err := os.ReadFile(settings.PluginHooksFile(s.plugins[0]))
	require.NoError(t, err)
	assert.NotContains(t, string(ph), "stop.sh", "the plugin's other hooks are left out")
	_, err = os.Stat(filepath.Join(s.plugins[0], ".claude-plugin", "plugin.json"))
	assert.NoError(t, err)
	_, err = os.Stat(filepath.Join(s.plugins[0], "lib", "tokenizer.js"))
	assert.NoError(t, err, "a plugin is code: copied whole")

	// The plugin's hook, in a run of its own, keeps its placeholder.
	for i, f := range l.hooks {
		if f.src.Scope == settings.ScopePlugin {
			s, err := v.prepareScratch(i, verifyPlan{})
			require.NoError(t, err)
			ph, err := os.ReadFile(settings.PluginHooksFile(s.plugins[0]))
			require.NoError(t, err)
			assert.Contains(t, string(ph), `"${CLAUDE_PLUGIN_ROOT}/stop.sh"`)
		}
	}

	assert.Empty(t, before.changed(), "the user's files are untouched")
	assert.Empty(t, v.files.changed())
	// A change is caught.
	writeTestFile(t, filepath.Join(l.locs.ConfigDir, "settings.json"), "{}")
	assert.Equal(t, []string{filepath.Join(l.locs.ConfigDir, "settings.json")}, v.files.changed())
}

// TestScratchRefusesACredential: a scratch that holds something named
// like a credential stops the run.
func TestScratchRefusesACredential(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "home", ".claude.json"), `{"primaryApiKey":"k"}`)
	writeTestFile(t, filepath.Join(dir, "home", "x", "aws-secret.txt"), "k")
	got := credentialsIn(dir)
	assert.Len(t, got, 2, "%q", got)
	for _, n := range []string{".credentials.json", "id_rsa.key", "npm-token", "API_KEY.txt", "client.pem"} {
		assert.True(t, secretName(n), n)
	}
	for _, n := range []string{"settings.json", "hooks", "guard.sh", "CLAUDE.md", "author.txt", "keys.go"} {
		assert.False(t, secretName(n), n)
	}
}

func TestWrapHandlerShellFormAndHang(t *testing.T) {
	raw := jsontext.Value(`{"type":"command","command":"echo hi","shell":"bash","if":"Write(src/*)","timeout":30,"async":true}`)
	h := settings.Handler{Command: "echo hi", Shell: "bash", If: "Write(src/*)", Timeout: 30, Async: true}
	out, err := wrapHandler(raw, h, "/bin/hookctl", "/cap", clientrun.FailHang)
	require.NoError(t, err)
	hs, err := settings.Parse([]byte(`{"hooks":{"PreToolUse":[{"hooks":[` + string(out) + `]}]}}`))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	w := hs[0].Handler
	assert.Empty(t, w.Shell, "the recorder runs the shell itself")
	assert.Equal(t, "Write(src/*)", w.If)
	assert.True(t, w.Async)
	assert.Equal(t, float64(hangTimeout), w.Timeout, "a hang is cut to hangTimeout")
	n := len(w.Args)
	require.GreaterOrEqual(t, n, 3)
	assert.Equal(t, []string{"-c", "echo hi"}, w.Args[n-2:], "the shell-form line, run by a shell")
	assert.Contains(t, strings.Join(w.Args, " "), "-fail hang --")

	// No timeout at all: one is added for a hang.
	out, err = wrapHandler(jsontext.Value(`{"command":"x"}`), settings.Handler{Command: "x"}, "/bin/hookctl", "/cap", clientrun.FailHang)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"timeout": 5`)
}

// TestVerifyPolicyExplainsNotFired: disableAllHooks names the file.
func TestVerifyPolicyExplainsNotFired(t *testing.T) {
	l, _ := userSetup(t)
	writeTestFile(t, filepath.Join(l.locs.Project, ".claude", "settings.local.json"), `{"disableAllHooks": true}`)
	r := applyPolicy(l, l.hooks[0], hookReport{Status: statusNotFired})
	assert.Equal(t, "disabled: disableAllHooks is true in .claude/settings.local.json", r.Why)
	r = applyPolicy(l, l.hooks[0], hookReport{Status: statusFired})
	assert.Empty(t, r.Why, "only a hook that did not fire is explained")
}
