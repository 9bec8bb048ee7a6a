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
