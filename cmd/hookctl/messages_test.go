package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// registration is the flags that decide which handler uninstall removes.
type registration struct{ event, matcher, cond, shell string }

func (r registration) args() []string {
	a := []string{"-event", r.event}
	if r.matcher != "" {
		a = append(a, "-matcher", r.matcher)
	}
	if r.cond != "" {
		a = append(a, "-if", r.cond)
	}
	if r.shell != "" {
		a = append(a, "-shell", r.shell)
	}
	return a
}

// giveRe reads one flag of a "(give ...)" hint.
var giveRe = regexp.MustCompile(`^(?:no -(\w+)|-(event|shell) (\S+)|-(matcher|if) ("(?:[^"\\]|\\.)*"))`)

// follow applies a "(give ...)" hint to r.
func follow(t *testing.T, r registration, hint string) registration {
	t.Helper()
	for rest := hint; rest != ""; rest = strings.TrimPrefix(rest, " ") {
		m := giveRe.FindStringSubmatch(rest)
		require.NotNil(t, m, "cannot read %q of hint %q", rest, hint)
		rest = rest[len(m[0]):]
		name, val := m[1], ""
		switch {
		case m[2] != "":
			name, val = m[2], m[3]
		case m[4] != "":
			var err error
			name = m[4]
			val, err = strconv.Unquote(m[5])
			require.NoError(t, err)
		}
		switch name {
		case "event":
			r.event = val
		case "matcher":
			r.matcher = val
		case "if":
			r.cond = val
		case "shell":
			r.shell = val
		default:
			t.Fatalf("hint %q names -%s", hint, name)
		}
	}
	return r
}

// TestUninstallHintsEveryDifference installs a handler with each
// combination of event, matcher, "if" rule and shell, and uninstalls it
// with each other combination: uninstall either removes it (the same
// registration) or fails with a hint that names every flag that differs,
// with its value, and never an empty "(give )"; following the hint
// removes the handler and gives back the original bytes.
func TestUninstallHintsEveryDifference(t *testing.T) {
	e := newEnv(t)
	path := filepath.Join(e.project, ".claude", "settings.json")
	const orig = "{\n  \"model\": \"opus\"\n}\n"
	var regs []registration
	for _, ev := range []string{"PreToolUse", "PostToolUse"} {
		for _, m := range []string{"", "Bash"} {
			for _, c := range []string{"", "Bash(git *)"} {
				for _, sh := range []string{"", "bash", "powershell"} {
					regs = append(regs, registration{ev, m, c, sh})
				}
			}
		}
	}
	hintRe := regexp.MustCompile(`has it at line \d+ \(give ([^)]*(?:\)"[^)]*)?)\)`)
	for _, in := range regs {
		write(t, path, orig, 0o644)
		_, errOut, code := e.run(append(append([]string{"install"}, in.args()...), "--", "/opt/guard")...)
		require.Equal(t, 0, code, errOut)
		installed := read(t, path)
		for _, un := range regs {
			if un == in {
				continue
			}
			_, errOut, code = e.run(append(append([]string{"uninstall"}, un.args()...), "--", "/opt/guard")...)
			require.Equal(t, 1, code, "installed %+v, uninstalled %+v: %s", in, un, errOut)
			assert.NotContains(t, errOut, "(give )")
			m := hintRe.FindStringSubmatch(errOut)
			require.NotNil(t, m, "installed %+v, uninstalled %+v: no hint in %q", in, un, errOut)
			assert.Equal(t, in, follow(t, un, m[1]), "the hint %q does not name every difference", m[1])
			require.Equal(t, installed, read(t, path), "a failed uninstall wrote")
		}
		// Following the hint is uninstalling with in's flags.
		_, errOut, code = e.run(append(append([]string{"uninstall"}, in.args()...), "--", "/opt/guard")...)
		require.Equal(t, 0, code, "%+v: %s", in, errOut)
		assert.Equal(t, orig, read(t, path))
	}
}

// TestCodexUninstallHints checks the hint with -agent codex.
func TestCodexUninstallHints(t *testing.T) {
	e, home := codexEnv(t)
	_, errOut, code := e.run("install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "--", "/opt/guard")
	require.Equal(t, 0, code, errOut)
	_, errOut, code = e.run("uninstall", "-agent", "codex", "-scope", "user", "-event", "PostToolUse", "-matcher", "Edit", "--", "/opt/guard")
	require.Equal(t, 1, code)
	assert.Contains(t, errOut, `has it at line 7 (give -event PreToolUse -matcher "Bash")`)
	assert.FileExists(t, filepath.Join(home, "hooks.json"))
}

// TestTimeoutMessages checks that each kind of bad -timeout is named for
// what it is, for Claude Code and for Codex: a value too large is not "a
// fraction".
func TestTimeoutMessages(t *testing.T) {
	e, _ := codexEnv(t)
	for _, c := range []struct {
		agent, timeout, want, not string
	}{
		{"codex", "1.5", "a whole number of seconds (a fraction", ""},
		{"codex", "3e9", "-timeout 3e+09 is too large: give at most 2147483647 seconds", "fraction"},
		{"codex", "1e300", "too large", "fraction"},
		{"codex", "-1", "-timeout -1: give 0 or more seconds", "fraction"},
		{"codex", "-0.5", "give 0 or more seconds", "fraction"},
		{"codex", "NaN", "-timeout NaN: give a whole number of seconds", "fraction"},
		{"codex", "Inf", "-timeout +Inf: give a whole number of seconds", "fraction"},
		{"claude", "-1", "-timeout -1: give 0 or more seconds", ""},
		{"claude", "NaN", "-timeout NaN: give a number of seconds", ""},
		{"claude", "-Inf", "-timeout -Inf: give a number of seconds", ""},
	} {
		_, errOut, code := e.run("install", "-agent", c.agent, "-event", "Stop", "-timeout", c.timeout, "--", "/opt/stop")
		assert.Equal(t, 2, code, "%+v", c)
		assert.Contains(t, errOut, c.want, "%+v", c)
		if c.not != "" {
			assert.NotContains(t, errOut, c.not, "%+v", c)
		}
	}
	for _, agent := range []string{"claude", "codex"} {
		_, errOut, code := e.run("install", "-agent", agent, "-event", "Stop", "-timeout", "5000", "--", "/opt/stop")
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, errOut, fmt.Sprintf("warning: -timeout 5000 is 1.4 hours: %s reads seconds", map[string]string{"claude": "Claude Code", "codex": "Codex"}[agent]))
		_, errOut, code = e.run("uninstall", "-agent", agent, "-event", "Stop", "-timeout", "5000", "--", "/opt/stop")
		require.Equal(t, 0, code, errOut)
		assert.NotContains(t, errOut, "warning", "uninstall writes no timeout")
	}
	assert.Equal(t, "3.0 days", humanSeconds(3*86400))
}

// TestInstallSaysWhatChanged checks that a second install of the same
// registration with other options names each changed option with its old
// and new value, for each option and each handler type that has it, and
// that a header's value (which may hold a secret) is never shown.
func TestInstallSaysWhatChanged(t *testing.T) {
	e, _ := codexEnv(t)
	for _, c := range []struct {
		first, second []string
		want          string
	}{
		{[]string{"-timeout", "5", "--", "/opt/g"}, []string{"-timeout", "30", "-status-message", "checking", "--", "/opt/g"},
			`updated Stop /opt/g (timeout 5 -> 30, statusMessage none -> "checking")`},
		{[]string{"--", "/opt/g"}, []string{"-on-failure", "block", "-async", "--", "/opt/g"},
			`(onFailure none -> block, async none -> true)`},
		{[]string{"-async", "--", "/opt/g"}, []string{"-async-rewake", "--", "/opt/g"}, `(asyncRewake none -> true)`},
		{[]string{"-type", "http", "-url", "https://h.example/x", "-header", "X-Token: $T", "-allow-env", "T"},
			[]string{"-type", "http", "-url", "https://h.example/x", "-header", "X-Other: secret-value", "-allow-env", "T", "-allow-env", "U"},
			`(headers [X-Token] -> [X-Other], allowedEnvVars [T] -> [T U])`},
		{[]string{"-type", "mcp_tool", "-server", "s", "-tool", "t", "-input", `{"a": 1}`},
			[]string{"-type", "mcp_tool", "-server", "s", "-tool", "t", "-input", `{"a":  2}`}, `(input {"a":1} -> {"a":2})`},
		{[]string{"-type", "prompt", "-prompt", "ok?"}, []string{"-type", "prompt", "-prompt", "ok?", "-model", "haiku", "-continue-on-block"},
			`(model none -> "haiku", continueOnBlock none -> true)`},
		{[]string{"-agent", "codex", "-timeout", "10", "--", "/opt/g"}, []string{"-agent", "codex", "-timeout", "20", "--", "/opt/g"},
			`updated Stop /opt/g (timeout 10 -> 20)`},
	} {
		_, errOut, code := e.run(append([]string{"install", "-event", "Stop"}, c.first...)...)
		require.Equal(t, 0, code, errOut)
		out, errOut, code := e.run(append([]string{"install", "-event", "Stop"}, c.second...)...)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, c.want, "%v", c.second)
		assert.NotContains(t, out, "secret-value")
		out, _, code = e.run(append([]string{"install", "-event", "Stop"}, c.second...)...)
		require.Equal(t, 0, code)
		assert.Contains(t, out, "already installed, unchanged")
		un := []string{"uninstall", "-event", "Stop"}
		for i := 0; i < len(c.second); i++ {
			switch c.second[i] {
			case "-timeout", "-status-message", "-on-failure", "-header", "-allow-env", "-input", "-model":
				i++
			case "-async", "-async-rewake", "-continue-on-block":
			default:
				un = append(un, c.second[i])
			}
		}
		_, errOut, code = e.run(un...)
		require.Equal(t, 0, code, "%v: %s", un, errOut)
	}
}
