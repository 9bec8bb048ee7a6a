package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/stoprules"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
)

// onPath is a fake $PATH.
func onPath(name string) (string, error) {
	switch name {
	case "go", "make", "ls", "tail", "git", "cat", "echo":
		return "/usr/bin/" + name, nil
	}
	return "", errors.New("not found")
}

// onMain says every folder is a repository on main.
func onMain(context.Context, string) (string, error) { return "main", nil }

func testHandler(t *testing.T) hook.Handler {
	t.Setenv("HOME", "/home/dev")
	t.Setenv("CLAUDE_PROJECT_DIR", "/home/dev/acme-api")
	return newHandler(onPath, onMain)
}

func bash(cmd string) []byte {
	return hooktest.WithToolInputField(hooktest.NewPreToolUse(hook.ToolBash, `{"command":"ls","description":"d","timeout":120000}`), "command", cmd)
}

// TestComposedAnswer: the rewrite and the context note reach Claude in
// one answer; the note was written for the rewritten command; every
// other member survives byte for byte.
func TestComposedAnswer(t *testing.T) {
	b, err := os.ReadFile("testdata/go-test.json")
	require.NoError(t, err)
	rec := hooktest.Record(testHandler(t), b)
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.ExitOK, rec.Code)
	assert.Empty(t, rec.PermissionDecision, "no permission decision: the normal checks run")
	assert.Equal(t, LimitNote, rec.AdditionalContext)
	assert.Equal(t, `{"command":"CGO_ENABLED=0 timeout 600 go test ./... 2>&1 | tail -20","description":"Run the \"unit\" tests \u2014 K\u00f6ln\tbuild","timeout":120000,"dangerouslyDisableSandbox":false,"future_member":{"z":[1,2.50,"\ud800"]}}`,
		string(rec.UpdatedInput))
	in, _ := hooktest.Field(jsontext.Value(b), "tool_input")
	assert.NoError(t, hooktest.CheckPreserved(in, rec.UpdatedInput, "command"))
}

func TestGuardDenies(t *testing.T) {
	h := testHandler(t)
	b, err := os.ReadFile("testdata/rm-home.json")
	require.NoError(t, err)
	for _, in := range [][]byte{b, bash("rm -rf ~"), bash("git push --force origin main"), bash("make && rm -rf /")} {
		rec := hooktest.Record(h, in)
		require.NoError(t, rec.Err())
		assert.Equal(t, hook.Deny, rec.PermissionDecision, string(in))
		assert.True(t, strings.HasPrefix(rec.Reason, "bashguard "), rec.Reason)
		assert.Nil(t, rec.UpdatedInput, "a denied call is not rewritten")
		assert.Empty(t, rec.AdditionalContext)
	}
}

func TestLeftAlone(t *testing.T) {
	h := testHandler(t)
	for _, in := range [][]byte{
		bash("cd sub && make"),      // a list: not bounded
		bash("timeout 30 make"),     // already bounded by the user
		bash("unknown-tool --flag"), // not on $PATH
		hooktest.WithToolInputField(bash("make"), "run_in_background", true),
		hooktest.NewPreToolUse(hook.ToolWrite, `{"file_path":"/tmp/x","content":"rm -rf ~"}`),
	} {
		rec := hooktest.Record(h, in)
		require.NoError(t, rec.Err())
		assert.Nil(t, rec.UpdatedInput, string(in))
		assert.Empty(t, rec.PermissionDecision, string(in))
	}
	rec := hooktest.Record(h, bash("timeout 600 make"))
	assert.Equal(t, LimitNote, rec.AdditionalContext, "a command the user bounded the same way gets the note")
}

// TestGuardFailsClosed: when the guard cannot read the input, the call is
// blocked although the other policies would let it through.
func TestGuardFailsClosed(t *testing.T) {
	rec := hooktest.Record(testHandler(t), hooktest.NewPreToolUse(hook.ToolBash, `{"command":["rm","-rf","/"]}`))
	assert.Equal(t, hook.ExitBlock, rec.Code)
	assert.Empty(t, rec.Stdout)
}

func TestStopGuard(t *testing.T) {
	h := testHandler(t)
	dir := t.TempDir()
	t.Setenv("CLAUDE_PROJECT_DIR", dir)
	stop := hooktest.WithField(hooktest.NewEvent(hook.EventStop), "stop_hook_active", false)
	rec := hooktest.Record(h, stop)
	require.NoError(t, rec.Err())
	assert.Empty(t, rec.Stdout, "nothing unfinished")

	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, stoprules.Marker), []byte("- run the tests"), 0o644))
	rec = hooktest.Record(h, stop)
	require.NoError(t, rec.Err())
	assert.Equal(t, "block", rec.Decision)
	assert.Contains(t, rec.Reason, "- run the tests")
}

// TestProperty: the composed hook keeps every member it does not change,
// on every fixture and tricky value.
func TestProperty(t *testing.T) {
	rep := hooktest.CheckHandler(t, testHandler(t), &hooktest.Options{Changes: []string{"command"}})
	assert.Greater(t, rep.Updates, 10)
}

// TestCodexTwice: under Codex the composed answer is one Codex accepts,
// on a command and then on the command the first call wrote: the rewrite
// beside the allow Codex needs for it, with the note; then the note
// alone. A denial stays a denial with its reason.
func TestCodexTwice(t *testing.T) {
	h := testHandler(t)
	codex := func(cmd string) []byte {
		in, err := json.Marshal(map[string]string{"command": cmd})
		require.NoError(t, err)
		return []byte(`{"session_id":"019a8c2e-4b1f-7d30-9e21-5c6a7b8d9e0f","transcript_path":"/home/dev/.codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-019a8c2e-4b1f-7d30-9e21-5c6a7b8d9e0f.jsonl","cwd":"/home/dev/acme-api","hook_event_name":"PreToolUse","turn_id":"019a8c2e-5000-7000-8000-000000000001","model":"gpt-5.1-codex","permission_mode":"default","tool_name":"Bash","tool_input":` + string(in) + `,"tool_use_id":"call_Ab12Cd34"}`)
	}
	note, err := json.Marshal(LimitNote)
	require.NoError(t, err)
	for _, c := range []struct{ cmd, want string }{
		{"go test ./...", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"timeout 600 go test ./..."},"additionalContext":` + string(note) + `}}`},
		{"timeout 600 go test ./...", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":` + string(note) + `}}`},
	} {
		rec := hooktest.Record(h, codex(c.cmd))
		require.NoError(t, rec.Err(), c.cmd)
		assert.Equal(t, hook.ExitOK, rec.Code, c.cmd)
		assert.Equal(t, c.want, strings.TrimSpace(string(rec.Stdout)), c.cmd)
		assert.NoError(t, agent.CheckCodexAnswer(hook.EventPreToolUse, rec.Stdout), c.cmd)
	}
	rec := hooktest.Record(h, codex("rm -rf ~"))
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Deny, rec.PermissionDecision)
	assert.NoError(t, agent.CheckCodexAnswer(hook.EventPreToolUse, rec.Stdout))
}
