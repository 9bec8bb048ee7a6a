package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/settings"
)

// TestScratchManagedSettings builds the scratch of a managed hook: the
// scratch managed folder holds each of the user's managed files at its
// place, every member kept but what reaches out, only the hook under test
// (behind the recorder, its options kept), the rest of the folder but
// managed-mcp.json and credentials; the user's files are unchanged.
func TestScratchManagedSettings(t *testing.T) {
	e := newEnv(t)
	managed := os.Getenv("HOOKCTL_MANAGED_DIR")
	main := `{"allowManagedHooksOnly": true, "companyAnnouncements": ["hi"], "apiKeyHelper": "/bin/key",
 "env": {"KEEP": "1", "HTTPS_PROXY": "http://proxy.invalid"},
 "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard -x", "timeout": 7, "onFailure": "block"}]}]}}`
	dropIn := `{"permissions": {"deny": ["WebFetch"]}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "other"}]}]}}`
	files := map[string]string{
		filepath.Join(managed, "managed-settings.json"):              main,
		filepath.Join(managed, "managed-settings.d", "20-more.json"): dropIn,
		filepath.Join(managed, "managed-mcp.json"):                   `{"mcpServers": {}}`,
		filepath.Join(managed, "policy.txt"):                         "kept",
		filepath.Join(managed, "api-token"):                          "secret",
	}
	for p, c := range files {
		write(t, p, c, 0o644)
	}
	l, err := load(e.project, nil)
	require.NoError(t, err)
	require.Empty(t, l.errs)
	require.Len(t, l.hooks, 2)
	require.Equal(t, settings.ScopeManaged, l.hooks[0].src.Scope)

	v := &verifier{l: l, exe: "/bin/hookctl", work: t.TempDir(), files: userFiles{},
		managed: &managedMount{active: true, src: managed, target: "/etc/claude-code", exe: "/bin/hookctl"}}
	s, err := v.prepareScratch(0, verifyPlan{})
	require.NoError(t, err)
	sm := v.managed.scratchDir(s.dir)

	got := read(t, filepath.Join(sm, "managed-settings.json"))
	for _, kept := range []string{`"allowManagedHooksOnly": true`, `"companyAnnouncements"`, `"KEEP": "1"`, `"timeout": 7`, `"onFailure": "block"`, `"__tap"`, `"guard -x"`, s.capDir} {
		assert.Contains(t, got, kept)
	}
	for _, gone := range []string{"apiKeyHelper", "proxy.invalid"} {
		assert.NotContains(t, got, gone)
	}
	hs, err := settings.Parse([]byte(got))
	require.NoError(t, err)
	require.Len(t, hs, 1, "the hook under test alone")
	assert.Equal(t, "/bin/hookctl", hs[0].Handler.Command)

	more := read(t, filepath.Join(sm, "managed-settings.d", "20-more.json"))
	assert.Contains(t, more, `"WebFetch"`, "the drop-in's members are kept")
	assert.NotContains(t, more, "other", "the drop-in's hooks are not the one under test")
	assert.Equal(t, "kept", read(t, filepath.Join(sm, "policy.txt")))
	for _, gone := range []string{"managed-mcp.json", "api-token"} {
		_, err := os.Stat(filepath.Join(sm, gone))
		assert.ErrorIs(t, err, os.ErrNotExist, gone)
	}
	for p, c := range files {
		assert.Equal(t, c, read(t, p), "the user's managed file is unchanged")
	}
	assert.Empty(t, v.files.changed())
	assert.Contains(t, v.files, filepath.Join(managed, "managed-settings.json"), "verify checks the managed files stay unchanged")

	// Inactive, the managed hooks are not checked, with the reason, and
	// no scratch managed folder is made.
	v.managed = &managedMount{why: "user namespaces unavailable: test"}
	s, err = v.prepareScratch(1, verifyPlan{})
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(s.dir, "managed"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Equal(t, "user namespaces unavailable: test", v.managed.skip())
	assert.True(t, strings.HasPrefix((*managedMount)(nil).skip(), "managed settings are read"))
}
