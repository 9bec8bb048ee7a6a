package agent

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodexHooksOfHashes: the keys and trusted hashes of the hooks of
// testdata/codextrust/hooks.json are those the real Codex 0.171.0 listed
// for the same file (codex app-server, method hooks/list: each hook's key
// and currentHash), its source path cut off. The file holds what changes
// a hash or a key: a prompt handler (it counts in the positions), a
// commandWindows (used on Windows only), a timeout of 0 (read as 1),
// async, a statusMessage, an empty statusMessage, additionalContextLimit,
// the spellings Codex ignores (timeoutSec, status_message), a group whose
// matcher is not a regular expression (skipped) and one on an event that
// ignores matchers (kept, the matcher left out), a blank command
// (skipped), a command with every kind of character serde_json escapes or
// not, SessionEnd's default and clamped timeouts, Interrupt's, and
// PreModelRequest.
func TestCodexHooksOfHashes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the vectors are Codex's on Unix, where commandWindows is not used")
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "codextrust", "hooks.json"))
	require.NoError(t, err)
	want := map[string]string{
		"pre_model_request:0:0":  "sha256:20927c46fc93f8501aa70757fd8d0fcc5bda97851a106cb1e0ddcf95e1e9d6fb",
		"pre_tool_use:0:0":       "sha256:4880971825a929690b01ed332349d657cf8de09551b66732559910db4bedd0ec",
		"pre_tool_use:1:1":       "sha256:fabe6f14d69867cad0f2d138f3ba3541b6eaad30bf5f8afd206d560bc78f5b5e",
		"pre_tool_use:2:0":       "sha256:2d9dc0438ecbcb099d112212ac6bdf50c9c63ec141b231da777f71f5fa761946",
		"pre_tool_use:3:0":       "sha256:7cd72d82aff5c414ab9a03fca1533847df2e0e6d24c1f9061d8282e3881cda2b",
		"pre_tool_use:5:1":       "sha256:8cefa6790767335a8719270c990170a13beef3a958e85766cf1e1ba0a2702137",
		"session_end:0:0":        "sha256:d1f0aa06e3483302b35c0c173859627c8e2d5d67d4a2861c87f9110d2a91798b",
		"session_end:0:1":        "sha256:b1abc8bba42227b2771aa35ff1fc9bc10991576fe834f897314e38453822eb6e",
		"user_prompt_submit:0:0": "sha256:c3ed268ccc955f7acab78db195c2d4ab18d0a69eb09542c732af209ad7fcc701",
		"interrupt:0:0":          "sha256:68f5dc75a5648b68b6d1eafe1d1dc6115c46a3ac450b50eb89a15088bbb32036",
	}
	hooks, err := CodexHooksOf(raw)
	require.NoError(t, err)
	got := map[string]string{}
	for _, h := range hooks {
		hash, err := h.Hash()
		require.NoError(t, err)
		key := h.Key("/src/hooks.json")
		require.True(t, strings.HasPrefix(key, "/src/hooks.json:"), key)
		got[strings.TrimPrefix(key, "/src/hooks.json:")] = hash
	}
	assert.Equal(t, want, got)
}

// TestCodexHookHashChanges: every member Codex hashes changes the hash,
// and what it ignores does not.
func TestCodexHookHashChanges(t *testing.T) {
	u := func(n uint64) *uint64 { return &n }
	s := func(v string) *string { return &v }
	base := CodexHandler{Command: "/bin/guard"}
	h0, err := CodexHookHash("PreToolUse", s("Bash"), base)
	require.NoError(t, err)
	same := func(event string, m *string, h CodexHandler) {
		t.Helper()
		got, err := CodexHookHash(event, m, h)
		require.NoError(t, err)
		assert.Equal(t, h0, got)
	}
	differ := func(event string, m *string, h CodexHandler) {
		t.Helper()
		got, err := CodexHookHash(event, m, h)
		require.NoError(t, err)
		assert.NotEqual(t, h0, got)
	}
	same("PreToolUse", s("Bash"), CodexHandler{Command: "/bin/guard", Timeout: u(600)})
	differ("PreToolUse", s("Bash"), CodexHandler{Command: "/bin/guard", Timeout: u(601)})
	differ("PreToolUse", nil, base)
	differ("PreToolUse", s(""), base)
	differ("PostToolUse", s("Bash"), base)
	differ("PreToolUse", s("Bash"), CodexHandler{Command: "/bin/guard ", Timeout: u(600)})
	differ("PreToolUse", s("Bash"), CodexHandler{Command: "/bin/guard", Async: true})
	differ("PreToolUse", s("Bash"), CodexHandler{Command: "/bin/guard", StatusMessage: s("")})
	differ("PreToolUse", s("Bash"), CodexHandler{Command: "/bin/guard", AdditionalContextLimit: u(0)})
	if runtime.GOOS != "windows" {
		same("PreToolUse", s("Bash"), CodexHandler{Command: "/bin/guard", CommandWindows: s("guard.exe")})
	}

	// Stop ignores matchers and additionalContextLimit: with or
	// without them, the hash is the same.
	a, _ := CodexHookHash("Stop", nil, base)
	b, _ := CodexHookHash("Stop", s("anything"), CodexHandler{Command: "/bin/guard", AdditionalContextLimit: u(5)})
	assert.Equal(t, a, b)

	_, err = CodexHookHash("Notification", nil, base)
	assert.Error(t, err)
	_, err = CodexHookHash("Stop", nil, CodexHandler{Command: "x", Timeout: u(1 << 63)})
	assert.Error(t, err)
}

func TestCodexTimeout(t *testing.T) {
	u := func(n uint64) *uint64 { return &n }
	assert.EqualValues(t, 600, CodexTimeout("PreToolUse", nil))
	assert.EqualValues(t, 1, CodexTimeout("PreToolUse", u(0)))
	assert.EqualValues(t, 100000, CodexTimeout("Stop", u(100000)))
	assert.EqualValues(t, 1, CodexTimeout("SessionEnd", nil))
	assert.EqualValues(t, 3, CodexTimeout("SessionEnd", u(30)))
	assert.EqualValues(t, 2, CodexTimeout("Interrupt", u(2)))
	assert.EqualValues(t, 1, CodexTimeout("Interrupt", u(0)))
}

func TestCodexHookKey(t *testing.T) {
	assert.Equal(t, "/h/hooks.json:pre_tool_use:2:0", CodexHookKey("/h/hooks.json", "PreToolUse", 2, 0))
	assert.Equal(t, "/h/config.toml:permission_request:0:3", CodexHookKey("/h/config.toml", "PermissionRequest", 0, 3))
	assert.Equal(t, "/h/hooks.json:subagent_stop:1:1", CodexHookKey("/h/hooks.json", "SubagentStop", 1, 1))
}

func TestCodexHooksOfRefusedFile(t *testing.T) {
	_, err := CodexHooksOf([]byte(`{"hooks":{"Notification":[]}}`))
	assert.Error(t, err)
	hs, err := CodexHooksOf([]byte(`{}`))
	assert.NoError(t, err)
	assert.Empty(t, hs)
}
