package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/e2e"
)

// The state TestMain prepares for the end-to-end tests.
var (
	harness  *e2e.Harness
	setupErr error
)

// TestMain installs Claude Code if needed (this needs the npm registry),
// restarts the test binary in a network namespace that has only loopback
// where it can, and builds the hooks under test and the helper binaries.
// Without HOOK_E2E=1 it does none of this and the end-to-end tests skip.
func TestMain(m *testing.M) {
	var cleanup func()
	if e2e.Enabled() {
		cleanup, setupErr = setup()
	}
	code := m.Run()
	if cleanup != nil {
		cleanup()
	}
	os.Exit(code)
}

func setup() (func(), error) {
	ctx := context.Background()
	if !e2e.InLoopbackNetNS() {
		bin, version, err := e2e.EnsureClaude(ctx, os.Stderr)
		if err != nil {
			return nil, err
		}
		os.Setenv(e2e.EnvClaudeBin, bin)
		fmt.Fprintf(os.Stderr, "e2e: %s (%s)\n", version, bin)
	}
	note, err := e2e.EnterLoopbackNetNS() // returns only when not restarting
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(os.Stderr, "e2e:", note)
	bin, version, err := e2e.EnsureClaude(ctx, os.Stderr)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(version, e2e.ClaudeVersion()+" ") {
		fmt.Fprintf(os.Stderr, "e2e: warning: testing Claude Code %q; these tests are verified against %s\n", version, e2e.DefaultClaudeVersion)
	}
	tmp, err := os.MkdirTemp("", "hook-e2e-bin-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	bctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	if err := e2e.Build(bctx, "..", tmp, "./examples/...", "./e2e/cmd/..."); err != nil {
		return cleanup, err
	}
	timeout := 120 * time.Second
	if s := os.Getenv(e2e.EnvTimeout); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return cleanup, fmt.Errorf("e2e: %s=%q: want a number of seconds", e2e.EnvTimeout, s)
		}
		timeout = time.Duration(n) * time.Second
	}
	jobs := 3
	if s := os.Getenv(e2e.EnvJobs); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			return cleanup, fmt.Errorf("e2e: %s=%q: want a positive number", e2e.EnvJobs, s)
		}
		jobs = n
	}
	harness = e2e.NewHarness(bin, tmp, timeout, jobs)
	return cleanup, nil
}

// needE2E skips the test unless the end-to-end tests were asked for, and
// fails it when their set-up failed.
func needE2E(t *testing.T) {
	t.Helper()
	if !e2e.Enabled() {
		t.Skipf("end-to-end test against the real Claude Code CLI: set %s=1 to run it (it installs @anthropic-ai/claude-code@%s with npm if needed)", e2e.EnvEnable, e2e.DefaultClaudeVersion)
	}
	require.NoError(t, setupErr, "end-to-end set-up")
	require.NotNil(t, harness)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// runDir returns a fresh folder for one run of test t: under $HOOK_E2E_WORK
// (kept) when set, else a temporary folder.
func runDir(t *testing.T) string {
	t.Helper()
	work := os.Getenv(e2e.EnvWork)
	if work == "" {
		return t.TempDir()
	}
	dir := filepath.Join(work, unsafeName.ReplaceAllString(t.Name(), "_"))
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	return abs
}

// run runs c once with the real claude. It checks what every run must
// show: claude exited 0 within the time limit, and nothing tried to reach
// another host. On failure it logs an account of the run.
func run(t *testing.T, c e2e.Case) *e2e.Run {
	t.Helper()
	needE2E(t)
	r, err := harness.Run(context.Background(), runDir(t), c)
	if r != nil {
		t.Cleanup(func() {
			if t.Failed() {
				t.Log(r.Diagnose())
				if os.Getenv(e2e.EnvWork) == "" {
					t.Logf("set %s to a folder to keep the run folders for inspection", e2e.EnvWork)
				}
			}
		})
	}
	require.NoError(t, err)
	t.Logf("claude ran %v", r.Elapsed.Round(time.Millisecond))
	assert.Equal(t, 0, r.ExitCode, "claude's exit code; stderr: %s", r.Stderr)
	assert.Empty(t, r.API.OutsideTries(), "requests to other hosts")
	return r
}

// hook returns the argv of the built binary name with args. Call it after
// needE2E.
func hook(name string, args ...string) []string {
	return append([]string{harness.Path(name)}, args...)
}

// jsonText returns the JSON encoding of v.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v, json.Deterministic(true))
	require.NoError(t, err)
	return string(b)
}
