package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/agent"
)

// codexEnv is a fake machine with a CODEX_HOME.
func codexEnv(t *testing.T) (*env, string) {
	e := newEnv(t)
	home := filepath.Join(e.home, "codex-home")
	require.NoError(t, os.MkdirAll(home, 0o755))
	t.Setenv("CODEX_HOME", home)
	return e, home
}

// TestCodexInstallLossless: install -agent codex adds one handler to
// $CODEX_HOME/hooks.json keeping every other byte — the description, a
// group's and a handler's unknown members, another event, the file's
// layout — and uninstall gives back the original bytes.
func TestCodexInstallLossless(t *testing.T) {
	e, home := codexEnv(t)
	orig := "{\n\t\"description\": \"team hooks\",\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"/bin/true\", \"statusMessage\": \"checking\", \"x-owner\": \"ops\"}], \"x-note\": 1}\n\t\t],\n\t\t\"PreToolUse\": [\n\t\t\t{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"/opt/guard\", \"timeout\": 5}]}\n\t\t]\n\t}\n}\n"
	path := write(t, filepath.Join(home, "hooks.json"), orig, 0o644)

	out, errOut, code := e.run("install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash",
		"-timeout", "30", "-status-message", "rewriting", "--", "/opt/rewrite", "it's a b")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "installed PreToolUse[Bash]")
	got := read(t, path)
	require.NoError(t, agent.CheckCodexHooksFile([]byte(got)), got)
	assert.Contains(t, got, `"command": "/opt/rewrite 'it'\\''s a b'"`)
	assert.Contains(t, got, `"timeout": 30`)
	for _, kept := range []string{`"description": "team hooks"`, `"x-owner": "ops"`, `"x-note": 1`, `"command": "/opt/guard", "timeout": 5`, "\t\t\"Stop\": ["} {
		assert.Contains(t, got, kept)
	}
	assert.Contains(t, errOut, "trusted", "the note on Codex's hook trust")

	_, errOut, code = e.run("install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash",
		"-timeout", "30", "-status-message", "rewriting", "--", "/opt/rewrite", "it's a b")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, got, read(t, path), "installing twice changes nothing")

	out, errOut, code = e.run("list", "-agent", "codex", "-json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"command": "/opt/rewrite 'it'\\''s a b'"`)
	assert.Contains(t, out, `"scope": "user"`)

	_, errOut, code = e.run("uninstall", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "--", "/opt/rewrite", "it's a b")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, orig, read(t, path), "uninstall gives back the original bytes")
}

// TestCodexInstallProjectScope: the default scope is the project's
// .codex/hooks.json, created when missing, in Claude Code's shape.
func TestCodexInstallProjectScope(t *testing.T) {
	e, _ := codexEnv(t)
	_, errOut, code := e.run("install", "-agent", "codex", "-event", "Interrupt", "--", "/opt/h")
	require.Equal(t, 0, code, errOut)
	got := read(t, filepath.Join(e.project, ".codex", "hooks.json"))
	require.NoError(t, agent.CheckCodexHooksFile([]byte(got)))
	assert.JSONEq(t, `{"hooks":{"Interrupt":[{"hooks":[{"type":"command","command":"/opt/h"}]}]}}`, got)
	assert.Contains(t, errOut, "project is trusted")
}

// TestCodexInstallRefuses: what Codex cannot read is refused before any
// file is touched, each with its reason.
func TestCodexInstallRefuses(t *testing.T) {
	e, home := codexEnv(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-event", "Notification", "--", "x"}, `Codex 0.171.0 has no event "Notification"`},
		{[]string{"-event", "Stop", "-if", "Bash(x)", "--", "x"}, `-if (Codex has no "if" rule`},
		{[]string{"-event", "Stop", "-on-failure", "block", "--", "x"}, "hook.FailClosed"},
		{[]string{"-event", "Stop", "-exec", "--", "x"}, "no exec form"},
		{[]string{"-event", "Stop", "-async-rewake", "--", "x"}, "no asyncRewake"},
		{[]string{"-event", "Stop", "-type", "http", "-url", "http://x"}, "command hooks only"},
		{[]string{"-event", "Stop", "-timeout", "1.5", "--", "x"}, "whole number of seconds"},
		{[]string{"-event", "PreToolUse", "-matcher", "(", "--", "x"}, "not a regular expression"},
		{[]string{"-scope", "local", "-event", "Stop", "--", "x"}, "user and a project layer"},
		{[]string{"-plugin", e.project, "-event", "Stop", "--", "x"}, "-plugin is for Claude Code plugins"},
	}
	for _, c := range cases {
		_, errOut, code := e.run(append([]string{"install", "-agent", "codex"}, c.args...)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.want, c.args)
	}
	_, errOut, code := e.run("install", "-agent", "gemini", "-event", "Stop", "--", "x")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "give claude, codex or copilot")
	assert.NoFileExists(t, filepath.Join(home, "hooks.json"))
	assert.NoDirExists(t, filepath.Join(e.project, ".codex"))

	// config.toml is never edited: hookctl says why.
	toml := write(t, filepath.Join(home, "config.toml"), "model = \"m\" # mine\n", 0o644)
	_, errOut, code = e.run("install", "-agent", "codex", "-settings", toml, "-event", "Stop", "--", "x")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "does not write hooks into Codex's config.toml")
	assert.Equal(t, "model = \"m\" # mine\n", read(t, toml))

	// A hooks.json Codex refuses as a whole is not edited: the hook
	// would not run, and the file is the user's to fix.
	bad := "{\"$schema\": \"x\", \"hooks\": {}}\n"
	path := write(t, filepath.Join(home, "hooks.json"), bad, 0o644)
	_, errOut, code = e.run("install", "-agent", "codex", "-scope", "user", "-event", "Stop", "--", "x")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "$schema")
	assert.Equal(t, bad, read(t, path))
}

// TestCodexListAndDoctor: list and doctor -agent codex read both layers'
// hooks.json and config.toml ([[hooks.EVENT]] tables), and doctor reports
// what Codex would not run or load.
func TestCodexListAndDoctor(t *testing.T) {
	e, home := codexEnv(t)
	guard := write(t, filepath.Join(e.home, "bin", "guard"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(home, "config.toml"), `model = "m"
[features]
hooks = false

[[hooks.PreToolUse]]
matcher = "^Bash$" # the shell
[[hooks.PreToolUse.hooks]]
type = "command"
command = '`+filepath.ToSlash(guard)+` --strict'
timeout = 10

[hooks.state."x:pre_tool_use:0:0"]
trusted_hash = "sha256:00"

[[hooks.Stop]]
hooks = [{ type = "command", command = "x" }]
`, 0o644)
	write(t, filepath.Join(home, "hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/missing/stop", "async": true}]}]}}`, 0o644)
	write(t, filepath.Join(e.project, ".codex", "hooks.json"), `{"hooks": {"PostToolUse": [{"matcher": "(", "hooks": [{"type": "prompt", "prompt": "p"}]}]}}`, 0o644)

	out, errOut, code := e.run("list", "-agent", "codex")
	assert.Equal(t, 1, code, "a hook hookctl could not read is an error of list")
	assert.Contains(t, errOut, "config.toml:16: hooks: hookctl cannot read arrays or inline tables here")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, out)
	assert.Regexp(t, `^SCOPE +FILE:LINE +EVENT +MATCHER +TRUST +HANDLER$`, lines[0])
	assert.Regexp(t, `user +\S+hooks.json:1 +Stop +\* +untrusted +/missing/stop`, lines[1])
	assert.Regexp(t, `user +\S+config.toml:7 +PreToolUse +\^Bash\$ +untrusted +\S+guard --strict +\(timeout 10s\)`, lines[2])
	assert.Regexp(t, `project +.codex/hooks.json:1 +PostToolUse +\( +- +prompt`, lines[3], "a prompt handler Codex does not run has no trust")

	out, _, code = e.run("doctor", "-agent", "codex")
	assert.Equal(t, 1, code, out)
	for _, want := range []string{
		"config.toml:3:1: warning: [features] turns hooks off",
		"config.toml:16:1: warning: hooks: hookctl cannot read arrays or inline tables here",
		"warning: this layer has hooks in both hooks.json and config.toml",
		"warning: async: Codex runs it without waiting for it, so it cannot block",
		"error: /missing/stop does not exist",
		`error: matcher "(" is not a regular expression`,
		"warning: Codex reads prompt handlers but does not run them",
		"note: Codex loads a project's .codex/ hooks only when the project is trusted",
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "guard does not exist")

	// A file Codex refuses as a whole is an error of its own.
	write(t, filepath.Join(home, "hooks.json"), `{"$schema": "s", "hooks": {}}`, 0o644)
	out, _, _ = e.run("doctor", "-agent", "codex")
	assert.Contains(t, out, "error: Codex refuses the whole file, so none of its hooks runs")
}

func TestReadCodexTOML(t *testing.T) {
	got := readCodexTOML([]byte("\ufeff# c\n[projects.\"/w/p\"]\ntrust_level = \"trusted\"\n" +
		"notes = \"\"\"\n[[hooks.Stop]]\n\"\"\"\n" +
		"list = [\n  \"[[hooks.Stop]]\",\n]\n" +
		"[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"echo \\\"hi\\\" \\u00e9\" # x\ntimeout = 1_0\ntimeoutSec = 99\n" +
		"[[hooks.SessionStart.hooks]]\ncommand = 'C:\\hooks\\a.exe'\n"))
	assert.Empty(t, got.Problems)
	assert.Equal(t, []string{"/w/p"}, got.Trusted)
	require.Len(t, got.Hooks, 2)
	assert.Equal(t, `echo "hi" é`, got.Hooks[0].Handler.Command)
	assert.Equal(t, 10.0, got.Hooks[0].Handler.Timeout)
	assert.Equal(t, 0, got.Hooks[0].Index)
	assert.Equal(t, `C:\hooks\a.exe`, got.Hooks[1].Handler.Command)
	assert.Equal(t, 1, got.Hooks[1].Index)
	assert.Equal(t, 16, got.Hooks[1].Line)
	assert.Equal(t, 0.0, got.Hooks[1].Handler.Timeout)
	require.Len(t, got.Codex, 2)
	assert.EqualValues(t, 10, *got.Codex[0].Handler.Timeout, "timeout is read, timeoutSec is not")

	for src, want := range map[string]string{
		"[hooks]\nStop = []\n":                                                "written inline",
		"hooks.Stop = []\n":                                                   "dotted key",
		"[[hooks.Stop.hooks]]\ncommand = \"x\"\n":                             "before any [[hooks.Stop]] group",
		"[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntimeout = 1.5\n":               "whole number",
		"[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = \"\"\"\nx\n\"\"\"\n": "several lines",
		"[hooks.Stop]\n":                                                      "not this one",
	} {
		got := readCodexTOML([]byte(src))
		require.NotEmpty(t, got.Problems, src)
		assert.Contains(t, got.Problems[0].Msg, want, src)
	}
}

// TestCodexInstallTrust: install -trust writes the hook's trusted_hash
// into the user's config.toml under the key and hash Codex computes
// (CODEX_HOME named through a symbolic link, as Codex resolves it), every
// other byte kept; doctor then finds it trusted, and reports a hook
// installed without -trust, or changed since, as one Codex will not run;
// uninstall removes the trust it wrote, and warns about a trusted hook the
// removal moves.
func TestCodexInstallTrust(t *testing.T) {
	e, home := codexEnv(t)
	link := filepath.Join(e.home, "codex-link")
	if os.Symlink(home, link) == nil { // not on a Windows without the privilege
		t.Setenv("CODEX_HOME", link)
	}
	guard := write(t, filepath.Join(e.home, "guard"), "#!/bin/sh\n", 0o755)
	audit := write(t, filepath.Join(e.home, "audit"), "#!/bin/sh\n", 0o755)
	const orig = "model = \"m\" # mine\n\n[features]\nhooks = true\n"
	config := write(t, filepath.Join(home, "config.toml"), orig, 0o644)
	install := func(args ...string) (string, string) {
		t.Helper()
		out, errOut, code := e.run(append([]string{"install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash"}, args...)...)
		require.Equal(t, 0, code, errOut)
		return out, errOut
	}
	doctor := func() string {
		out, _, _ := e.run("doctor", "-agent", "codex")
		return out
	}
	real, err := filepath.EvalSymlinks(home)
	require.NoError(t, err)
	key0 := filepath.Join(real, "hooks.json") + ":pre_tool_use:0:0"
	key1 := filepath.Join(real, "hooks.json") + ":pre_tool_use:0:1"
	bash := "Bash"
	hashOf := func(cmd string, timeout *uint64) string {
		h, err := agent.CodexHookHash("PreToolUse", &bash, agent.CodexHandler{Command: cmd, Timeout: timeout})
		require.NoError(t, err)
		return h
	}

	// -dry-run -trust shows both changes and writes nothing.
	out, _, code := e.run("install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "-trust", "-dry-run", "--", guard)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "+[hooks.state."+tomlQuote(key0)+"]")
	assert.Equal(t, orig, read(t, config))
	assert.NoFileExists(t, filepath.Join(home, "hooks.json"))

	out, _ = install("-trust", "--", guard)
	assert.Contains(t, out, "trusted [hooks.state.")
	got := read(t, config)
	require.True(t, strings.HasPrefix(got, orig), got)
	states, unread := readCodexStates([]byte(got))
	require.Zero(t, unread)
	assert.Equal(t, hashOf(guard, nil), states[key0].Hash, "the key and hash Codex computes: %s", got)
	assert.NotContains(t, doctor(), "will not run")

	// Trusting again changes nothing.
	install("-trust", "--", guard)
	assert.Equal(t, got, read(t, config))

	// A second hook without -trust: install says Codex will not run it,
	// and so does doctor.
	_, errOut := install("--", audit)
	assert.Contains(t, errOut, "installed, not trusted: will not run")
	assert.Contains(t, errOut, "-trust")
	d := doctor()
	assert.Regexp(t, `hooks.json:\d+:\d+: error: installed, not trusted: will not run`, d)
	assert.Equal(t, 1, strings.Count(d, "will not run"), d)

	// The first hook changed (its timeout): no longer trusted.
	install("-timeout", "30", "--", guard)
	assert.Contains(t, doctor(), "changed since it was trusted")
	thirty := uint64(30)
	install("-timeout", "30", "-trust", "--", guard)
	states, _ = readCodexStates([]byte(read(t, config)))
	assert.Equal(t, hashOf(guard, &thirty), states[key0].Hash, "the hash is replaced in place")
	install("-trust", "--", audit)
	assert.NotContains(t, doctor(), "will not run")

	// Uninstalling the first removes its trust, and the second, moved
	// from 0:1 to 0:0, is no longer trusted: uninstall says so.
	_, errOut, code = e.run("uninstall", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "--", guard)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "moved from "+key1+" to "+key0)
	states, _ = readCodexStates([]byte(read(t, config)))
	assert.NotContains(t, states, key0)
	assert.Contains(t, states, key1)
	assert.Contains(t, doctor(), "installed, not trusted: will not run")

	// uninstall removes only what install -trust wrote: a trust the user
	// gave (no mark) stays.
	_, errOut, code = e.run("uninstall", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "--", audit)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, orig, read(t, config), "uninstall gives config.toml back")
	users := orig + "\n[hooks.state." + tomlQuote(key0) + "]\ntrusted_hash = \"" + hashOf(guard, nil) + "\"\n"
	write(t, config, users, 0o644)
	install("--", guard)
	assert.NotContains(t, doctor(), "will not run")
	_, errOut, code = e.run("uninstall", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "--", guard)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "left alone")
	assert.Equal(t, users, read(t, config))

	// A config.toml whose hook state hookctl does not edit is refused
	// before hooks.json is touched.
	// (The last uninstall deleted hooks.json, which install had created.)
	hooksBefore, errBefore := os.ReadFile(filepath.Join(home, "hooks.json"))
	write(t, config, "hooks.state.\"x\".enabled = false\n"+orig, 0o644)
	_, errOut, code = e.run("install", "-agent", "codex", "-scope", "user", "-event", "Stop", "-trust", "--", audit)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "which hookctl does not edit")
	hooksAfter, errAfter := os.ReadFile(filepath.Join(home, "hooks.json"))
	assert.Equal(t, errBefore == nil, errAfter == nil, "hooks.json neither created nor deleted")
	assert.Equal(t, string(hooksBefore), string(hooksAfter))

	// -trust is for install -agent codex only.
	_, errOut, code = e.run("uninstall", "-agent", "codex", "-scope", "user", "-event", "Stop", "-trust", "--", guard)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-trust is for install")
	_, errOut, code = e.run("install", "-event", "Stop", "-trust", "--", guard)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-trust is for -agent codex")
}

// TestCodexInstallAsync: -async is written as Codex reads it, and doctor
// says what Codex does with an async hook.
func TestCodexInstallAsync(t *testing.T) {
	e, home := codexEnv(t)
	_, errOut, code := e.run("install", "-agent", "codex", "-scope", "user", "-event", "PostToolUse", "-matcher", "Bash", "-async", "--", "/bin/true")
	require.Equal(t, 0, code, errOut)
	got := read(t, filepath.Join(home, "hooks.json"))
	assert.JSONEq(t, `{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/bin/true","async":true}]}]}}`, got)
	out, _, _ := e.run("doctor", "-agent", "codex")
	assert.Contains(t, out, "warning: async: Codex runs it without waiting for it, so it cannot block or decide anything")

	_, errOut, code = e.run("install", "-agent", "codex", "-scope", "user", "-event", "SessionStart", "-async", "--", "/bin/true")
	require.Equal(t, 0, code, errOut)
	out, _, _ = e.run("doctor", "-agent", "codex")
	assert.Contains(t, out, "note: async: Codex runs it without waiting for it and keeps only its additionalContext")
}

// TestCodexModelRequestEvents: Codex 0.171.0 runs PreModelRequest and
// PostModelRequest hooks (seen with the real client): install writes them,
// and doctor notes that the library does not serve them instead of
// calling them events that never run.
func TestCodexModelRequestEvents(t *testing.T) {
	e, home := codexEnv(t)
	for _, ev := range []string{"PreModelRequest", "PostModelRequest"} {
		_, errOut, code := e.run("install", "-agent", "codex", "-scope", "user", "-event", ev, "--", "/bin/true")
		require.Equal(t, 0, code, errOut)
	}
	require.NoError(t, agent.CheckCodexHooksFile([]byte(read(t, filepath.Join(home, "hooks.json")))))
	out, _, _ := e.run("doctor", "-agent", "codex")
	assert.Contains(t, out, "note: Codex 0.171.0 runs PreModelRequest hooks")
	assert.NotContains(t, out, "never runs")
}

// TestCodexListShowsTrust: list -agent codex shows each hook's trust as
// Codex will judge it, in its TRUST column and as "trust" in -json:
// trusted, untrusted, changed since it was trusted, turned off, in a
// project Codex does not trust, or unchecked where hookctl cannot read
// the hook states; list of Claude Code's hooks has no such column.
func TestCodexListShowsTrust(t *testing.T) {
	e, home := codexEnv(t)
	install := func(args ...string) {
		t.Helper()
		_, errOut, code := e.run(append([]string{"install", "-agent", "codex"}, args...)...)
		require.Equal(t, 0, code, errOut)
	}
	install("-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "-trust", "--", "/opt/trusted")
	install("-scope", "user", "-event", "Stop", "-trust", "--", "/opt/off")
	install("-scope", "user", "-event", "SessionStart", "-trust", "--", "/opt/changed")
	install("-scope", "user", "-event", "PostToolUse", "--", "/opt/untrusted")
	install("-event", "UserPromptSubmit", "--", "/opt/in-project")

	cfg := filepath.Join(home, "config.toml")
	toml := read(t, cfg)
	i := strings.Index(toml, ":stop:0:0\"]\n")
	require.GreaterOrEqual(t, i, 0, toml)
	i += len(":stop:0:0\"]\n")
	write(t, cfg, toml[:i]+"enabled = false\n"+toml[i:], 0o644)
	hooks := filepath.Join(home, "hooks.json")
	write(t, hooks, strings.Replace(read(t, hooks), "/opt/changed", "/opt/changed --now", 1), 0o644)

	want := map[string]string{
		"/opt/trusted": "trusted", "/opt/off": "disabled", "/opt/changed --now": "changed",
		"/opt/untrusted": "untrusted", "/opt/in-project": "project-untrusted",
	}
	out, errOut, code := e.run("list", "-agent", "codex")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 6, out)
	assert.Regexp(t, `^SCOPE +FILE:LINE +EVENT +MATCHER +TRUST +HANDLER$`, lines[0])
	for cmd, trust := range want {
		assert.Regexp(t, `(?m) `+regexp.QuoteMeta(trust)+` +`+regexp.QuoteMeta(cmd)+`$`, out, cmd)
	}

	out, errOut, code = e.run("list", "-agent", "codex", "-json")
	require.Equal(t, 0, code, errOut)
	var listedHooks []struct {
		Command string `json:"command"`
		Trust   string `json:"trust"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &listedHooks), out)
	got := map[string]string{}
	for _, h := range listedHooks {
		got[h.Command] = h.Trust
	}
	assert.Equal(t, want, got)

	// Hook states hookctl cannot read: no state is claimed.
	write(t, cfg, read(t, cfg)+"[hooks]\nstate = { \"x\" = { trusted_hash = \"sha256:00\" } }\n", 0o644)
	out, _, _ = e.run("list", "-agent", "codex", "-json")
	require.NoError(t, json.Unmarshal([]byte(out), &listedHooks), out)
	for _, h := range listedHooks {
		if h.Command != "/opt/in-project" {
			assert.Equal(t, "unchecked", h.Trust, h.Command)
		}
	}

	// Claude Code has no hook trust: no column, no member.
	_, errOut, code = e.run("install", "-event", "Stop", "--", "/opt/claude")
	require.Equal(t, 0, code, errOut)
	out, _, _ = e.run("list")
	assert.NotContains(t, out, "TRUST")
	out, _, _ = e.run("list", "-json")
	assert.NotContains(t, out, `"trust"`)
}
