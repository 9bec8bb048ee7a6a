package e2e_test

// A hook built with the library under the real GitHub Copilot CLI, its
// hooks configured under PascalCase event names (see
// copilotharness_test.go): what Copilot sends, and what it does with the
// library's answers. docs/e2e.md and docs/agents.md record the runs.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/internal/rawjson"
)

// copilotShellRun runs Copilot once with shellhook on PreToolUse in
// mode (and its argument): the model calls the shell with cmd. It returns
// the run, the hook's path and its payload log.
func copilotShellRun(t *testing.T, cmd string, mode ...string) (*copilotRun, string, string) {
	t.Helper()
	bin := needCopilot(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "./testdata/shellhook")
	log := filepath.Join(t.TempDir(), "payloads.log")
	r := runCopilot(t, bin, clientrun.Script{Turns: [][]clientrun.Call{{copilotShell(t, cmd)}}},
		copilotHooks(t, "PreToolUse", append([]string{hook, log}, mode...)...))
	return r, hook, log
}

// copilotPayload checks what Copilot sent for the shell call cmd, and
// returns it.
func copilotPayload(t *testing.T, log, cmd string) []byte {
	t.Helper()
	ps := payloads(t, log)
	require.Len(t, ps, 1, "PreToolUse payloads")
	p := ps[0]
	assert.Equal(t, `"PreToolUse"`, string(field(t, p, "hook_event_name")))
	assert.Equal(t, `"Bash"`, string(field(t, p, "tool_name")), "Copilot's bash tool reaches PascalCase hooks as Bash")
	assert.Equal(t, cmd, str(t, field(t, p, "tool_input", "command")))
	for _, k := range []string{"session_id", "timestamp", "cwd"} {
		field(t, p, k)
	}
	// Nothing in it is evidence Claude Code could not send: it is served
	// as Claude Code's (internal/agent/testdata/neutral).
	assert.Equal(t, agent.ClaudeCode, agent.Detect(p), "%s", p)
	return p
}

// TestCopilotDeny: a deny from a library hook blocks Copilot's shell
// call, the command never runs, and the model is told the hook's reason.
func TestCopilotDeny(t *testing.T) {
	const cmd = "echo ran > marker.txt"
	r, _, log := copilotShellRun(t, cmd, "deny")
	copilotPayload(t, log, cmd)
	assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the denied command ran")
	told, ok := r.API.ToolResult(clientrun.ChatCallID(1))
	require.True(t, ok, "the model was told nothing of the call")
	assert.Equal(t, "Denied by preToolUse hook: shellhook: no "+cmd, told)
}

// TestCopilotMergeRewrite: Allow with an UpdatedInput built with Merge
// reaches Copilot's shell whole: the rewritten command runs, quote,
// backslash, tab and non-ASCII text intact, the original does not, and
// the answer holds every member Copilot sent, which it needs: it replaces
// the whole input (TestCopilotPartialRewriteFails).
func TestCopilotMergeRewrite(t *testing.T) {
	const cmd = "echo original > orig.txt"
	r, hook, log := copilotShellRun(t, cmd, "allow", rewrittenCommand)
	p := copilotPayload(t, log, cmd)
	assert.NoFileExists(t, filepath.Join(r.Project, "orig.txt"), "the original command ran")
	got, err := os.ReadFile(filepath.Join(r.Project, "out.txt"))
	told, _ := r.API.ToolResult(clientrun.ChatCallID(1))
	require.NoError(t, err, "the rewritten command did not run; told the model: %s", told)
	assert.Equal(t, rewritten+"\n", string(got))

	answer := answerOf(t, p, hook, filepath.Join(t.TempDir(), "again.log"), "allow", rewrittenCommand)
	assert.NoError(t, agent.CheckCopilotAnswer("PreToolUse", answer), "%s", answer)
	upd, err := rawjson.Members(field(t, answer, "hookSpecificOutput", "updatedInput"))
	require.NoError(t, err)
	orig, err := rawjson.Members(field(t, p, "tool_input"))
	require.NoError(t, err)
	require.Len(t, upd, len(orig), "every member kept: %s", answer)
	require.GreaterOrEqual(t, len(orig), 2, "Copilot sends command and description")
	for i := range orig {
		assert.Equal(t, orig[i].Key, upd[i].Key)
		if orig[i].Key != "command" {
			assert.Equal(t, string(orig[i].Value), string(upd[i].Value), orig[i].Key)
		}
	}
}

// TestCopilotPartialRewriteFails: Copilot replaces the whole input with
// updatedInput: a rewrite naming only description (what a hook that
// forgets Merge writes) fails the call, so the command never runs. This
// is why the library writes the whole input.
func TestCopilotPartialRewriteFails(t *testing.T) {
	const cmd = "echo ran > marker.txt"
	r, _, _ := copilotShellRun(t, cmd, "print",
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"description":"only this"}}}`)
	assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the command ran without a command member")
	told, ok := r.API.ToolResult(clientrun.ChatCallID(1))
	require.True(t, ok)
	assert.Contains(t, told, "command")
	assert.Contains(t, told, "Required")
}

// TestCopilotFailClosedBlocks: a FailClosed handler that fails blocks
// the call. Copilot's PascalCase Bash payload carries nothing Claude Code
// could not send, so it is served as Claude Code's and the block is exit
// 2, whose reason Copilot does not pass on: the model is told "hook
// exited with code 2". (On a payload detected as Copilot's the library
// writes the block as a deny with the reason: TestCopilotFailClosedDeniesWithReason
// in the root package.)
func TestCopilotFailClosedBlocks(t *testing.T) {
	const cmd = "echo ran > marker.txt"
	r, _, log := copilotShellRun(t, cmd, "failclosed")
	copilotPayload(t, log, cmd)
	assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"), "the command ran past a failing fail-closed hook")
	told, ok := r.API.ToolResult(clientrun.ChatCallID(1))
	require.True(t, ok)
	assert.Equal(t, "Denied by preToolUse hook: hook exited with code 2", told)
}

// TestCopilotToolNames: under PascalCase hooks Copilot names its tools
// as Claude Code does (bash Bash, create Write, view Read, edit Edit,
// glob Glob), so matchers written for Claude Code match them; their
// inputs keep Copilot's own members (path, file_text, old_str, new_str).
func TestCopilotToolNames(t *testing.T) {
	bin := needCopilot(t)
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "payloads.log")
	rec := filepath.Join(dir, "rec.sh")
	require.NoError(t, os.WriteFile(rec, []byte("#!/bin/sh\n{ cat; echo; } >> "+shellQuote(log)+"\n"), 0o755))
	runCopilot(t, bin, clientrun.Script{Turns: [][]clientrun.Call{
		{{Tool: "create", Input: `{"path":"a.txt","file_text":"hello\n"}`}},
		{{Tool: "view", Input: `{"path":"a.txt"}`}},
		{{Tool: "edit", Input: `{"path":"a.txt","old_str":"hello","new_str":"bye"}`}},
		{{Tool: "glob", Input: `{"pattern":"*.txt"}`}},
		{copilotShell(t, "true")},
	}}, copilotHooks(t, "PreToolUse", rec))
	ps := payloads(t, log)
	require.Len(t, ps, 5)
	// The file tools' "path" where Claude Code sends "file_path" tells
	// them apart; Glob and Bash carry nothing Claude Code could not send.
	want := []struct {
		tool, member string
		agent        agent.Agent
	}{{"Write", "file_text", agent.CopilotCLI}, {"Read", "path", agent.CopilotCLI}, {"Edit", "old_str", agent.CopilotCLI},
		{"Glob", "pattern", agent.ClaudeCode}, {"Bash", "command", agent.ClaudeCode}}
	for i, w := range want {
		assert.Equal(t, w.tool, str(t, field(t, ps[i], "tool_name")), "%s", ps[i])
		field(t, ps[i], "tool_input", w.member)
		assert.Equal(t, w.agent, agent.Detect(ps[i]), "%s", ps[i])
	}
}

// TestCopilotExit2HidesReason: what the library works around: a hook
// that exits 2 blocks the call, but Copilot tells the model "hook exited
// with code 2", not the hook's stderr.
func TestCopilotExit2HidesReason(t *testing.T) {
	bin := needCopilot(t)
	t.Parallel()
	script := filepath.Join(t.TempDir(), "exit2.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\necho 'exit2: the reason' >&2\nexit 2\n"), 0o755))
	r := runCopilot(t, bin, clientrun.Script{Turns: [][]clientrun.Call{{copilotShell(t, "echo ran > marker.txt")}}},
		copilotHooks(t, "PreToolUse", script))
	assert.NoFileExists(t, filepath.Join(r.Project, "marker.txt"))
	told, ok := r.API.ToolResult(clientrun.ChatCallID(1))
	require.True(t, ok)
	assert.Contains(t, told, "exited with code 2")
	assert.NotContains(t, told, "the reason")
}
