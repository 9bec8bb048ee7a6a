package hooktest_test

import (
	"context"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/rawjson"
)

// TestLookupsFindEveryListedName: every name a listing function gives is
// one Payload finds, with the same bytes, and every event of a listed
// fixture is one NewEvent builds; no name is in both lists.
func TestLookupsFindEveryListedName(t *testing.T) {
	lists := map[string][]hooktest.Fixture{"Fixtures": hooktest.Fixtures(), "CodexFixtures": hooktest.CodexFixtures()}
	seen := map[string]string{}
	n := 0
	for list, fs := range lists {
		require.NotEmpty(t, fs, list)
		for _, f := range fs {
			n++
			if other, dup := seen[f.Name]; dup {
				t.Errorf("%q is in both %s and %s", f.Name, other, list)
			}
			seen[f.Name] = list
			var got jsontext.Value
			require.NotPanics(t, func() { got = hooktest.Payload(f.Name) }, "%s: Payload(%q)", list, f.Name)
			assert.Equal(t, string(f.JSON), string(got), "%s: Payload(%q)", list, f.Name)
			var ev jsontext.Value
			require.NotPanics(t, func() { ev = hooktest.NewEvent(f.Event) }, "%s: NewEvent(%q)", list, f.Event)
			assert.Equal(t, `"`+f.Event+`"`, field(t, ev, "hook_event_name"))
		}
	}
	assert.Greater(t, n, 90, "both lists were walked")
	// The name of the paper cut, by name.
	assert.Equal(t, `"PreToolUse"`, field(t, hooktest.Payload("codex/pre-tool-use"), "hook_event_name"))
}

// agentOf returns the agent a hook served on payload takes it for.
func agentOf(t *testing.T, payload jsontext.Value) hook.Agent {
	t.Helper()
	var got hook.Agent
	r := hooktest.Record(hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
		got = ev.Agent()
		return nil, nil
	}), payload)
	require.Equal(t, hook.ExitOK, r.Code, "%s", r.Stderr)
	return got
}

// keys returns the member names of the object v, in order.
func keys(t *testing.T, v jsontext.Value) []string {
	t.Helper()
	ms, err := rawjson.Members(v)
	require.NoError(t, err, "%s", v)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Key
	}
	return out
}

// The member orders the real Codex 0.171.0 wrote (codextest runs, and
// the observed fixture).
var (
	codexToolOrder  = []string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input", "tool_use_id"}
	codexPostOrder  = []string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input", "tool_response", "tool_use_id"}
	codexStopOrder  = []string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "stop_hook_active", "last_assistant_message"}
	codexStartOrder = []string{"session_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "source"}
)

func TestNewCodexPreToolUse(t *testing.T) {
	p := hooktest.NewCodexPreToolUse("Bash", `{ "command": "echo \u00e9\ud800" }`)
	assert.Equal(t, codexToolOrder, keys(t, p))
	assert.Equal(t, keys(t, hooktest.Payload("codex/pre-tool-use-observed")), keys(t, p), "the order Codex wrote")
	assert.Equal(t, `"Bash"`, field(t, p, "tool_name"))
	assert.Equal(t, `{"command":"echo \u00e9\ud800"}`, field(t, p, "tool_input"), "bytes kept, whitespace dropped")
	assert.Equal(t, `"call_1"`, field(t, p, "tool_use_id"))
	assert.Equal(t, hook.AgentCodex, agentOf(t, p))
	for _, k := range []string{"turn_id", "model", "permission_mode", "transcript_path", "session_id", "cwd"} {
		assert.NotEmpty(t, field(t, p, k))
	}
	assert.Contains(t, field(t, p, "transcript_path"), "/sessions/")
	assert.Contains(t, field(t, p, "transcript_path"), "rollout-")

	ap := hooktest.NewCodexPreToolUse("apply_patch", map[string]string{"command": "*** Begin Patch\n*** End Patch\n"})
	assert.Equal(t, `{"command":"*** Begin Patch\n*** End Patch\n"}`, field(t, ap, "tool_input"))
	assert.Equal(t, hook.AgentCodex, agentOf(t, ap))

	// An MCP tool: its own arguments, no mcp_server member (Claude Code's).
	const args = `{"sql":"select 1","limit":10,"params":["a\\b",null,{"n":[1,2.5]}],"big":12345678901234567890}`
	m := hooktest.NewCodexPreToolUse("mcp__db__query", args)
	assert.Equal(t, codexToolOrder, keys(t, m))
	assert.Equal(t, args, field(t, m, "tool_input"))
	assert.Equal(t, hook.AgentCodex, agentOf(t, m))

	// A hook reads it as Codex's, with the typed view.
	var cmd string
	hooktest.Record(hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		cmd = in.Command
		return nil, err
	}), hooktest.NewCodexPreToolUse("Bash", `{"command":"go test ./..."}`))
	assert.Equal(t, "go test ./...", cmd)
}

func TestNewCodexPostToolUseAndPermissionRequest(t *testing.T) {
	p := hooktest.NewCodexPostToolUse("Bash", `{"command":"ls"}`, `"a.txt\n"`)
	assert.Equal(t, codexPostOrder, keys(t, p))
	assert.Equal(t, `"a.txt\n"`, field(t, p, "tool_response"))
	assert.Equal(t, hook.AgentCodex, agentOf(t, p))
	m := hooktest.NewCodexPostToolUse("mcp__probe__listen_here", map[string]any{"room": "Köln"}, map[string]any{"content": []any{map[string]string{"type": "text", "text": "ok"}}})
	assert.Equal(t, `{"content":[{"text":"ok","type":"text"}]}`, field(t, m, "tool_response"))
	assert.Equal(t, `{"room":"Köln"}`, field(t, m, "tool_input"))

	r := hooktest.NewCodexPermissionRequest("Bash", `{"command":"rm -rf build"}`)
	assert.Equal(t, []string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input"}, keys(t, r))
	assert.Equal(t, `"PermissionRequest"`, field(t, r, "hook_event_name"))
	assert.Equal(t, hook.AgentCodex, agentOf(t, r))
}

func TestNewCodexEventCoversEveryCodexEvent(t *testing.T) {
	for _, f := range hooktest.CodexFixtures() {
		p := hooktest.NewCodexEvent(f.Event)
		assert.Equal(t, `"`+f.Event+`"`, field(t, p, "hook_event_name"))
		assert.Equal(t, hook.AgentCodex, agentOf(t, p), f.Event)
		ks := keys(t, p)
		assert.Equal(t, "session_id", ks[0], f.Event)
		assert.ElementsMatch(t, keys(t, f.JSON), ks, "%s: members of a fixture, reordered only", f.Event)
	}
	assert.Equal(t, codexStopOrder, keys(t, hooktest.NewCodexEvent("Stop")))
	assert.Equal(t, codexStartOrder, keys(t, hooktest.NewCodexEvent("SessionStart")))
	assert.Equal(t, codexToolOrder, keys(t, hooktest.NewCodexEvent("PreToolUse")))
	// Interrupt is Claude Code's too since 2.1.335: NewEvent gives Claude
	// Code's payload, NewCodexEvent Codex's.
	assert.Equal(t, hook.AgentClaudeCode, agentOf(t, hooktest.NewEvent("Interrupt")))
	assert.Equal(t, hook.AgentCodex, agentOf(t, hooktest.NewCodexEvent("Interrupt")))
	assert.PanicsWithValue(t, `hooktest: NewCodexEvent: Codex has no event "Notification"`, func() { hooktest.NewCodexEvent("Notification") })
}

func TestCodexBuildersPanic(t *testing.T) {
	for _, bad := range []string{``, `[]`, `"x"`, `{"a":1,"a":2}`, `{"a":1`, `{} {}`} {
		assert.Panics(t, func() { hooktest.NewCodexPreToolUse("mcp__a__b", bad) }, bad)
		assert.Panics(t, func() { hooktest.NewCodexPermissionRequest("mcp__a__b", bad) }, bad)
		assert.Panics(t, func() { hooktest.NewCodexPostToolUse("mcp__a__b", bad, `""`) }, bad)
	}
	assert.Panics(t, func() { hooktest.NewCodexPreToolUse("", `{}`) })
	assert.Panics(t, func() { hooktest.NewCodexPostToolUse("Bash", `{"command":"ls"}`, `"a" "b"`) })
	// What Codex cannot send: its shell and apply_patch carry command only.
	for _, tool := range []string{"Bash", "apply_patch"} {
		for _, in := range []string{`{}`, `{"command":"ls","description":"list"}`, `{"command":1}`, `{"cmd":"ls"}`} {
			assert.Panics(t, func() { hooktest.NewCodexPreToolUse(tool, in) }, "%s %s", tool, in)
			assert.Panics(t, func() { hooktest.NewCodexPermissionRequest(tool, in) }, "%s %s", tool, in)
		}
	}
}
