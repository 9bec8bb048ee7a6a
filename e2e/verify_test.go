package e2e_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/internal/clientrun"
)

// verifyReport is one hook of `hookctl verify -json`.
type verifyReport struct {
	N        int            `json:"n"`
	Scope    string         `json:"scope"`
	Event    string         `json:"event"`
	Command  string         `json:"command"`
	Status   string         `json:"status"`
	Why      string         `json:"why"`
	Fix      string         `json:"fix"`
	Valid    *bool          `json:"valid"`
	Did      string         `json:"did"`
	Outcome  string         `json:"outcome"`
	Received jsontext.Value `json:"received"`
	Lost     []string       `json:"lost"`
	Time     float64        `json:"time"`
	Timeout  float64        `json:"timeout"`
	Fail     string         `json:"fail"`
	Log      []string       `json:"log"`
}

// TestVerify runs hookctl verify on a user's configuration of hooks in
// the real Claude Code: a working guard fires and blocks, a hook whose
// program is missing does not run (and blocks with onFailure "block"), a
// rewrite reports the input the tool received, a plugin's hook, a plugin
// built with hookctl plugin build and a prompt hook fire; verify exits 1 because a hook did not run, never
// copies the user's credentials, and leaves the user's files as they were.
func TestVerify(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	bin, _, err := claudeClient()
	require.NoError(t, err)
	hookctl := filepath.Join(t.TempDir(), "hookctl")
	out, err := exec.Command("go", "build", "-o", hookctl, "../cmd/hookctl").CombinedOutput()
	require.NoError(t, err, "go build ../cmd/hookctl: %s", out)

	dir := t.TempDir()
	home, proj, plugin := filepath.Join(dir, "home"), filepath.Join(dir, "proj"), filepath.Join(dir, "plugin")
	script := func(name, body string) string {
		p := filepath.Join(dir, "bin", name)
		require.NoError(t, writeFile(p, []byte("#!/bin/sh\n"+body), 0o755))
		return p
	}
	guard := script("guard", "cat >/dev/null\necho 'no Bash here' >&2\nexit 2\n")
	rewrite := script("rewrite", `cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > rewritten.txt","description":"kept"}}}'
`)
	ctx := script("context", "cat >/dev/null\necho 'remember the marker'\n")
	require.NoError(t, writeFile(filepath.Join(plugin, ".claude-plugin", "plugin.json"), []byte(`{"name":"probe","version":"1.0.0"}`), 0o644))
	require.NoError(t, writeFile(filepath.Join(plugin, "ctx.sh"), []byte("#!/bin/sh\ncat >/dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"seen\"}}'\n"), 0o755))
	require.NoError(t, writeFile(filepath.Join(plugin, "hooks", "hooks.json"), []byte(`{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/ctx.sh"}]}]}}`), 0o644))

	user := map[string]any{"hooks": map[string]any{
		"UserPromptSubmit": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": ctx}}}},
	}, "env": map[string]string{"ANTHROPIC_BASE_URL": "https://example.invalid", "KEEP": "1"}}
	project := map[string]any{"hooks": map[string]any{"PreToolUse": []any{
		map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": guard, "timeout": 10}}},
		map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": filepath.Join(dir, "missing", "hook"), "args": []string{}, "onFailure": "block"}}},
		map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": rewrite}}},
	}}}
	for p, v := range map[string]any{filepath.Join(home, ".claude", "settings.json"): user, filepath.Join(proj, ".claude", "settings.json"): project} {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.NoError(t, writeFile(p, b, 0o644))
	}
	require.NoError(t, writeFile(filepath.Join(home, ".claude", ".credentials.json"), []byte(`{"claudeAiOauth":{"accessToken":"sk-secret"}}`), 0o600))
	require.NoError(t, writeFile(filepath.Join(home, ".claude.json"), []byte(`{"primaryApiKey":"sk-secret","projects":{}}`), 0o600))
	built := filepath.Join(dir, "built")
	out, err = exec.Command(hookctl, "plugin", "build", "-dir", built, "-event", "PreToolUse", "-matcher", "Bash",
		"-targets", runtime.GOOS+"/"+runtime.GOARCH, "../examples/bashguard").CombinedOutput()
	require.NoError(t, err, "hookctl plugin build: %s", out)
	before := digestTree(t, dir)

	keep := filepath.Join(t.TempDir(), "keep")
	cmd := exec.Command(hookctl, "verify", "-json", "-claude", bin, "-netns", "off", "-keep", keep, "-plugin", plugin, "-plugin", built)
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=", "CLAUDE_CODE_PLUGIN_CACHE_DIR=", "HOOKCTL_MANAGED_DIR="+filepath.Join(dir, "managed"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "stdout %s\nstderr %s", stdout.Bytes(), stderr.Bytes())
	assert.Equal(t, 1, ee.ExitCode(), "a hook did not run: exit 1; stderr %s", stderr.Bytes())
	assert.Contains(t, stderr.String(), "[2/6] PreToolUse Bash", "a progress line per hook")

	var reps []verifyReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &reps), "%s", stdout.Bytes())
	require.Len(t, reps, 6, "%s", stdout.Bytes())
	by := map[string]verifyReport{}
	for _, r := range reps {
		by[filepath.Base(strings.Fields(r.Command)[0])] = r
	}

	g := by["guard"]
	assert.Equal(t, "fired", g.Status, "%+v", g)
	assert.Equal(t, "blocked", g.Did)
	assert.Equal(t, "blocked", g.Outcome, "the call did not run")
	if assert.NotNil(t, g.Valid) {
		assert.True(t, *g.Valid)
	}
	assert.Equal(t, 10.0, g.Timeout)
	assert.Greater(t, g.Time, 0.0)

	m := by["hook"]
	assert.Equal(t, "did not run", m.Status, "%+v", m)
	assert.Contains(t, m.Why, "spawn failure")
	assert.Equal(t, "blocked", m.Outcome, "onFailure block blocks the call")

	rw := by["rewrite"]
	assert.Equal(t, "fired", rw.Status, "%+v", rw)
	assert.Equal(t, "rewrote", rw.Did)
	assert.Equal(t, "ran", rw.Outcome)
	assert.JSONEq(t, `{"command":"echo rewritten > rewritten.txt","description":"kept"}`, string(rw.Received), "the members the tool received")

	c := by["context"]
	assert.Equal(t, "fired", c.Status, "%+v", c)
	assert.Equal(t, "UserPromptSubmit", c.Event)
	assert.Equal(t, "added context", c.Did)
	assert.Equal(t, "user", c.Scope)

	p := by["ctx.sh"]
	assert.Equal(t, "fired", p.Status, "%+v", p)
	assert.Equal(t, "plugin plugin", p.Scope)
	assert.Equal(t, "added context", p.Did)

	var pb verifyReport
	for _, r := range reps {
		if r.Scope == "plugin built" {
			pb = r
		}
	}
	assert.Equal(t, "fired", pb.Status, "a plugin built with hookctl plugin build: %+v", pb)
	assert.Equal(t, "no decision", pb.Did, "bashguard lets the marker command through")
	assert.Equal(t, "ran", pb.Outcome)
	if assert.NotEmpty(t, pb.Log, "bashguard, built with the library, writes its call log") {
		assert.Regexp(t, `^PreToolUse Bash: none, exit 0, [0-9.]+ ms$`, pb.Log[0])
	}
	assert.Empty(t, g.Log, "a shell hook writes no call log")
	if assert.NotNil(t, pb.Valid) {
		assert.True(t, *pb.Valid)
	}

	// No credential reached the scratch; the settings env that would
	// leave loopback was dropped, the rest kept.
	filepath.WalkDir(keep, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		assert.NotEqual(t, ".credentials.json", d.Name(), "copied a credential: %s", p)
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.NotContains(t, string(b), "sk-secret", "a credential in %s", p)
		}
		return nil
	})
	scratchUser, err := os.ReadFile(filepath.Join(keep, "hook-1", "home", ".claude", "settings.json"))
	require.NoError(t, err)
	assert.NotContains(t, string(scratchUser), "example.invalid")
	assert.Contains(t, string(scratchUser), `"KEEP"`)

	assert.Equal(t, before, digestTree(t, dir), "the user's files are byte for byte as they were")
}

// TestVerifyFailureLetsTheCallThrough replaces a guard by one that
// crashes: without onFailure the call goes through, with "block" it does
// not.
func TestVerifyFailureLetsTheCallThrough(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	bin, _, err := claudeClient()
	require.NoError(t, err)
	hookctl := filepath.Join(t.TempDir(), "hookctl")
	out, err := exec.Command("go", "build", "-o", hookctl, "../cmd/hookctl").CombinedOutput()
	require.NoError(t, err, "%s", out)
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	settings := `{"hooks":{"PreToolUse":[
		{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]},
		{"matcher":"Bash","hooks":[{"type":"command","command":"true","onFailure":"block"}]}]}}`
	require.NoError(t, writeFile(filepath.Join(proj, ".claude", "settings.json"), []byte(settings), 0o644))
	cmd := exec.Command(hookctl, "verify", "-json", "-claude", bin, "-netns", "off", "-fail", "crash")
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "CLAUDE_CONFIG_DIR=", "CLAUDE_CODE_PLUGIN_CACHE_DIR=", "HOOKCTL_MANAGED_DIR="+filepath.Join(dir, "managed"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "stderr %s", stderr.Bytes())
	var reps []verifyReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &reps), "%s", stdout.Bytes())
	require.Len(t, reps, 2)
	for _, r := range reps {
		assert.Equal(t, "fired", r.Status, "%+v", r)
		assert.Equal(t, "crash", r.Fail)
	}
	assert.Equal(t, "ran", reps[0].Outcome, "a crash lets the call through")
	assert.Equal(t, "blocked", reps[1].Outcome, "onFailure block holds")
}

// digestTree returns the digest of every file under dir.
func digestTree(t *testing.T, dir string) map[string][sha256.Size]byte {
	t.Helper()
	out := map[string][sha256.Size]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[p] = sha256.Sum256(b)
		return nil
	}))
	return out
}

// claudeClient returns the Claude Code executable claudetest runs (after
// claudetest.Need): the one its environment variables name or install.
func claudeClient() (string, string, error) {
	return clientrun.Claude{
		Bin: os.Getenv("CLAUDE_BIN"), Version: os.Getenv("HOOK_E2E_CLAUDE_VERSION"), Cache: os.Getenv("HOOK_E2E_CACHE"),
		BinHint: "CLAUDE_BIN", VersionHint: "HOOK_E2E_CLAUDE_VERSION=latest", CacheHint: "HOOK_E2E_CACHE",
	}.Find(context.Background(), os.Stderr)
}
