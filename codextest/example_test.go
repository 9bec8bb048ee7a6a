package codextest_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/codextest"
)

// The calls a script makes: Codex's shell, any MCP tool, any input.
func ExampleTool() {
	for _, c := range []codextest.Call{
		codextest.Bash("go test ./..."),
		codextest.MCP("db", "query", map[string]any{"sql": "select 1", "limit": 10}),
		// Input text as the model writes it: escapes reach Codex as they are.
		codextest.Tool("exec_command", `{"cmd":"cat `+codextest.ProjectDir+`/K\u00f6ln.txt","login":false}`),
	} {
		fmt.Println(c.Tool, c.Input)
	}
	// Output:
	// exec_command {"cmd":"go test ./...","login":false}
	// mcp__db__query {"limit":10,"sql":"select 1"}
	// exec_command {"cmd":"cat @PROJECT@/K\u00f6ln.txt","login":false}
}

// A hook run's payload and answer, read member by member, exactly as
// written: Codex's shell call reaches hooks as Bash, its input the
// command alone.
func ExampleHookRun() {
	h := codextest.HookRun{
		Name:  "guard",
		Event: "PreToolUse",
		In:    []byte(`{"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"call_1"}` + "\n"),
		Out:   []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`),
	}
	cmd, _ := h.Input("tool_input", "command")
	id, _ := h.Input("tool_use_id")
	decision, _ := h.Output("hookSpecificOutput", "permissionDecision")
	_, updated := h.Output("hookSpecificOutput", "updatedInput")
	fmt.Println(cmd, id, decision, updated)
	// Output: "rm -rf /" "call_1" "deny" false
}

// Reading a result: the hook events in order, what Codex reported of
// them, and what the model was told.
func ExampleResult() {
	r := &codextest.Result{
		Hooks: []codextest.HookRun{
			{Seq: 1, Name: "record", Event: "SessionStart"},
			{Seq: 2, Name: "guard", Event: "PreToolUse", Tool: "Bash"},
			{Seq: 3, Name: "record", Event: "Stop"},
		},
		Stderr:   []byte("hook: SessionStart\nhook: SessionStart Completed\nhook: PreToolUse\nhook: PreToolUse Blocked\n"),
		Requests: []jsontext.Value{jsontext.Value(`{"input":[{"type":"function_call_output","call_id":"call_1","output":"Command blocked by PreToolUse hook: no. Command: rm -rf /"}]}`)},
	}
	fmt.Println(r.Events())
	fmt.Println(r.HookStatuses("PreToolUse"), len(r.HooksOf("guard", "PreToolUse")))
	fmt.Println(r.Told("blocked by PreToolUse hook: no"))
	// Output:
	// [SessionStart PreToolUse:Bash Stop]
	// [Blocked] 1
	// true
}

// A test binary whose tests use codextest runs them in a network
// namespace that has only loopback, where one can be made.
func ExampleMain() {
	// In a _test.go file:
	//
	//	func TestMain(m *testing.M) { os.Exit(codextest.Main(m)) }
	_ = func(m *testing.M) { os.Exit(codextest.Main(m)) }
}
