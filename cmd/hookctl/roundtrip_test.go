package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noFile stands for a file that does not exist in the round-trip corpus.
const noFile = "\x00no file"

// claudeStarts are settings files install starts from: none, empty and
// whitespace-only files, empty objects of each layout, a pre-existing
// empty "hooks" object or event array, other settings and hooks, and the
// layouts the edit keeps (CRLF, tabs, compact, no final newline, a byte
// order mark, big numbers, escapes).
var claudeStarts = []string{
	noFile,
	"",
	"\n",
	"\xef\xbb\xbf",
	"{}",
	"{}\n",
	"{\n}\n",
	"{ }",
	`{"hooks":{}}`,
	"{\n  \"hooks\": {}\n}\n",
	"{\n  \"hooks\": {\n  }\n}\n",
	"{\n  \"model\": \"opus\",\n  \"hooks\": { }\n}\n",
	`{"hooks":{"PreToolUse":[]}}`,
	"{\n  \"hooks\": {\n    \"PreToolUse\": [\n    ]\n  }\n}\n",
	"{\r\n\t\"hooks\": {\r\n\t\t\"PreToolUse\": [],\r\n\t\t\"Stop\": []\r\n\t}\r\n}",
	`{"hooks":{"Stop":[]}}`,
	"{\n  \"model\": \"opus\"\n}\n",
	"{\r\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\r\n    \"n\": 100000000000000000000001\r\n}",
	"{\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"/opt/edit\"}]}\n\t\t]\n\t}\n}\n",
	"{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"/opt/other\",\"timeout\":5}]}],\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"x\"}]}]}}",
	"{\n  \"env\": {\"A\": \"caf\\u00e9\"},\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"echo hi\"\n          }\n        ]\n      }\n    ]\n  }\n}",
}

// claudeInstalls are install flag sets: each handler type, matchers, an
// "if" rule, the exec form, a shell and options.
var claudeInstalls = [][]string{
	{"-event", "PreToolUse", "-matcher", "Bash", "--", "/opt/guard"},
	{"-event", "PreToolUse", "-timeout", "5", "--", "/opt/guard", "--strict"},
	{"-event", "Stop", "-shell", "bash", "-status-message", "checking", "--", "/opt/stop"},
	{"-event", "PostToolUse", "-matcher", "Edit|Write", "-type", "http", "-url", "https://example.com/h", "-on-failure", "block"},
	{"-event", "UserPromptSubmit", "-type", "prompt", "-prompt", "Is $ARGUMENTS safe?", "-model", "haiku"},
	{"-event", "PreToolUse", "-matcher", "Bash", "-if", "Bash(git *)", "-exec", "--", "/opt/git-guard"},
	{"-event", "SessionStart", "-type", "mcp_tool", "-server", "memory", "-tool", "load"},
}

// codexStarts and codexInstalls are the same for Codex's hooks.json.
var codexStarts = []string{
	noFile,
	"{}",
	"{}\n",
	"{\n}\n",
	`{"hooks":{}}`,
	"{\n  \"hooks\": {\n  }\n}\n",
	`{"hooks":{"PreToolUse":[]}}`,
	"{\n\t\"description\": \"team hooks\",\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"/bin/true\", \"x-owner\": \"ops\"}]}\n\t\t]\n\t}\n}\n",
	"{\"description\":\"d\",\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"/opt/other\",\"timeout\":5}]}]}}",
}

var codexInstalls = [][]string{
	{"-event", "PreToolUse", "-matcher", "Bash", "--", "/opt/guard"},
	{"-event", "Stop", "-timeout", "30", "-status-message", "checking", "--", "/opt/stop", "a b"},
	{"-event", "SessionStart", "--", "/opt/start"},
}

// roundTrips installs each install flag set into each starting file and
// uninstalls it with the same flags, and returns how many round trips did
// not give back the starting bytes (or left a file where there was none).
func roundTrips(t *testing.T, e *env, path string, starts []string, installs [][]string, agentArgs ...string) (differ, total int) {
	for _, start := range starts {
		for _, flags := range installs {
			total++
			os.Remove(path)
			if start != noFile {
				write(t, path, start, 0o644)
			}
			args := append(append([]string{"-settings", path}, agentArgs...), flags...)
			_, errOut, code := e.run(append([]string{"install"}, args...)...)
			require.Equal(t, 0, code, "%q %v: %s", start, flags, errOut)
			require.NotEqual(t, start, read(t, path), "%q %v: install changed nothing", start, flags)
			_, errOut, code = e.run(append([]string{"uninstall"}, args...)...)
			require.Equal(t, 0, code, "%q %v: %s", start, flags, errOut)
			got, err := os.ReadFile(path)
			switch {
			case start == noFile && err == nil:
				differ++
				t.Logf("%v: no file before, %q after", flags, got)
			case start != noFile && string(got) != start:
				differ++
				t.Logf("%q %v: %q after", start, flags, got)
			}
		}
	}
	return differ, total
}

// TestRoundTripGivesBackBytes checks that uninstall is the exact inverse
// of install for Claude Code settings files and Codex's hooks.json: the
// starting bytes come back, a pre-existing empty "hooks" object or event
// array stays, a file install made is deleted, and a file the user had
// (even an empty "{}") is never deleted.
func TestRoundTripGivesBackBytes(t *testing.T) {
	e, _ := codexEnv(t)
	claude := filepath.Join(e.project, ".claude", "settings.local.json")
	d1, n1 := roundTrips(t, e, claude, claudeStarts, claudeInstalls)
	codex := filepath.Join(e.project, ".codex", "hooks.json")
	d2, n2 := roundTrips(t, e, codex, codexStarts, codexInstalls, "-agent", "codex")
	t.Logf("%d of %d round trips differ (Claude Code %d of %d, Codex %d of %d)", d1+d2, n1+n2, d1, n1, d2, n2)
	assert.Zero(t, d1+d2, "round trips that do not give back the original bytes")
}

// TestRoundTripWithoutLedger checks that uninstall without the record
// install keeps (deleted, or no configuration folder) removes what it
// empties, as Remove does, and deletes no file.
func TestRoundTripWithoutLedger(t *testing.T) {
	e := newEnv(t)
	path := filepath.Join(e.project, ".claude", "settings.json")
	write(t, path, `{"hooks":{}}`, 0o644)
	_, errOut, code := e.run("install", "-settings", path, "-event", "Stop", "--", "/opt/stop")
	require.Equal(t, 0, code, errOut)
	lf, err := ledgerFile()
	require.NoError(t, err)
	assert.Contains(t, read(t, lf), `"Level": "hooks"`)
	require.NoError(t, os.Remove(lf))
	_, errOut, code = e.run("uninstall", "-settings", path, "-event", "Stop", "--", "/opt/stop")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "{}", read(t, path))

	// A file install made, its record gone: uninstall leaves "{}".
	require.NoError(t, os.Remove(path))
	_, errOut, code = e.run("install", "-settings", path, "-event", "Stop", "--", "/opt/stop")
	require.Equal(t, 0, code, errOut)
	require.NoError(t, os.Remove(lf))
	_, errOut, code = e.run("uninstall", "-settings", path, "-event", "Stop", "--", "/opt/stop")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "{}\n", read(t, path))
}

// TestUninstallDeletesOnlyWhatInstallMade checks the file install made:
// uninstall deletes it only when nothing else was added to it, and says
// so; a dry run shows it; and the ledger forgets the file.
func TestUninstallDeletesOnlyWhatInstallMade(t *testing.T) {
	e := newEnv(t)
	path := filepath.Join(e.project, ".claude", "settings.json")
	install := []string{"-event", "Stop", "--", "/opt/stop"}
	_, errOut, code := e.run(append([]string{"install"}, install...)...)
	require.Equal(t, 0, code, errOut)

	out, errOut, code := e.run(append([]string{"uninstall", "-dry-run"}, install...)...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "would be removed 1 handler(s), and deleted the file install had made")
	assert.Contains(t, out, "-{\n")
	assert.FileExists(t, path)

	// Something else added meanwhile: the file stays, with it.
	_, errOut, code = e.run("install", "-event", "PreToolUse", "--", "/opt/pre")
	require.Equal(t, 0, code, errOut)
	out, errOut, code = e.run(append([]string{"uninstall"}, install...)...)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "deleted")
	out, errOut, code = e.run("uninstall", "-event", "PreToolUse", "--", "/opt/pre")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "removed 1 handler(s), and deleted the file install had made")
	_, err := os.Lstat(path)
	assert.True(t, os.IsNotExist(err), "the file install made is still there")
	lf, err := ledgerFile()
	require.NoError(t, err)
	_, err = os.Stat(lf)
	assert.True(t, os.IsNotExist(err), "the ledger kept a record of a deleted file")

	// The user's own "{}" with the handler written by hand in it: kept.
	write(t, path, "{}\n", 0o644)
	_, errOut, code = e.run(append([]string{"install"}, install...)...)
	require.Equal(t, 0, code, errOut)
	_, errOut, code = e.run(append([]string{"uninstall"}, install...)...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "{}\n", read(t, path))
	assert.False(t, strings.Contains(read(t, lf), "missing"))
}

// TestLedgerDropsVanishedFiles checks that the record of a file that no
// longer exists is dropped at the next install, so the ledger does not
// grow with files long gone.
func TestLedgerDropsVanishedFiles(t *testing.T) {
	e := newEnv(t)
	gone := filepath.Join(e.project, "gone.json")
	_, errOut, code := e.run("install", "-settings", gone, "-event", "Stop", "--", "/opt/stop")
	require.Equal(t, 0, code, errOut)
	lf, err := ledgerFile()
	require.NoError(t, err)
	require.Contains(t, read(t, lf), "gone.json")
	require.NoError(t, os.Remove(gone))
	other := filepath.Join(e.project, "other.json")
	write(t, other, `{"hooks":{}}`, 0o644)
	_, errOut, code = e.run("install", "-settings", other, "-event", "Stop", "--", "/opt/stop")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, read(t, lf), "gone.json")
	assert.Contains(t, read(t, lf), "other.json")
}
