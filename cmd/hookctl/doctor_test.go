package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// want is one finding doctor must report: its severity, the file and the
// text on the line it points at, and part of the message.
type want struct {
	sev, file, at, msg string
}

// TestDoctorFindsEachMistake builds a project, a user config and three
// plugins holding one of each mistake doctor knows, and checks that every
// mistake is reported at its file and line, with a fix, and that doctor
// exits 1.
func TestDoctorFindsEachMistake(t *testing.T) {
	e := newEnv(t)
	good := write(t, filepath.Join(e.project, "bin", "good"), "#!/bin/sh\n", 0o755)
	notExec := write(t, filepath.Join(e.project, "bin", "notexec"), "#!/bin/sh\n", 0o644)
	missing := filepath.Join(filepath.Dir(e.project), "nonexistent", "hook")
	q := quote

	project := `{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash|Read(", "hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["invalid-matcher"]}]},
      {"matcher": "bash", "hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["no-tool"]}]},
      {"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": ` + q(good) + `, "args": ["ms"], "timeout": 5000},
        {"type": "command", "command": ` + q(good) + `, "args": ["zero"], "timeout": 0},
        {"type": "command", "command": ` + q(good) + `, "args": ["str"], "timeout": "30"},
        {"type": "command", "command": ` + q(filepath.ToSlash(missing)) + `},
        {"type": "command", "command": ` + q(notExec) + `},
        {"type": "command", "command": "no-such-program-xyz --flag"},
        {"type": "command", "command": "node \"$CLAUDE_PROJECT_DIR\"/hooks/missing.js"},
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/x"},
        {"type": "command", "command": ` + q(good) + `, "args": ["$HOME/x"]},
        {"type": "command", "command": ` + q(good) + `, "args": ["bad-if"], "if": "Bash(git *"},
        {"command": ` + q(good) + `, "args": ["no-type"]},
        {"type": "command", "command": "$CLAUDE_PROJECT_DIR/bin/good", "args": ["unbraced"]},
        {"type": "command", "command": "${CLAUDE_PROJECT_DIR}/bin/good", "args": ["braced"]},
        {"type": "command", "command": ` + q(good) + `, "args": ["typo"], "timeOut": 5}
      ]}
    ],
    "Stop": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["stop-matcher"]}]},
      {"hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["stop-if"], "if": "Bash(git *)"}]}
    ],
    "SessionStart": [
      {"hooks": [{"type": "http", "url": "http://127.0.0.1:9/h"}]}
    ],
    "pretooluse": [
      {"hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["case"]}]}
    ],
    "PostToolUse": [
      {"matcher": "Write", "hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["dup"]}]}
    ]
  },
  "SessionEnd": [{"hooks": [{"type": "command", "command": "true"}]}]
}
`
	write(t, filepath.Join(e.project, ".claude", "settings.json"), project, 0o644)
	local := `{"hooks": {"PostToolUse": [
  {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["dup"]}]},
  {"matcher": "Read", "hooks": [{"type": "command", "command": ` + q(good) + `, "args": ["dup"]}]}
]}}
`
	write(t, filepath.Join(e.project, ".claude", "settings.local.json"), local, 0o644)
	user := "{\n  \"model\": \"opus\",\n  // my settings\n  \"hooks\": {}\n}\n"
	write(t, filepath.Join(e.home, ".claude", "settings.json"), user, 0o644)

	// Plugin "misplaced" (installed and enabled): hooks under .claude-plugin/.
	misplaced := filepath.Join(e.home, ".claude", "plugins", "cache", "market", "misplaced", "1.0.0")
	write(t, filepath.Join(misplaced, ".claude-plugin", "plugin.json"), `{"name": "misplaced"}`, 0o644)
	write(t, filepath.Join(misplaced, ".claude-plugin", "hooks.json"), `{"hooks": {}}`, 0o644)
	write(t, filepath.Join(e.home, ".claude", "plugins", "installed_plugins.json"),
		`{"version": 2, "plugins": {"misplaced@market": [{"scope": "user", "installPath": `+q(misplaced)+`}], "stray@nowhere": [{"scope": "user", "installPath": "/p/stray"}]}}`, 0o644)
	write(t, filepath.Join(e.home, ".claude", "plugins", "known_marketplaces.json"), `{"market": {"source": {"source": "github", "repo": "o/market"}}}`, 0o644)
	write(t, filepath.Join(e.project, ".claude", "settings.local.json"), strings.Replace(local, `{"hooks"`, `{"enabledPlugins": {"misplaced@market": true, "stray@nowhere": true}, "hooks"`, 1), 0o644)
	local = read(t, filepath.Join(e.project, ".claude", "settings.local.json"))

	// Plugin "nowrap" (--plugin-dir): events at the top level.
	nowrap := filepath.Join(e.project, "plugins", "nowrap")
	nowrapHooks := "{\n  \"PreToolUse\": [\n    {\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}\n  ]\n}\n"
	write(t, filepath.Join(nowrap, "hooks", "hooks.json"), nowrapHooks, 0o644)

	// Plugin "vars" (--plugin-dir): ${PLUGIN_ROOT}, and the project's
	// "dup" hook once more.
	vars := filepath.Join(e.project, "plugins", "vars")
	write(t, filepath.Join(vars, "bin", "run"), "#!/bin/sh\n", 0o755)
	varsHooks := `{
  "hooks": {
    "PostToolUse": [
      {"matcher": "Write", "hooks": [
        {"type": "command", "command": "${PLUGIN_ROOT}/bin/run"},
        {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/run"},
        {"type": "command", "command": ` + q(good) + `, "args": ["dup"]}
      ]}
    ]
  }
}
`
	write(t, filepath.Join(vars, "hooks", "hooks.json"), varsHooks, 0o644)

	// Managed settings that keep the others from running.
	managed := "{\n  \"allowManagedHooksOnly\": true,\n  \"hooks\": {\"SessionEnd\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}\n"
	write(t, filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), managed, 0o644)
	dropIn := "{\"disableAllHooks\": true}\n"
	write(t, filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.d", "10-off.json"), dropIn, 0o644)

	out, errOut, code := e.run("doctor", "-json", "-plugin", nowrap, "-plugin", vars)
	assert.Equal(t, 1, code, errOut)
	var got []finding
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)

	fp := filepath.FromSlash
	ps, ls := fp(".claude/settings.json"), fp(".claude/settings.local.json")
	nw, vs, us := fp("plugins/nowrap/hooks/hooks.json"), fp("plugins/vars/hooks/hooks.json"), fp("~/.claude/settings.json")
	ms := displayPath(filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.json"), e.project)
	md := displayPath(filepath.Join(os.Getenv("HOOKCTL_MANAGED_DIR"), "managed-settings.d", "10-off.json"), e.project)
	files := map[string]string{ps: project, ls: local, nw: nowrapHooks, vs: varsHooks, us: user, ms: managed, md: dropIn}
	wants := []want{
		{"error", us, "// my settings", "comments are not JSON"},
		{"warning", ms, `"allowManagedHooksOnly"`, "only managed hooks"},
		{"warning", md, `"disableAllHooks"`, "Claude Code runs no hooks at all"},
		{"error", ps, `"Bash|Read("`, "invalid JavaScript regular expression"},
		{"warning", ps, `"bash"`, `matcher "bash" matches no built-in tool`},
		{"note", ps, `"ms"`, `matcher "Edit|Write" matches Edit, Write`},
		{"warning", ps, `"ms"`, "timeout 5000 looks like milliseconds"},
		{"error", ps, `"zero"`, "timeout 0 is not positive"},
		{"error", ps, `"30"`, `"timeout" must be a number of seconds, found a string`},
		{"error", ps, `nonexistent`, "command " + missing + " does not exist"},
		{"error", ps, `no-such-program-xyz`, `command "no-such-program-xyz" is not found in PATH`},
		{"error", ps, `${CLAUDE_PLUGIN_ROOT}/bin/x`, "only set for hooks in a plugin"},
		{"warning", ps, `$HOME/x`, "$HOME is not expanded in exec form"},
		{"error", ps, `"bad-if"`, `if "Bash(git *"`},
		{"error", ps, `"no-type"`, `the handler has no "type"`},
		{"warning", ps, `"typo"`, `field "timeOut" is not one Claude Code reads for a command handler`},
		{"error", ps, `"unbraced"`, `$CLAUDE_PROJECT_DIR is not substituted in exec form: the program path is looked for literally`},
		{"warning", ps, `"stop-matcher"`, `Stop has no matcher: Claude Code ignores "Bash"`},
		{"error", ps, `"stop-if"`, "never runs on this event"},
		{"error", ps, `"http://127.0.0.1:9/h"`, "SessionStart does not take http handlers"},
		{"error", ps, `"case"`, `unknown event "pretooluse"`},
		{"error", ps, `"SessionEnd"`, `event "SessionEnd" is at the top level of the file, outside "hooks"`},
		{"warning", ps, `"dup"`, "is also registered at " + ls + ":2 (local), " + vs + ":7 (plugin vars): it runs 2 times, concurrently"},
		{"error", fp("~/.claude/plugins/cache/market/misplaced/1.0.0/.claude-plugin/hooks.json"), "", "plugin misplaced@market keeps its hooks here"},
		{"error", nw, `"PreToolUse"`, `no top-level "hooks" wrapper`},
		{"warning", fp("~/.claude/plugins/installed_plugins.json"), "", `plugin stray@nowhere is enabled, but Claude Code does not know its marketplace "nowhere"`},
		{"error", vs, `${PLUGIN_ROOT}`, "unknown variable ${PLUGIN_ROOT}"},
	}
	if runtime.GOOS != "windows" { // Windows has no executable bit
		wants = append(wants, want{"error", ps, filepath.Base(notExec), "is not executable"})
	}
	if _, err := exec.LookPath("node"); err == nil { // else: "node" is not found in PATH
		wants = append(wants, want{"error", ps, `missing.js`, "node script " + fp("hooks/missing.js") + " does not exist"})
	}
	for _, w := range wants {
		line := 0
		if w.at != "" {
			line = lineOf(t, files[w.file], w.at)
		}
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
	n := 0
	for _, f := range got {
		if strings.Contains(f.Msg, "comments are not JSON") {
			n++
		}
	}
	assert.Equal(t, 1, n, "a file that cannot be read is reported once")
	// The dup registration in local under "Read" does not overlap "Write":
	// it is reported against the Edit|Write one only.
	for _, f := range got {
		if f.File == ls && f.Line == 3 {
			assert.NotContains(t, f.Msg, "also registered", "Read and Write do not overlap")
		}
		assert.NotContains(t, f.Msg, "${CLAUDE_PLUGIN_ROOT}/bin/run", "the good plugin hook was flagged")
		if f.Line == lineOf(t, project, `"braced"`) {
			assert.Equal(t, sevNote, f.Severity, "the braced placeholder was flagged: %s", f.Msg)
		}
	}

	// The text form gives file:line:col, the severity and the fix.
	out, _, code = e.run("doctor", "-q", "-plugin", nowrap, "-plugin", vars)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, fmt.Sprintf("%s:%d:", nw, lineOf(t, nowrapHooks, `"PreToolUse"`))+"3: error: this hooks.json has no top-level \"hooks\" wrapper")
	assert.Contains(t, out, "    fix: write the file as {\"hooks\": {\"PreToolUse\": [...]}}")
	assert.NotContains(t, out, ": note: ")
	assert.Regexp(t, `\d+ hooks in 7 files: \d+ errors, \d+ warnings\n$`, out)
}

// TestDoctorClean checks that a sound setup has no errors or warnings and
// exits 0.
func TestDoctorClean(t *testing.T) {
	e := newEnv(t)
	onSystem(t, "linux") // shell-form commands are warnings on Windows
	prog := write(t, filepath.Join(e.project, "bin", "guard"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(e.project, ".claude", "settings.json"), `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/bin/guard --x", "timeout": 10}]}],
  "Stop": [{"hooks": [{"type": "command", "command": `+quote(prog)+`, "args": ["${CLAUDE_PROJECT_DIR}"]}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo hi && date"}]}]
}}`, 0o644)
	out, errOut, code := e.run("doctor")
	assert.Equal(t, 0, code, out+errOut)
	assert.Contains(t, out, `note: matcher "Bash" matches Bash`)
	assert.Contains(t, out, "3 hooks in 1 files: 0 errors, 0 warnings\n")
	_, statErr := os.Stat(filepath.Join(e.project, ".claude", "settings.json.lock"))
	assert.True(t, os.IsNotExist(statErr))
}

// TestDoctorDuplicates checks how doctor rates a command registered twice:
// a note across settings files (Claude Code runs it once), a warning when a
// plugin registers it too (it runs once more), nothing when the "if" rules
// or the matchers keep them apart.
func TestDoctorDuplicates(t *testing.T) {
	e := newEnv(t)
	onSystem(t, "linux") // shell-form commands are warnings on Windows
	// A shell command line with forward slashes: backslashes would be
	// escapes to bash.
	prog := quote(filepath.ToSlash(write(t, filepath.Join(e.project, "bin", "guard"), "#!/bin/sh\n", 0o755)))
	write(t, filepath.Join(e.project, ".claude", "settings.json"), `{"hooks": {"PreToolUse": [
  {"matcher": "Bash", "hooks": [{"type": "command", "command": `+prog+`, "timeout": 30}]},
  {"matcher": "Read", "hooks": [{"type": "command", "command": `+prog+`, "if": "Read(*.md)"}]}
]}}`, 0o644)
	write(t, filepath.Join(e.project, ".claude", "settings.local.json"), `{"hooks": {"PreToolUse": [
  {"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": `+prog+`}]},
  {"matcher": "Read", "hooks": [{"type": "command", "command": `+prog+`, "if": "Read(*.go)"}]}
]}}`, 0o644)
	out, errOut, code := e.run("doctor")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, filepath.FromSlash(".claude/settings.json")+":2:33: note: PreToolUse "+prog+" is also registered at "+filepath.FromSlash(".claude/settings.local.json")+":2 (local): Claude Code runs it once for all settings files")
	assert.Equal(t, 2, strings.Count(out, "also registered"), out)
	assert.Contains(t, out, "0 errors, 0 warnings")

	plugin := filepath.Join(e.project, "plug")
	write(t, filepath.Join(plugin, "hooks", "hooks.json"), `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": `+prog+`}]}]}}`, 0o644)
	out, _, code = e.run("doctor", "-plugin", plugin)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "it runs 2 times, concurrently")
	assert.Contains(t, out, "0 errors, 3 warnings")
}

// TestDoctorWindowsShellForm checks that on Windows a shell-form command
// is a warning (claude-code #90077) and exec form is not.
func TestDoctorWindowsShellForm(t *testing.T) {
	e := newEnv(t)
	prog := quote(filepath.ToSlash(write(t, filepath.Join(e.project, "bin", "say"), "#!/bin/sh\n", 0o755)))
	write(t, filepath.Join(e.project, ".claude", "settings.json"), `{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "command": "echo done"},
  {"type": "command", "command": `+prog+`, "args": ["done"]},
  {"type": "command", "command": "echo done", "shell": "powershell"}
]}]}}`, 0o644)
	onSystem(t, "windows")
	out, _, code := e.run("doctor")
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, filepath.FromSlash(".claude/settings.json")+":2:3: warning: a shell command line on Windows runs through Git Bash")
	assert.Equal(t, 1, strings.Count(out, "on Windows"), out)
}

// onSystem makes doctor check for the system goos (as runtime.GOOS names
// it) until the test ends.
func onSystem(t *testing.T, system string) {
	old := goos
	goos = system
	t.Cleanup(func() { goos = old })
}

// TestDoctorShellFormProgram checks that doctor finds the program of a
// shell-form command as the shell does: after leading assignments and a
// "!", with quotes removed and comments dropped, and that it leaves alone
// what it cannot follow (control flow, a substituted program).
func TestDoctorShellFormProgram(t *testing.T) {
	e := newEnv(t)
	onSystem(t, "linux") // shell-form commands are warnings on Windows
	write(t, filepath.Join(e.project, "bin", "guard"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(e.project, ".claude", "settings.json"), `{"hooks": {"Stop": [{"hooks": [
  {"type": "command", "command": "LANG=C \"$CLAUDE_PROJECT_DIR\"/bin/guard --x"},
  {"type": "command", "command": "! \"$CLAUDE_PROJECT_DIR\"/bin/'gu'ard # a comment"},
  {"type": "command", "command": "if true; then no-such-program-xyz; fi"},
  {"type": "command", "command": "$(which no-such-program-xyz) --x"},
  {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/bin/\"missing\" && date"}
]}]}}`, 0o644)
	out, errOut, code := e.run("doctor")
	assert.Equal(t, 1, code, out+errOut)
	assert.Contains(t, out, filepath.FromSlash(".claude/settings.json")+":6:3: error: command "+filepath.Join("bin", "missing")+" does not exist", out)
	assert.Contains(t, out, "5 hooks in 1 files: 1 errors, 0 warnings\n", out)
}
