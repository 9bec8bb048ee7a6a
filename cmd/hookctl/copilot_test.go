package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copilotUser is a user's hooks file in a layout of its own, with members
// hookctl does not know.
const copilotUser = "{\r\n\t\"version\":1,\r\n\t\"x-note\": {\"keep\": [1, 2.50, \"\\u00e9\"]},\r\n\t\"hooks\":{\r\n\t\t\"PreToolUse\":[ {\"type\":\"command\",\"powershell\":\"C:\\\\guard.ps1\",\"cwd\":\"sub\",\"env\":{\"A\":\"1\"}} ],\r\n\t\t\"sessionStart\": []\r\n\t}\r\n}\r\n"

func TestCopilotAddRemoveIsLossless(t *testing.T) {
	for name, data := range map[string]string{
		"user layout": copilotUser,
		"one line":    `{"version":1,"hooks":{"Stop":[{"type":"command","bash":"x"}]}}`,
		"no hooks":    `{"version": 1, "other": true}`,
		"empty hooks": "{\n  \"hooks\": {}\n}\n",
	} {
		for _, ev := range []string{"PreToolUse", "PostToolUse"} {
			out, changed, err := copilotAdd([]byte(data), ev, "bash", "/bin/g 'a b'", 10)
			require.NoError(t, err, name)
			require.True(t, changed, name)
			require.True(t, jsontext.Value(out).IsValid(), "%s: %s", name, out)
			f, err := readCopilotFile(out)
			require.NoError(t, err, "%s: %s", name, out)
			hs := f.handlers[ev]
			require.NotEmpty(t, hs, "%s: %s", name, out)
			h, err := f.handler(hs[len(hs)-1])
			require.NoError(t, err)
			assert.Equal(t, "/bin/g 'a b'", h.Bash, name)
			assert.Equal(t, 10.0, h.TimeoutSec, name)
			// Installing again changes nothing.
			again, changed, err := copilotAdd(out, ev, "bash", "/bin/g 'a b'", 10)
			require.NoError(t, err)
			assert.False(t, changed, name)
			assert.Equal(t, string(out), string(again), name)
			// Removing it gives back what the file held, byte for byte,
			// when the event was there before; otherwise only the
			// container hookctl added stays.
			back, n, err := copilotRemove(out, ev, "bash", "/bin/g 'a b'")
			require.NoError(t, err)
			assert.Equal(t, 1, n, name)
			if strings.Contains(data, `"`+ev+`"`) {
				assert.Equal(t, data, string(back), "%s, %s", name, ev)
			}
			assert.True(t, jsontext.Value(back).IsValid(), "%s: %s", name, back)
			for _, keep := range []string{`"x-note": {"keep": [1, 2.50, "\u00e9"]}`, `"cwd":"sub"`, `"env":{"A":"1"}`, `"sessionStart": []`, `"other": true`} {
				if strings.Contains(data, keep) {
					assert.Contains(t, string(out), keep, name)
					assert.Contains(t, string(back), keep, name)
				}
			}
		}
	}
}

func TestCopilotAddNewFile(t *testing.T) {
	out, changed, err := copilotAdd(nil, "Stop", "bash", "/bin/x", 0)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, "{\n  \"version\": 1,\n  \"hooks\": {\n    \"Stop\": [\n      {\"type\": \"command\", \"bash\": \"/bin/x\"}\n    ]\n  }\n}\n", string(out))
	back, n, err := copilotRemove(out, "Stop", "bash", "/bin/x")
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n", string(back))
}

func TestCopilotFileRefused(t *testing.T) {
	for _, data := range []string{
		`[]`, `{"version":2,"hooks":{}}`, `{"hooks":[]}`, `{"hooks":{"Stop":{}}}`, `{"a":1,"a":2}`, `{"hooks":`,
	} {
		_, _, err := copilotAdd([]byte(data), "Stop", "bash", "x", 0)
		assert.Error(t, err, data)
		_, _, err = copilotRemove([]byte(data), "Stop", "bash", "x")
		assert.Error(t, err, data)
	}
}

func TestCopilotCommands(t *testing.T) {
	home := t.TempDir()
	project := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	ctl := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append(args[:1:1], append([]string{"-project", project}, args[1:]...)...), &out, &errb)
		return code, out.String(), errb.String()
	}
	user := filepath.Join(home, ".copilot", "hooks", "hooks.json")
	code, _, stderr := ctl("install", "-agent", "copilot", "-event", "PreToolUse", "-timeout", "15", "--", "/bin/guard", "a b")
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(user)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"timeoutSec": 15`)

	// A hand-written camelCase file in the project: listed, and doctor
	// warns that a library hook refuses its payloads.
	proj := filepath.Join(project, ".github", "hooks", "mine.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(proj), 0o755))
	require.NoError(t, os.WriteFile(proj, []byte(`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./x"}]}}`), 0o644))
	code, stdout, stderr := ctl("list", "-agent", "copilot")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "/bin/guard 'a b'")
	assert.Contains(t, stdout, "preToolUse")
	_, stdout, _ = ctl("doctor", "-agent", "copilot")
	assert.Contains(t, stdout, "camelCase")
	assert.Contains(t, stdout, "rename the event PreToolUse")
	assert.Contains(t, stdout, "trusted_folders")
	// Once the project is trusted, that warning goes.
	require.NoError(t, os.WriteFile(filepath.Join(home, ".copilot", "config.json"), []byte(`{"trusted_folders":[`+quoteJSON(project)+`]}`), 0o644))
	_, stdout, _ = ctl("doctor", "-agent", "copilot")
	assert.NotContains(t, stdout, "trusted_folders")

	code, _, stderr = ctl("install", "-agent", "copilot", "-event", "preToolUse", "--", "x")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, stderr, "use -event PreToolUse")
	code, _, stderr = ctl("install", "-agent", "copilot", "-event", "PreToolUse", "-matcher", "Bash", "--", "x")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, stderr, "-matcher")
	code, _, stderr = ctl("install", "-agent", "copilot", "-event", "PreToolUse", "-timeout", "1.5", "--", "x")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, stderr, "whole number")

	code, _, stderr = ctl("uninstall", "-agent", "copilot", "-event", "PreToolUse", "--", "/bin/guard", "a b")
	require.Equal(t, 0, code, stderr)
	data, err = os.ReadFile(user)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "guard")
	code, _, _ = ctl("uninstall", "-agent", "copilot", "-event", "PreToolUse", "--", "/bin/guard", "a b")
	assert.NotEqual(t, 0, code, "nothing to uninstall")
	// The project's file was never touched.
	data, err = os.ReadFile(proj)
	require.NoError(t, err)
	assert.Equal(t, `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./x"}]}}`, string(data))
}
