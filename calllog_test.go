package hook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/calllog"
	"github.com/gohooks/hook/internal/testutil"
)

// serveLogged serves in with h through a Server whose call log is log,
// and returns the exit code, stdout and stderr.
func serveLogged(h hook.Handler, log string, in []byte) (int, string, string) {
	var stdout, stderr bytes.Buffer
	s := &hook.Server{Handler: h, CallLog: log}
	code := s.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestCallLogOneLinePerCall(t *testing.T) {
	t.Setenv(hook.CallLogEnv, "")
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	pre := func(f func(*hook.PreToolUse) (*hook.PreToolUseOutput, error)) hook.Handler {
		return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) { return f(e) })
	}
	cases := []struct {
		name   string
		h      hook.Handler
		in     []byte
		answer string
		exit   int
		err    string
	}{
		{"rewrite", testutil.AddFingerprint, testutil.PreToolUse("mcp__aisle__listen_here", `{"room":"lobby"}`), "allow+rewrite", 0, ""},
		{"none", pre(func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, nil }), testutil.PreToolUse("Bash", `{"command":"ls"}`), "none", 0, ""},
		{"deny", pre(func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no"}, nil
		}), testutil.PreToolUse("Bash", `{"command":"rm -rf /"}`), "deny", 0, ""},
		{"context", pre(func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{AdditionalContext: "note"}, nil
		}), testutil.PreToolUse("Read", `{"file_path":"/x"}`), "context", 0, ""},
		{"block", pre(func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, hook.Block("not here") }), testutil.PreToolUse("Bash", `{"command":"x"}`), "block", 2, "not here"},
		{"error", pre(func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, errors.New("broke") }), testutil.PreToolUse("Bash", `{"command":"x"}`), "error", 1, "hook: broke"},
		{"panic", pre(func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { panic("boom") }), testutil.PreToolUse("Bash", `{"command":"x"}`), "error", 1, "boom"},
		{"fail closed", hook.FailClosed(pre(func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) { panic("boom") })), testutil.PreToolUse("Bash", `{"command":"x"}`), "block", 2, "boom"},
		{"bad input", testutil.AddFingerprint, []byte(`{"hook_event_name":"PreToolUse",`), "error", 1, "hook: "},
	}
	for _, c := range cases {
		code, _, stderr := serveLogged(c.h, log, c.in)
		require.Equal(t, c.exit, code, "%s: %s", c.name, stderr)
	}
	lines, err := calllog.ReadFile(log)
	require.NoError(t, err)
	require.Len(t, lines, len(cases))
	for i, c := range cases {
		l := lines[i]
		assert.Equal(t, c.answer, l.Answer, c.name)
		assert.Equal(t, c.exit, l.Exit, c.name)
		assert.Contains(t, l.Error, c.err, c.name)
		assert.Equal(t, os.Getpid(), l.PID, c.name)
		assert.False(t, l.Time.IsZero(), c.name)
		assert.GreaterOrEqual(t, l.DurationMS, 0.0, c.name)
		if c.name == "bad input" {
			assert.Empty(t, l.Event)
			assert.Equal(t, "unknown", l.Agent)
			continue
		}
		assert.Equal(t, "PreToolUse", l.Event, c.name)
		assert.Equal(t, "toolu_01", l.ToolUseID, c.name)
		assert.Equal(t, "5d3f2c1a-8b7e-4f6a-9c2d-1e0b7a6f4c3d", l.Session, c.name)
		assert.Equal(t, "claude-code", l.Agent, c.name)
		if c.exit == 0 {
			assert.Empty(t, l.Error, c.name)
		}
	}
	assert.Equal(t, "mcp__aisle__listen_here", lines[0].Tool)
	// A panic is logged with where it happened.
	assert.Contains(t, lines[6].At, "calllog_test.go:")
	assert.Contains(t, lines[7].At, "calllog_test.go:")
	assert.Empty(t, lines[5].At)
}

func TestCallLogFromEnvironment(t *testing.T) {
	log := filepath.Join(t.TempDir(), "env.jsonl")
	t.Setenv(hook.CallLogEnv, log)
	code, stdout, _ := testutil.Serve(t, testutil.AddFingerprint, testutil.PreToolUse("Bash", `{"command":"ls"}`))
	require.Equal(t, hook.ExitOK, code)
	assert.Contains(t, stdout, "fingerprint", "the answer is unchanged, on stdout alone")
	lines, err := calllog.ReadFile(log)
	require.NoError(t, err)
	require.Len(t, lines, 1)
	assert.Equal(t, "Bash", lines[0].Tool)

	// The Server's own path wins over the environment.
	own := filepath.Join(t.TempDir(), "own.jsonl")
	serveLogged(testutil.AddFingerprint, own, testutil.PreToolUse("Bash", `{"command":"ls"}`))
	lines, err = calllog.ReadFile(log)
	require.NoError(t, err)
	assert.Len(t, lines, 1)
	lines, err = calllog.ReadFile(own)
	require.NoError(t, err)
	assert.Len(t, lines, 1)
}

func TestCallLogOffWritesNothing(t *testing.T) {
	t.Setenv(hook.CallLogEnv, "")
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, stderr := testutil.Serve(t, testutil.AddFingerprint, testutil.PreToolUse("Bash", `{"command":"ls"}`))
	require.Equal(t, hook.ExitOK, code)
	assert.Empty(t, stderr)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestCallLogFailureChangesNothing: a log that cannot be written (its
// path is a folder) leaves the answer and the exit code as they are;
// after exit 0 one stderr line says so, after exit 1 or 2 the stderr
// line stays the failure or the reason alone.
func TestCallLogFailureChangesNothing(t *testing.T) {
	t.Setenv(hook.CallLogEnv, "")
	bad := t.TempDir() // a folder: it cannot be opened for appending
	in := testutil.PreToolUse("Bash", `{"command":"ls"}`)
	wantCode, wantOut, _ := testutil.Serve(t, testutil.AddFingerprint, in)
	code, stdout, stderr := serveLogged(testutil.AddFingerprint, bad, in)
	assert.Equal(t, wantCode, code)
	assert.Equal(t, wantOut, stdout)
	assert.True(t, strings.HasPrefix(stderr, "hook: call log: "), stderr)
	assert.Equal(t, 1, strings.Count(stderr, "\n"))

	block := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, hook.Block("not here")
	})
	code, stdout, stderr = serveLogged(block, bad, in)
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "not here\n", stderr)
}

// TestCallLogConcurrentCallsDoNotInterleave appends from many calls at
// once, as hook processes started together do: every line is whole.
func TestCallLogConcurrentCallsDoNotInterleave(t *testing.T) {
	t.Setenv(hook.CallLogEnv, "")
	log := filepath.Join(t.TempDir(), "calls.jsonl")
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			serveLogged(testutil.AddFingerprint, log, testutil.PreToolUse(fmt.Sprintf("mcp__s__tool%d", i), `{"room":"`+strings.Repeat("x", 2000)+`"}`))
		}()
	}
	wg.Wait()
	lines, err := calllog.ReadFile(log)
	require.NoError(t, err)
	require.Len(t, lines, n)
	seen := map[string]bool{}
	for _, l := range lines {
		seen[l.Tool] = true
	}
	assert.Len(t, seen, n)
}

// ExampleServer_callLog shows the call log: one JSON line per call, in
// the file Server.CallLog (or $HOOK_CALL_LOG) names.
func ExampleServer_callLog() {
	dir, _ := os.MkdirTemp("", "calllog")
	defer os.RemoveAll(dir)
	log := filepath.Join(dir, "calls.jsonl")
	s := &hook.Server{Handler: testutil.AddFingerprint, CallLog: log}
	var stdout bytes.Buffer
	s.Serve(context.Background(), bytes.NewReader(testutil.PreToolUse("mcp__aisle__listen_here", `{"room":"lobby"}`)), &stdout, os.Stderr)

	lines, _ := calllog.ReadFile(log)
	for _, l := range lines {
		fmt.Println(l.Event, l.Tool, l.Agent, l.Answer, l.Exit)
	}
	// Output:
	// PreToolUse mcp__aisle__listen_here claude-code allow+rewrite 0
}
