package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doctorJSON runs doctor -json and returns its findings and exit code.
func doctorJSON(t *testing.T, e *env, args ...string) ([]finding, int) {
	t.Helper()
	out, errOut, code := e.run(append([]string{"doctor", "-json"}, args...)...)
	var got []finding
	require.NoError(t, json.Unmarshal([]byte(out), &got), out+errOut)
	return got, code
}

// assertFindings checks that each want is among got, at the line of its
// text in its file, with a fix unless it is a note.
func assertFindings(t *testing.T, got []finding, files map[string]string, wants []want) {
	t.Helper()
	for _, w := range wants {
		line := lineOf(t, files[w.file], w.at)
		ok := false
		for _, f := range got {
			if f.Severity == w.sev && f.File == w.file && f.Line == line && strings.Contains(f.Msg, w.msg) {
				ok = true
				if f.Severity != sevNote {
					assert.NotEmpty(t, f.Fix, "%s: no fix", f.Msg)
				}
			}
		}
		assert.True(t, ok, "no %s at %s:%d containing %q", w.sev, w.file, line, w.msg)
	}
}

// TestDoctorHTTPAndOnFailure builds settings with one of each mistake of
// http hooks and onFailure, and checks that each is reported at its
// handler's line, and that the sound handlers beside them are not.
func TestDoctorHTTPAndOnFailure(t *testing.T) {
	e := newEnv(t)
	good := write(t, filepath.Join(e.project, "bin", "good"), "#!/bin/sh\n", 0o755)
	q := quote
	project := `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "http", "url": "https://hooks.example.com/guard", "headers": {"Authorization": "Bearer $HOOK_TOKEN"}, "allowedEnvVars": ["HOOK_TOKEN"]},
        {"type": "http", "url": "http://127.0.0.1:9/blocked"},
        {"type": "http", "url": "https://hooks.example.com/team", "headers": {"X-Team": "${TEAM_TOKEN}"}, "allowedEnvVars": ["TEAM_TOKEN"]},
        {"type": "http", "url": "https://hooks.example.com/unlisted", "headers": {"Authorization": "Bearer ${UNLISTED}"}},
        {"type": "http", "url": "https://hooks.example.com/key", "headers": {"X-Key": "$ANTHROPIC_API_KEY"}, "allowedEnvVars": ["ANTHROPIC_API_KEY", "HOOK_TOKEN"]},
        {"type": "command", "command": ` + q(good) + `, "args": ["guard-block"], "onFailure": "block"},
        {"type": "command", "command": ` + q(good) + `, "args": ["async-block"], "async": true, "onFailure": "block"},
        {"type": "command", "command": ` + q(good) + `, "args": ["bad-value"], "onFailure": "stop"},
        {"type": "command", "command": "C:\\hooks\\guard.exe --strict"},
        {"type": "command", "command": "\"C:\\hooks\\quoted.exe\" --strict"},
        {"type": "command", "command": "C:\\hooks\\exec.exe", "args": []}
      ]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["stop-block"], "onFailure": "block"}]}],
    "TaskCompleted": [{"hooks": [{"type": "http", "url": "https://hooks.example.com/done", "onFailure": "block"}]}],
    "SessionStart": [{"hooks": [
      {"type": "mcp_tool", "server": "s", "tool": "t", "onFailure": "block"},
      {"type": "http", "url": "https://hooks.example.com/start"}
    ]}],
    "Setup": [{"hooks": [{"type": "prompt", "prompt": "setup-prompt"}]}]
  }
}
`
	write(t, filepath.Join(e.project, ".claude", "settings.json"), project, 0o644)
	user := "{\n  \"allowedHttpHookUrls\": [\"https://hooks.example.com/*\"]\n}\n"
	write(t, filepath.Join(e.home, ".claude", "settings.json"), user, 0o644)
	managed := "{\n  \"httpHookAllowedEnvVars\": [\"HOOK_TOKEN\", \"ANTHROPIC_API_KEY\"],\n  \"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"http\", \"url\": \"http://127.0.0.1:9/managed\"}]}]}\n}\n"
	write(t, filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), managed, 0o644)
	ms := displayPath(filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), e.project)
	ps, us := filepath.Join(".claude", "settings.json"), filepath.Join("~", ".claude", "settings.json")

	got, code := doctorJSON(t, e)
	assert.Equal(t, 1, code)
	files := map[string]string{ps: project, ms: managed, us: user}
	assertFindings(t, got, files, []want{
		{"error", ps, `127.0.0.1:9/blocked`, `url "http://127.0.0.1:9/blocked" matches no pattern of allowedHttpHookUrls (` + us + `:2): Claude Code blocks the request`},
		{"error", ps, `/team"`, "header X-Team references $TEAM_TOKEN, which httpHookAllowedEnvVars (" + ms + ":2) does not list: Claude Code sends it empty"},
		{"error", ps, `/unlisted"`, "header Authorization references $UNLISTED, which the handler's allowedEnvVars does not list"},
		{"error", ps, `/key"`, "$ANTHROPIC_API_KEY, which Claude Code never fills in"},
		{"warning", ps, `"async-block"`, `onFailure "block" has no effect: an async hook cannot block`},
		{"error", ps, `"bad-value"`, `onFailure "stop" is neither`},
		{"warning", ps, `guard.exe --strict`, `C:\hooks\guard.exe in a shell command line: bash (Git Bash runs shell-form hooks on Windows) reads the backslashes as escapes and runs C:hooksguard.exe`},
		{"warning", ps, `"stop-block"`, `onFailure "block" has no effect: Claude Code ignores onFailure on Stop`},
		{"warning", ps, `/done"`, "Claude Code ignores onFailure on TaskCompleted"},
		{"warning", ps, `"server": "s"`, "ignores onFailure of an mcp_tool hook on SessionStart"},
		{"error", ps, `/start"`, "SessionStart does not take http handlers"},
		{"error", ps, `"setup-prompt"`, "Setup does not take prompt handlers"},
	})
	// The sound ones are not flagged; a quoted path and the exec form
	// keep their backslashes (those two programs do not exist here).
	for _, at := range []string{`/guard"`, `"guard-block"`, `quoted.exe`, `exec.exe`} {
		line := lineOf(t, project, at)
		for _, f := range got {
			if f.File == ps && f.Line == line && !strings.Contains(f.Msg, "does not exist") && !strings.Contains(f.Msg, "on Windows runs through") {
				assert.Equal(t, sevNote, f.Severity, "%s was flagged: %s", at, f.Msg)
			}
		}
	}
	// The managed hook is not held to the user's URL list: the managed
	// settings do not set one.
	for _, f := range got {
		if f.File == ms {
			assert.NotContains(t, f.Msg, "allowedHttpHookUrls", "a managed hook was held to another file's list")
		}
	}
	// Once the managed settings set a list too, the lists merge and hold
	// for the managed hooks as well.
	managed2 := strings.Replace(managed, "{\n", "{\n  \"allowedHttpHookUrls\": [\"http://localhost:*/*\"],\n", 1)
	write(t, filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), managed2, 0o644)
	got, _ = doctorJSON(t, e)
	assertFindings(t, got, map[string]string{ms: managed2}, []want{
		{"error", ms, `127.0.0.1:9/managed`, "matches no pattern of allowedHttpHookUrls (" + ms + ":2, " + us + ":2)"},
	})
	// An empty list allows no http hook.
	write(t, filepath.Join(e.home, ".claude", "settings.json"), "{\"allowedHttpHookUrls\": []}\n", 0o644)
	require.NoError(t, os.Remove(filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json")))
	got, _ = doctorJSON(t, e)
	assertFindings(t, got, files, []want{
		{"error", ps, `/guard"`, "allowedHttpHookUrls is empty (" + us + ":1): Claude Code allows no http hook"},
	})
}

// TestDoctorStrictPluginOnly checks that a managed
// strictPluginOnlyCustomization that locks hooks is reported at its key
// and at each user, project and local hook it hides, not at plugin or
// managed hooks; and that the same key outside managed settings is a note.
func TestDoctorStrictPluginOnly(t *testing.T) {
	e := newEnv(t)
	project := "{\"hooks\": {\"Stop\": [{\"hooks\": [\n  {\"type\": \"command\", \"command\": \"true\"}]}]},\n \"strictPluginOnlyCustomization\": true}\n"
	write(t, filepath.Join(e.project, ".claude", "settings.json"), project, 0o644)
	local := "{\"hooks\": {\"SessionEnd\": [{\"hooks\": [\n  {\"type\": \"command\", \"command\": \"true\"}]}]}}\n"
	write(t, filepath.Join(e.project, ".claude", "settings.local.json"), local, 0o644)
	plugin := filepath.Join(e.project, "plug")
	pluginHooks := "{\"hooks\": {\"Stop\": [{\"hooks\": [\n  {\"type\": \"command\", \"command\": \"echo plugin\"}]}]}}\n"
	write(t, filepath.Join(plugin, "hooks", "hooks.json"), pluginHooks, 0o644)

	got, code := doctorJSON(t, e, "-plugin", plugin)
	assert.Equal(t, 0, code)
	ps, ls := filepath.Join(".claude", "settings.json"), filepath.Join(".claude", "settings.local.json")
	assertFindings(t, got, map[string]string{ps: project}, []want{
		{"note", ps, `"strictPluginOnlyCustomization"`, "has effect only in managed settings"},
	})
	for _, f := range got {
		assert.NotContains(t, f.Msg, "locks hooks", "locked without managed settings")
	}

	managed := "{\n  \"strictPluginOnlyCustomization\": [\"skills\", \"hooks\"],\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo managed\"}]}]}\n}\n"
	write(t, filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), managed, 0o644)
	ms := displayPath(filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), e.project)
	got, _ = doctorJSON(t, e, "-plugin", plugin)
	assertFindings(t, got, map[string]string{ps: project, ls: local, ms: managed}, []want{
		{"warning", ms, `"strictPluginOnlyCustomization"`, "strictPluginOnlyCustomization locks hooks"},
		{"warning", ps, `"true"`, "the managed strictPluginOnlyCustomization (" + ms + ":2) locks hooks: Claude Code ignores this project hook"},
		{"warning", ls, `"true"`, "ignores this local hook"},
	})
	n := 0
	for _, f := range got {
		if strings.Contains(f.Msg, "ignores this") {
			n++
		}
	}
	assert.Equal(t, 2, n, "only the project and local hooks are hidden: %v", got)

	// A list without "hooks" locks other surfaces only.
	write(t, filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), strings.Replace(managed, `"skills", "hooks"`, `"skills", "mcp"`, 1), 0o644)
	got, _ = doctorJSON(t, e, "-plugin", plugin)
	for _, f := range got {
		assert.NotContains(t, f.Msg, "locks hooks")
	}
}

// TestURLMatches checks the allowedHttpHookUrls pattern matching: the
// whole URL, * for any run of characters, nothing else special.
func TestURLMatches(t *testing.T) {
	for _, c := range []struct {
		url, pattern string
		ok           bool
	}{
		{"https://hooks.example.com/guard", "https://hooks.example.com/*", true},
		{"https://hooks.example.com/", "https://hooks.example.com/*", true},
		{"https://hooks.example.com", "https://hooks.example.com/*", false},
		{"https://hooks.example.com/a/b?x=1", "https://hooks.example.com/*", true},
		{"https://hooks.example.com.evil.io/x", "https://hooks.example.com/*", false},
		{"http://hooks.example.com/x", "https://hooks.example.com/*", false},
		{"https://a.example.com/x", "https://*.example.com/*", true},
		{"https://example.com/x", "https://*.example.com/*", false},
		{"http://localhost:8080/hook", "http://localhost:*/hook", true},
		{"http://localhost:8080/hook/x", "http://localhost:*/hook", false},
		{"http://127.0.0.1:9/h", "http://127.0.0.1:9/h", true},
		{"http://127.0.0.1:9/h", "http://127.0.0.1:9/H", false},
		{"http://127.0.0.1:9/h", "http://127.0.0.1.9/h", false}, // a dot is a dot, not any character
		{"http://x/h", "*", true},
		{"http://x/aba", "http://x/a*a", true},
		{"http://x/a", "http://x/a*a", false},
		{"http://x/abcbd", "http://x/*b*d", true},
		{"http://x/abc", "http://x/*b*d", false},
		{"", "*", true},
		{"http://x/h", "", false},
	} {
		assert.Equal(t, c.ok, urlMatches(c.url, c.pattern), "%q against %q", c.url, c.pattern)
	}
}

// TestBackslashPath checks which shell command lines hold a Windows path
// that bash would mangle.
func TestBackslashPath(t *testing.T) {
	for cmd, want := range map[string]string{
		`C:\hooks\guard.exe`:                 `C:\hooks\guard.exe`,
		`C:\hooks\guard.exe --x`:             `C:\hooks\guard.exe`,
		`node C:\hooks\g.js`:                 `C:\hooks\g.js`,
		`\\server\share\g.exe`:               `\\server\share\g.exe`,
		`.\g.exe`:                            `.\g.exe`,
		`hooks\g.exe`:                        `hooks\g.exe`,
		`"C:\hooks\g.exe"`:                   "",
		`'C:\hooks\g.exe'`:                   "",
		`C:/hooks/g.exe`:                     "",
		`echo \$HOME`:                        "",
		`echo a\ b`:                          "",
		`grep -E 'a\d' x`:                    "",
		`/bin/guard && C:\x\y.exe`:           `C:\x\y.exe`,
		`"$CLAUDE_PROJECT_DIR"/bin/g --flag`: "",
		`"$CLAUDE_PROJECT_DIR"\hooks\g.exe`:  `"$CLAUDE_PROJECT_DIR"\hooks\g.exe`,
		`"C:\x \"y\"\z" ok`:                  "",
		`grep foo\.bar f`:                    "",
		`echo 'unclosed`:                     "",
	} {
		assert.Equal(t, want, backslashPath(cmd), cmd)
	}
	assert.Equal(t, `C:hooksg.exe`, bashReads(`C:\hooks\g.exe`))
	assert.Equal(t, `\servershare`, bashReads(`\\server\share`))
}
