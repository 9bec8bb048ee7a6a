package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/install")

// typeCase is one handler installed with hookctl: the flags that install
// it, and the fewer flags that uninstall it.
type typeCase struct {
	name      string
	install   []string
	uninstall []string
	shown     string // the handler as install prints it
}

var typeCases = []typeCase{
	{"http",
		[]string{"-type", "http", "-event", "PreToolUse", "-matcher", "Bash", "-url", "http://127.0.0.1:8080/hook",
			"-header", "Authorization: Bearer $HOOK_TOKEN", "-header", "X-Team:${TEAM}", "-allow-env", "HOOK_TOKEN", "-allow-env", "TEAM",
			"-on-failure", "block", "-timeout", "5", "-status-message", "asking the guard", "-if", "Bash(git *)"},
		[]string{"-type", "http", "-event", "PreToolUse", "-matcher", "Bash", "-if", "Bash(git *)", "-url", "http://127.0.0.1:8080/hook"},
		"PreToolUse[Bash] http http://127.0.0.1:8080/hook"},
	{"mcp_tool",
		[]string{"-type", "mcp_tool", "-event", "PostToolUse", "-matcher", "Edit|Write", "-server", "linter", "-tool", "lint_file",
			"-input", `{"path": "${tool_input.file_path}", "fix": true, "level": 2}`, "-on-failure", "continue", "-timeout", "30"},
		[]string{"-type", "mcp_tool", "-event", "PostToolUse", "-matcher", "Edit|Write", "-server", "linter", "-tool", "lint_file"},
		"PostToolUse[Edit|Write] mcp_tool linter lint_file"},
	{"prompt",
		[]string{"-type", "prompt", "-event", "UserPromptSubmit", "-prompt", "Is this prompt safe? $ARGUMENTS", "-model", "claude-sonnet-5",
			"-continue-on-block", "-timeout", "20", "-status-message", "checking"},
		[]string{"-type", "prompt", "-event", "UserPromptSubmit", "-prompt", "Is this prompt safe? $ARGUMENTS"},
		`UserPromptSubmit prompt "Is this prompt safe? $ARGUMENTS"`},
	{"agent",
		[]string{"-type", "agent", "-event", "Stop", "-prompt", "Verify that unit tests ran and passed.", "-model", "claude-haiku-5", "-timeout", "120"},
		[]string{"-type", "agent", "-event", "Stop", "-prompt", "Verify that unit tests ran and passed."},
		`Stop agent "Verify that unit tests ran and passed."`},
	{"command-async-rewake",
		[]string{"-event", "PostToolUse", "-async-rewake", "-status-message", "testing", "-exec", "--", "/usr/local/bin/tests"},
		[]string{"-event", "PostToolUse", "--", "/usr/local/bin/tests"},
		"PostToolUse /usr/local/bin/tests"},
}

// TestInstallEachHandlerType installs one handler of each type with
// hookctl into a settings file with other members, compares the file byte
// for byte with its golden file, lists it back with its members, and
// uninstalls it with its identifying flags only, which gives back the
// original bytes.
func TestInstallEachHandlerType(t *testing.T) {
	orig := read(t, filepath.Join("testdata", "install", "settings.json"))
	for _, c := range typeCases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			p := write(t, filepath.Join(e.project, ".claude", "settings.json"), orig, 0o644)
			out, errOut, code := e.run(append([]string{"install"}, c.install...)...)
			require.Equal(t, 0, code, errOut)
			assert.Empty(t, errOut)
			assert.Equal(t, filepath.Join(".claude", "settings.json")+": installed "+c.shown+"\n", out)
			got := read(t, p)
			golden := filepath.Join("testdata", "install", c.name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
			}
			assert.Equal(t, read(t, golden), got, "install differs from %s (go test -update rewrites it)", golden)

			out, _, code = e.run(append([]string{"install"}, c.install...)...)
			require.Equal(t, 0, code)
			assert.Contains(t, out, "already installed, unchanged")
			assert.Equal(t, got, read(t, p))

			out, errOut, code = e.run("list", "-json")
			require.Equal(t, 0, code, errOut)
			var ls []listed
			require.NoError(t, json.Unmarshal([]byte(out), &ls))
			require.Len(t, ls, 2)
			typ := strings.SplitN(c.name, "-", 2)[0]
			assert.Equal(t, typ, ls[len(ls)-1].Type)

			out, errOut, code = e.run(append([]string{"uninstall"}, c.uninstall...)...)
			require.Equal(t, 0, code, errOut)
			assert.Contains(t, out, "removed 1 handler(s)")
			assert.Equal(t, orig, read(t, p), "uninstall did not give back the original bytes")
		})
	}
}

// TestListShowsTypedMembers checks that list -json gives the members of
// each handler type, the headers in the file's order.
func TestListShowsTypedMembers(t *testing.T) {
	e := newEnv(t)
	for _, c := range typeCases[:3] {
		_, errOut, code := e.run(append([]string{"install"}, c.install...)...)
		require.Equal(t, 0, code, errOut)
	}
	out, errOut, code := e.run("list", "-json")
	require.Equal(t, 0, code, errOut)
	var ls []listed
	require.NoError(t, json.Unmarshal([]byte(out), &ls))
	require.Len(t, ls, 3)
	assert.Equal(t, "http://127.0.0.1:8080/hook", ls[0].URL)
	assert.JSONEq(t, `{"Authorization":"Bearer $HOOK_TOKEN","X-Team":"${TEAM}"}`, string(ls[0].Headers))
	assert.Less(t, strings.Index(out, "Authorization"), strings.Index(out, "X-Team"), "headers out of order")
	assert.Equal(t, []string{"HOOK_TOKEN", "TEAM"}, ls[0].AllowedEnvVars)
	assert.Equal(t, "block", ls[0].OnFailure)
	assert.Equal(t, "linter", ls[1].Server)
	assert.Equal(t, "lint_file", ls[1].Tool)
	assert.JSONEq(t, `{"path": "${tool_input.file_path}", "fix": true, "level": 2}`, string(ls[1].Input))
	assert.Equal(t, "claude-sonnet-5", ls[2].Model)
	assert.True(t, ls[2].ContinueOnBlock)

	out, _, code = e.run("list")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "http http://127.0.0.1:8080/hook  (if Bash(git *), timeout 5s, onFailure block, headers Authorization X-Team)")
	assert.Contains(t, out, "mcp_tool linter lint_file  (timeout 30s, onFailure continue)")
	assert.Contains(t, out, `prompt "Is this prompt safe? $ARGUMENTS"  (timeout 20s, model claude-sonnet-5)`)
}

// TestUninstallExecWithoutFlag checks that a hook installed with -exec
// (exec form without arguments) is uninstalled without repeating -exec,
// that a shell-form one is uninstalled with -exec, and that a near miss
// (another matcher) is named with what to give.
func TestUninstallExecWithoutFlag(t *testing.T) {
	e := newEnv(t)
	p := filepath.Join(e.project, ".claude", "settings.json")
	orig := "{\"model\": \"opus\"}\n"
	write(t, p, orig, 0o644)
	_, errOut, code := e.run("install", "-event", "Stop", "-exec", "--", "/usr/local/bin/done")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, read(t, p), `"args": []`)
	out, errOut, code := e.run("uninstall", "-event", "Stop", "--", "/usr/local/bin/done")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "removed 1 handler(s) (the exec form, installed with -exec)")
	assert.Equal(t, orig, read(t, p))

	_, errOut, code = e.run("install", "-event", "Stop", "--", "/usr/local/bin/done")
	require.Equal(t, 0, code, errOut)
	out, errOut, code = e.run("uninstall", "-event", "Stop", "-exec", "--", "/usr/local/bin/done")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "removed 1 handler(s) (the shell form)")
	assert.Equal(t, orig, read(t, p))

	_, errOut, code = e.run("install", "-type", "http", "-event", "PreToolUse", "-matcher", "Bash", "-url", "https://h.example/x")
	require.Equal(t, 0, code, errOut)
	_, errOut, code = e.run("uninstall", "-type", "http", "-event", "PreToolUse", "-url", "https://h.example/x")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, `nothing to uninstall: no such handler; `+filepath.Join(".claude", "settings.json")+` has it at line 1 (give -matcher "Bash")`)
}

// TestInstallTypeFlagErrors checks that a flag of another handler type, a
// missing identifying flag and a handler type the event does not take are
// usage errors that name the flag, and that nothing is written.
func TestInstallTypeFlagErrors(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-event", "Stop", "-url", "http://x/h", "--", "/bin/true"}, "-url is for -type http, not -type command"},
		{[]string{"-type", "http", "-event", "Stop", "-url", "http://x/h", "-shell", "bash"}, "-shell is for -type command, not -type http"},
		{[]string{"-type", "prompt", "-event", "Stop", "-prompt", "p", "-on-failure", "block"}, "-on-failure is for -type command, http or mcp_tool, not -type prompt"},
		{[]string{"-type", "agent", "-event", "Stop", "-prompt", "p", "-continue-on-block"}, "-continue-on-block is for -type prompt, not -type agent"},
		{[]string{"-type", "http", "-event", "Stop", "-async"}, "-async is for -type command"},
		{[]string{"-type", "webhook", "-event", "Stop"}, `unknown -type "webhook"`},
		{[]string{"-type", "http", "-event", "Stop"}, "-type http needs -url"},
		{[]string{"-type", "http", "-event", "Stop", "-url", "ftp://x/h"}, "not an http:// or https:// URL"},
		{[]string{"-type", "http", "-event", "Stop", "-url", "/h"}, "not an http:// or https:// URL"},
		{[]string{"-type", "http", "-event", "Stop", "-url", "http://x/h", "-header", "Authorization Bearer x"}, `write it as "Name: value"`},
		{[]string{"-type", "http", "-event", "Stop", "-url", "http://x/h", "-header", "A: 1", "-header", "a: 2"}, "-header a is given twice"},
		{[]string{"-type", "http", "-event", "Stop", "-url", "http://x/h", "-header", "Authorization: Bearer ${HOOK_TOKEN}"}, "references $HOOK_TOKEN, which is not in -allow-env"},
		{[]string{"-type", "http", "-event", "SessionStart", "-url", "http://x/h"}, "SessionStart takes only command and mcp_tool handlers"},
		{[]string{"-type", "prompt", "-event", "Setup", "-prompt", "p"}, "Setup takes only command and mcp_tool handlers"},
		{[]string{"-type", "http", "-event", "Stop", "-url", "http://x/h", "--", "/bin/true"}, "takes no command after --"},
		{[]string{"-type", "mcp_tool", "-event", "Stop", "-server", "s"}, "needs -server and -tool"},
		{[]string{"-type", "mcp_tool", "-event", "Stop", "-server", "s", "-tool", "t", "-input", "[1]"}, "-input must be one JSON object"},
		{[]string{"-type", "prompt", "-event", "Stop"}, "-type prompt needs -prompt"},
		{[]string{"-event", "Stop", "-on-failure", "stop", "--", "/bin/true"}, `-on-failure "stop": give continue or block`},
		{[]string{"-event", "Stop", "-shell", "zsh", "--", "/bin/true"}, `-shell "zsh"`},
	} {
		_, errOut, code := e.run(append([]string{"install"}, c.args...)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.msg, "%v", c.args)
	}
	t.Setenv("HOOK_TOKEN", "s3cr3t-t0ken-value")
	_, errOut, code := e.run("install", "-type", "http", "-event", "Stop", "-url", "http://x/h", "-header", "Authorization: Bearer s3cr3t-t0ken-value", "-allow-env", "HOOK_TOKEN")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "refusing to write the secret")
	_, err := os.Stat(filepath.Join(e.project, ".claude", "settings.json"))
	assert.True(t, os.IsNotExist(err), "a refused install wrote the settings file")
}

// TestInstallWarnings checks the warnings of an install that Claude Code
// will not run as meant: onFailure where it is ignored, and a Windows path
// with backslashes in a shell command line (but not in exec form, in
// quotes, or for PowerShell).
func TestInstallWarnings(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		args []string
		warn string // "" for none
	}{
		{[]string{"-event", "Stop", "-on-failure", "block", "--", "/bin/true"}, "-on-failure block has no effect: Claude Code ignores onFailure on Stop"},
		{[]string{"-event", "TeammateIdle", "-on-failure", "block", "--", "/bin/true"}, "ignores onFailure on TeammateIdle"},
		{[]string{"-event", "PreToolUse", "-async", "-on-failure", "block", "--", "/bin/a"}, "an async hook cannot block"},
		{[]string{"-event", "PreToolUse", "-async-rewake", "-on-failure", "block", "--", "/bin/b"}, "an async hook cannot block"},
		{[]string{"-type", "mcp_tool", "-event", "SessionStart", "-server", "s", "-tool", "t", "-on-failure", "block"}, "ignores onFailure of an mcp_tool hook on SessionStart"},
		{[]string{"-event", "PreToolUse", "-on-failure", "block", "--", "/bin/c"}, ""},
		{[]string{"-event", "PreToolUse", "--", `C:\hooks\guard.exe --strict`}, `C:\hooks\guard.exe has backslashes that bash reads as escapes`},
		{[]string{"-event", "PreToolUse", "--", `\\server\share\guard.exe`}, `\\server\share\guard.exe has backslashes`},
		{[]string{"-event", "PreToolUse", "--", `node .\hooks\guard.js`}, `.\hooks\guard.js has backslashes`},
		{[]string{"-event", "PreToolUse", "--", `"C:\hooks\quoted.exe"`}, ""},
		{[]string{"-event", "PreToolUse", "-shell", "powershell", "--", `C:\hooks\ps.exe`}, ""},
		{[]string{"-event", "PreToolUse", "--", `C:\hooks\exec.exe`, "--strict"}, ""},
		{[]string{"-event", "PreToolUse", "--", `echo \$HOME`}, ""},
		{[]string{"-event", "PreToolUse", "--", `C:/hooks/slash.exe`}, ""},
	} {
		_, errOut, code := e.run(append([]string{"install"}, c.args...)...)
		require.Equal(t, 0, code, "%v: %s", c.args, errOut)
		if c.warn == "" {
			assert.Empty(t, errOut, "%v", c.args)
			continue
		}
		assert.True(t, strings.HasPrefix(errOut, "hookctl: warning: "), "%v: %s", c.args, errOut)
		assert.Contains(t, errOut, c.warn, "%v", c.args)
	}
}
