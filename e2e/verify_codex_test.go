package e2e_test

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/codextest"
)

// verifyCodex runs hookctl verify -agent codex -json in project, with
// CODEX_HOME (and HOME) home, and returns its reports by the base name of
// their command, its exit code and stderr, and the folder of its runs.
func verifyCodex(t *testing.T, hookctl, bin, home, project string, args ...string) (map[string]verifyReport, int, string, string) {
	t.Helper()
	keep := filepath.Join(t.TempDir(), "keep")
	cmd := exec.Command(hookctl, append([]string{"verify", "-agent", "codex", "-json", "-codex", bin, "-netns", "off", "-keep", keep}, args...)...)
	cmd.Dir = project
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "HOME="+home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	var reps []verifyReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &reps), "stdout %s\nstderr %s", stdout.Bytes(), stderr.Bytes())
	by := map[string]verifyReport{}
	for _, r := range reps {
		by[filepath.Base(strings.Fields(r.Command)[0])] = r
	}
	// No credential reached any scratch.
	filepath.WalkDir(keep, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		assert.NotEqual(t, "auth.json", d.Name(), "copied a credential: %s", p)
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.NotContains(t, string(b), "sk-secret", "a credential in %s", p)
			if d.Name() == "config.toml" && filepath.Base(filepath.Dir(p)) == "home" {
				assert.NotContains(t, string(b), "corp.invalid", "another host in %s", p)
			}
		}
		return nil
	})
	return by, code, stderr.String(), keep
}

// TestVerifyCodex runs hookctl verify -agent codex on a user's Codex
// hooks in the real Codex: a trusted guard fires and blocks, a trusted
// hook whose program is missing did not run, a project's rewrite reports
// the members the tool received, and once the project is not trusted the
// same rewrite will not run, with the fix; an untrusted user hook will
// not run either. verify exits 1, never copies auth.json, and leaves the
// user's files byte for byte as they were.
func TestVerifyCodex(t *testing.T) {
	codextest.Need(t)
	bin, _, err := codextest.Client(os.Stderr)
	require.NoError(t, err)
	run := codexHookctl(t)
	hookctl := filepath.Join(t.TempDir(), "hookctl")
	out, err := exec.Command("go", "build", "-o", hookctl, "../cmd/hookctl").CombinedOutput()
	require.NoError(t, err, "go build ../cmd/hookctl: %s", out)

	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	require.NoError(t, os.MkdirAll(filepath.Join(proj, ".codex"), 0o755))
	script := func(name, body string) string {
		p := filepath.Join(dir, "bin", name)
		require.NoError(t, writeFile(p, []byte("#!/bin/sh\n"+body), 0o755))
		return p
	}
	// The guard lives in the Codex folder, which verify copies, and is
	// named through $CODEX_HOME, the scratch one in the run.
	require.NoError(t, writeFile(filepath.Join(home, "hooks", "guard"), []byte("#!/bin/sh\ncat >/dev/null\necho 'no shell today' >&2\nexit 2\n"), 0o755))
	rewrite := script("rewrite", `cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > rewritten.txt"}}}'
`)
	untrusted := script("untrusted", "cat >/dev/null\n")
	require.NoError(t, writeFile(filepath.Join(home, "auth.json"), []byte(`{"OPENAI_API_KEY":"sk-secret"}`), 0o600))
	run(t, home, proj, "install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "-timeout", "10", "-trust", "--", "$CODEX_HOME/hooks/guard")
	run(t, home, proj, "install", "-agent", "codex", "-scope", "user", "-event", "Stop", "-trust", "--", filepath.Join(dir, "missing", "hook"))
	run(t, home, proj, "install", "-agent", "codex", "-scope", "user", "-event", "UserPromptSubmit", "--", untrusted)
	run(t, home, proj, "install", "-agent", "codex", "-scope", "project", "-event", "PreToolUse", "-matcher", "Bash", "-trust", "--", rewrite)
	// The user's own settings: carried into the scratch but what would
	// reach another host or hold a credential.
	cfg, err := os.ReadFile(filepath.Join(home, "config.toml"))
	require.NoError(t, err)
	cfg = append([]byte("model = \"gpt-9\"\nmodel_reasoning_effort = \"high\"\n\n[model_providers.corp]\nbase_url = \"https://corp.invalid/v1\"\nexperimental_bearer_token = \"sk-secret\"\n\n[shell_environment_policy]\ninherit = \"core\"\n\n"), cfg...)
	require.NoError(t, os.WriteFile(filepath.Join(home, "config.toml"), cfg, 0o600))
	trustProject(t, home, proj)
	before := digestTree(t, dir)

	by, code, stderr, keep := verifyCodex(t, hookctl, bin, home, proj)
	assert.Equal(t, 1, code, "hooks did not run: exit 1; stderr %s", stderr)
	scratchCfg, err := os.ReadFile(filepath.Join(keep, "hook-1", "home", "config.toml"))
	require.NoError(t, err)
	assert.Contains(t, string(scratchCfg), "model_reasoning_effort = \"high\"", "the user's settings are carried")
	assert.Contains(t, string(scratchCfg), "[shell_environment_policy]", "the user's settings are carried")
	require.Len(t, by, 4, "%v", by)

	g := by["guard"]
	assert.Equal(t, "fired", g.Status, "%+v", g)
	assert.Equal(t, "blocked", g.Did)
	assert.Equal(t, "blocked", g.Outcome, "the shell call did not run")
	if assert.NotNil(t, g.Valid) {
		assert.True(t, *g.Valid)
	}
	assert.Equal(t, 10.0, g.Timeout)
	assert.Greater(t, g.Time, 0.0)

	m := by["hook"]
	assert.Equal(t, "did not run", m.Status, "%+v", m)
	assert.Contains(t, m.Why, "spawn failure")

	rw := by["rewrite"]
	assert.Equal(t, "fired", rw.Status, "%+v", rw)
	assert.Equal(t, "rewrote", rw.Did)
	assert.Equal(t, "ran", rw.Outcome)
	assert.JSONEq(t, `{"command":"echo rewritten > rewritten.txt"}`, string(rw.Received), "the members the tool received")

	u := by["untrusted"]
	assert.Equal(t, "will not run", u.Status, "%+v", u)
	assert.Contains(t, u.Why, "not trusted")
	assert.Contains(t, u.Fix, "/hooks")
	assert.Equal(t, before, digestTree(t, dir), "the user's files are byte for byte as they were")

	// The project untrusted: its hook will not run, and verify says how
	// to make it.
	require.NoError(t, os.WriteFile(filepath.Join(home, "config.toml"), cfg, 0o644))
	by, code, stderr, _ = verifyCodex(t, hookctl, bin, home, proj)
	assert.Equal(t, 1, code, "stderr %s", stderr)
	rw = by["rewrite"]
	assert.Equal(t, "will not run", rw.Status, "%+v", rw)
	assert.Contains(t, rw.Why, "the project is not trusted")
	assert.Contains(t, rw.Fix, "trust_level")
	assert.Equal(t, "fired", by["guard"].Status, "the user's layer still runs")
}

// TestVerifyCodexFailCrash replaces a trusted guard by one that crashes:
// Codex lets the call through.
func TestVerifyCodexFailCrash(t *testing.T) {
	codextest.Need(t)
	bin, _, err := codextest.Client(os.Stderr)
	require.NoError(t, err)
	run := codexHookctl(t)
	hookctl := filepath.Join(t.TempDir(), "hookctl")
	out, err := exec.Command("go", "build", "-o", hookctl, "../cmd/hookctl").CombinedOutput()
	require.NoError(t, err, "%s", out)
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	require.NoError(t, os.MkdirAll(proj, 0o755))
	run(t, home, proj, "install", "-agent", "codex", "-scope", "user", "-event", "PreToolUse", "-matcher", "Bash", "-trust", "--", "true")
	by, code, stderr, _ := verifyCodex(t, hookctl, bin, home, proj, "-fail", "crash")
	assert.Equal(t, 0, code, "a failure -fail asked for is no problem: %s", stderr)
	r := by["true"]
	assert.Equal(t, "fired", r.Status, "%+v", r)
	assert.Equal(t, "crash", r.Fail)
	assert.Equal(t, "ran", r.Outcome, "Codex lets the call through when a PreToolUse hook crashes")
}
