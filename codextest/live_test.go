package codextest_test

// The tests that run the real Codex: what a user's test does with
// codextest, each with its hook built by hooktest.BuildGo from
// testdata/guard.

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/codextest"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// guard builds testdata/guard once per test.
func guard(t *testing.T) string {
	t.Helper()
	return hooktest.BuildGo(t, "./testdata/guard")
}

// TestCodexGuardDenies: a deny stops the shell call before it runs, the model
// is told the hook's reason, and the payload is the one Codex sends for
// its shell: tool "Bash", tool_input {"command"} only, tool_use_id the
// call's id.
func TestCodexGuardDenies(t *testing.T) {
	codextest.Need(t)
	t.Parallel()
	g := guard(t)
	r := codextest.Run(t, codextest.Session{
		Files: map[string]string{"keep.txt": "precious\n"},
		Hooks: []codextest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{g, "deny"}, Name: "guard"}},
		Turns: []codextest.Turn{{codextest.Bash("rm -f keep.txt")}, {codextest.Bash("echo second > second.txt")}},
		Final: "all done",
	})
	call := r.Call(1)
	h, ok := call.Hook("guard", "PreToolUse")
	require.True(t, ok, "the guard did not run for call 1; hooks: %v", r.Events())
	assert.Equal(t, 0, h.Code, "stderr: %s", h.Err)
	assert.Equal(t, "call_1", h.ToolUseID)
	assert.Equal(t, "Bash", h.Tool)
	in, _ := h.Input("tool_input")
	assert.JSONEq(t, `{"command":"rm -f keep.txt"}`, string(in), "Codex shows its shell's command only")
	decision, _ := h.Output("hookSpecificOutput", "permissionDecision")
	assert.Equal(t, `"deny"`, string(decision))
	for _, k := range []string{"session_id", "turn_id", "transcript_path", "cwd", "model", "permission_mode"} {
		_, ok := h.Input(k)
		assert.True(t, ok, "the payload has %s: %s", k, h.In)
	}
	cwd, _ := h.Input("cwd")
	assert.Equal(t, quote(t, r.Project), string(cwd))

	content, ok := r.File("keep.txt")
	assert.True(t, ok && content == "precious\n", "rm ran: %q %v", content, ok)
	require.NotNil(t, call.Result, "the model was told nothing of call 1")
	assert.Equal(t, "Command blocked by PreToolUse hook: guard: use git rm, so that it can be undone. Command: rm -f keep.txt", call.Result.Text)
	assert.Equal(t, []string{"Blocked", "Completed"}, r.HookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)

	// The second turn ran: the guard let it through.
	assert.Equal(t, "call_2", r.Call(2).ID)
	_, ok = r.Call(2).Hook("guard", "PreToolUse")
	assert.True(t, ok)
	got, _ := r.File("second.txt")
	assert.Equal(t, "second\n", got)
	assert.Equal(t, "all done", r.Text)
	assert.Empty(t, r.OutsideTries)
}

// TestCodexMergeRewriteKeepsEveryMember: Allow with an UpdatedInput built
// with Merge reaches the tool with every member the model wrote, the
// rewritten one changed: an MCP tool's arguments arrive at the server
// byte for byte but for that member, and a shell rewrite runs instead of
// the original command.
func TestCodexMergeRewriteKeepsEveryMember(t *testing.T) {
	codextest.Need(t)
	t.Parallel()
	g := guard(t)
	const args = `{"sql":"select 'O''Brien'","limit":10,"big":12345678901234567890,"params":["a\\b",null,true,{"nested":[1,2.5]}],"room":"Köln ☃","tag":"draft"}`
	r := codextest.Run(t, codextest.Session{
		MCP: []codextest.MCPServer{{Name: "db", Tools: []codextest.MCPTool{{Name: "query", Reply: "rows: 0"}}}},
		Hooks: []codextest.Hook{
			{Event: "PreToolUse", Matcher: "mcp__db__query", Command: []string{g, "tag", "tag", "final"}, Name: "tagger"},
			{Event: "PreToolUse", Matcher: "Bash", Command: []string{g, "tag", "command", "echo rewritten > out.txt"}, Name: "rewriter"},
		},
		Turns: []codextest.Turn{{codextest.MCP("db", "query", args)}, {codextest.Bash("echo original > orig.txt")}},
	})

	c := r.Call(1)
	h, ok := c.Hook("tagger", "PreToolUse")
	require.True(t, ok, "hooks: %v", r.Events())
	assert.Equal(t, "mcp__db__query", h.Tool)
	sent, _ := h.Input("tool_input")
	upd, ok := h.Output("hookSpecificOutput", "updatedInput")
	require.True(t, ok, "the hook's answer: %s %s", h.Out, h.Err)
	require.NotNil(t, c.MCP, "the server got nothing; told the model: %+v", c.Result)
	assert.Equal(t, "query", c.MCP.Tool)
	want := members(t, sent)
	want["tag"] = `"final"`
	assert.Equal(t, want, members(t, upd), "the hook's updatedInput")
	assert.Equal(t, want, members(t, c.MCP.Arguments), "what the server received")
	require.NotNil(t, c.Result)
	assert.Contains(t, c.Result.Text, "rows: 0")

	_, ok = r.File("orig.txt")
	assert.False(t, ok, "the original command ran")
	got, _ := r.File("out.txt")
	assert.Equal(t, "rewritten\n", got, "the rewritten command did not run; told the model: %+v", r.Call(2).Result)
	assert.Equal(t, []string{"Completed", "Completed"}, r.HookStatuses("PreToolUse"))
}

// TestCodexPostToolUseSeesTheOutput: a PostToolUse hook gets the command's
// output as tool_response, and its additional context reaches the model.
func TestCodexPostToolUseSeesTheOutput(t *testing.T) {
	codextest.Need(t)
	t.Parallel()
	g := guard(t)
	r := codextest.Run(t, codextest.Session{
		Hooks: []codextest.Hook{
			{Event: "PostToolUse", Matcher: "Bash", Command: []string{g, "seen"}, Name: "seen"},
			{Event: "SessionStart"}, {Event: "Stop"},
		},
		Turns: []codextest.Turn{{codextest.Bash("printf 'K\\303\\266ln 42'")}},
	})
	h, ok := r.Call(1).Hook("seen", "PostToolUse")
	require.True(t, ok, "hooks: %v", r.Events())
	resp, ok := h.Input("tool_response")
	require.True(t, ok, "%s", h.In)
	assert.Equal(t, `"Köln 42"`, string(resp))
	assert.True(t, r.Told("guard saw: \\\"Köln 42\\\"") || r.Told(`guard saw: \"K\u00f6ln 42\"`), "the hook's context did not reach the model")
	assert.Equal(t, []string{"SessionStart", "PostToolUse:Bash", "Stop"}, r.Events())
	require.NotNil(t, r.Call(1).Result)
	assert.Contains(t, r.Call(1).Result.Text, "Köln 42")
}

// quote returns s as a JSON string.
func quote(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

// members returns the members of the JSON object v, name → raw value,
// failing the test when v is not one.
func members(t *testing.T, v jsontext.Value) map[string]string {
	t.Helper()
	ms, err := rawjson.Members(v)
	require.NoError(t, err, "%s", v)
	out := map[string]string{}
	for _, m := range ms {
		val := jsontext.Value(m.Value)
		require.NoError(t, val.Compact(jsonopts.Lenient()))
		out[m.Key] = string(val)
	}
	return out
}

var _ = strings.TrimSpace
