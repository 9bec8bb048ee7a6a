package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	tKey  = `/home/u/.codex/hooks.json:pre_tool_use:0:0`
	tHash = "sha256:4880971825a929690b01ed332349d657cf8de09551b66732559910db4bedd0ec"
)

// TestSetTrustAppends: a table is added at the end, every byte before it
// kept (comments, layout, a file without a final newline, CRLF), and
// readCodexStates reads it back as hookctl's.
func TestSetTrustAppends(t *testing.T) {
	for _, in := range []string{
		"",
		"model = \"o3\" # mine\n\n[features]\nhooks = true\n",
		"model = \"o3\"",
		"model = \"o3\"\r\n[features]\r\nhooks = true\r\n",
		"a = \"\"\"\n[hooks.state.\"" + tKey + "\"]\n\"\"\"\n", // a header inside a string is no header
	} {
		out, changed, err := setTrust([]byte(in), tKey, tHash)
		require.NoError(t, err, in)
		assert.True(t, changed)
		assert.True(t, strings.HasPrefix(string(out), in), "the file's bytes are kept: %q", out)
		nl := lineEnding([]byte(in))
		assert.True(t, strings.HasSuffix(string(out), "[hooks.state.\""+tKey+"\"]"+nl+"trusted_hash = \""+tHash+"\" "+trustMark+nl), "%q", out)
		st, unread := readCodexStates(out)
		assert.Zero(t, unread)
		assert.Equal(t, tHash, st[tKey].Hash)
		assert.True(t, st[tKey].Marked)

		again, changed, err := setTrust(out, tKey, tHash)
		require.NoError(t, err)
		assert.False(t, changed, "trusting twice changes nothing")
		assert.Equal(t, string(out), string(again))

		back, removed := removeTrust(out, tKey, tHash)
		assert.True(t, removed)
		want := in
		if in == "model = \"o3\"" {
			want += "\n" // the newline setTrust added to end the last line stays
		}
		assert.Equal(t, want, string(back), "uninstall gives the file back")
	}
}

// TestSetTrustExistingTable: an existing table for the key keeps its
// other lines (enabled = false, a comment) and gets the hash in place.
func TestSetTrustExistingTable(t *testing.T) {
	in := "# top\n[hooks.state.'" + tKey + "']\nenabled = false # mine\n  trusted_hash = \"sha256:old\" # user's\n\n[other]\nx = 1\n"
	out, changed, err := setTrust([]byte(in), tKey, tHash)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, "# top\n[hooks.state.'"+tKey+"']\nenabled = false # mine\n  trusted_hash = \""+tHash+"\" "+trustMark+"\n\n[other]\nx = 1\n", string(out))
	st, _ := readCodexStates(out)
	require.NotNil(t, st[tKey].Enabled)
	assert.False(t, *st[tKey].Enabled)

	// Only the marked line goes: the table and enabled stay.
	back, removed := removeTrust(out, tKey, tHash)
	assert.True(t, removed)
	assert.Equal(t, "# top\n[hooks.state.'"+tKey+"']\nenabled = false # mine\n\n[other]\nx = 1\n", string(back))

	// A header that ends the file without a newline.
	in = "[hooks.state.\"" + tKey + "\"]"
	out, _, err = setTrust([]byte(in), tKey, tHash)
	require.NoError(t, err)
	assert.Equal(t, in+"\ntrusted_hash = \""+tHash+"\" "+trustMark+"\n", string(out))

	// A table without trusted_hash gets it under its header.
	in = "[hooks.state.\"" + tKey + "\"]\nenabled = true\n"
	out, _, err = setTrust([]byte(in), tKey, tHash)
	require.NoError(t, err)
	assert.Equal(t, "[hooks.state.\""+tKey+"\"]\ntrusted_hash = \""+tHash+"\" "+trustMark+"\nenabled = true\n", string(out))
}

// TestRemoveTrustOnlyHookctls: uninstall leaves a trust hookctl did not
// write, or of another hash, alone.
func TestRemoveTrustOnlyHookctls(t *testing.T) {
	users := "[hooks.state.\"" + tKey + "\"]\ntrusted_hash = \"" + tHash + "\"\n"
	out, removed := removeTrust([]byte(users), tKey, tHash)
	assert.False(t, removed)
	assert.Equal(t, users, string(out))

	marked := "[hooks.state.\"" + tKey + "\"]\ntrusted_hash = \"sha256:other\" " + trustMark + "\n"
	out, removed = removeTrust([]byte(marked), tKey, tHash)
	assert.False(t, removed)
	assert.Equal(t, marked, string(out))

	other := "[hooks.state.\"" + tKey + "x\"]\ntrusted_hash = \"" + tHash + "\" " + trustMark + "\n"
	_, removed = removeTrust([]byte(other), tKey, tHash)
	assert.False(t, removed)
}

// TestSetTrustRefusesOtherForms: hook state written inline or with
// dotted keys is not edited (a second definition would make the file
// one Codex cannot load), and readCodexStates says it cannot read it.
func TestSetTrustRefusesOtherForms(t *testing.T) {
	for _, in := range []string{
		"hooks = { state = { \"" + tKey + "\" = { enabled = false } } }\n",
		"hooks.state.\"" + tKey + "\".enabled = false\n",
		"[hooks]\nstate = {}\n",
		"[hooks]\nstate.\"" + tKey + "\" = { enabled = false }\n",
		"[hooks.state]\n\"" + tKey + "\" = { enabled = false }\n",
		"[hooks.state.\"" + tKey + "\"]\nx.y = 1\n",
	} {
		_, _, err := setTrust([]byte(in), tKey, tHash)
		assert.ErrorContains(t, err, "form hookctl does not edit", in)
		_, unread := readCodexStates([]byte(in))
		assert.NotZero(t, unread, in)
	}
	// Another hook's state in [hooks.state] is no obstacle.
	in := "[hooks.state]\n\"/other:stop:0:0\" = { enabled = false }\n"
	out, changed, err := setTrust([]byte(in), tKey, tHash)
	require.NoError(t, err)
	assert.True(t, changed)
	assert.True(t, strings.HasPrefix(string(out), in))
}

func TestTomlQuote(t *testing.T) {
	assert.Equal(t, `"C:\\Users\\u\\.codex\\hooks.json:stop:0:0"`, tomlQuote(`C:\Users\u\.codex\hooks.json:stop:0:0`))
	assert.Equal(t, `"a\"b\tc\u0001"`, tomlQuote("a\"b\tc\x01"))
	for _, s := range []string{`C:\x`, "a\"b\tc\x01é", "plain"} {
		got, rest, err := tomlString(tomlQuote(s))
		require.NoError(t, err)
		assert.Equal(t, s, got)
		assert.Empty(t, rest)
	}
}

func TestTrustOf(t *testing.T) {
	off := false
	states := map[string]codexState{
		"a": {Hash: tHash, Line: 3},
		"b": {Hash: "sha256:x", Line: 5},
		"c": {Hash: tHash, Enabled: &off, Line: 7},
		"d": {Line: 9},
	}
	msg, _ := trustOf(states, "a", tHash)
	assert.Empty(t, msg)
	msg, _ = trustOf(states, "b", tHash)
	assert.Contains(t, msg, "changed since it was trusted")
	msg, _ = trustOf(states, "c", tHash)
	assert.Contains(t, msg, "enabled = false")
	msg, fix := trustOf(states, "d", tHash)
	assert.Equal(t, "installed, not trusted: will not run", msg)
	assert.Contains(t, fix, "-trust")
	msg, _ = trustOf(states, "e", tHash)
	assert.Equal(t, "installed, not trusted: will not run", msg)
}

// TestReadCodexTOMLHashes: the hooks of a config.toml hash as the real
// Codex 0.171.0 hashed them (codex app-server, hooks/list, for this
// file as $CODEX_HOME/config.toml): timeoutSec is not read, statusMessage
// and a matcher are, and additionalContextLimit counts even on Stop, where
// Codex warns that it ignores it.
func TestReadCodexTOMLHashes(t *testing.T) {
	got := readCodexTOML([]byte(`model = "fake-model"
[features]
hooks = true

[[hooks.PreToolUse]]
matcher = "^Bash$"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "/g --strict"
timeout = 10
timeoutSec = 99
statusMessage = "checking"

[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = 'C:\hooks\a.exe'
async = true
additionalContextLimit = 7
`))
	require.Empty(t, got.Problems)
	require.Len(t, got.Codex, 2)
	want := map[string]string{
		"/h/config.toml:pre_tool_use:0:0": "sha256:d78de54f2945f39781dce53459d045688f0fe9905373f219c984798a5b20b2fa",
		"/h/config.toml:stop:0:0":         "sha256:b130ff4b1f3665055151c53c55138d2f566c03a8e17655a0d6400c3a3361b57e",
	}
	for _, c := range got.Codex {
		h, err := c.Hash()
		require.NoError(t, err)
		assert.Equal(t, want[c.Key("/h/config.toml")], h, c.Key("/h/config.toml"))
	}
}

// TestCodexSource: the folder is named by its real path, as Codex names
// CODEX_HOME, also when it does not exist yet.
func TestCodexSource(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "target"), 0o755))
	if os.Symlink(filepath.Join(dir, "target"), link) != nil {
		t.Skip("no symbolic links here")
	}
	assert.Equal(t, filepath.Join(real, "target", "hooks.json"), codexSource(link, "hooks.json"))
	assert.Equal(t, filepath.Join(real, "target", ".codex", "hooks.json"), codexSource(filepath.Join(link, ".codex"), "hooks.json"))
}
