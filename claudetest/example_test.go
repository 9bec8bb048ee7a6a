package claudetest_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/claudetest"
)

// The calls a script makes: built-in tools, any MCP tool, any input.
func ExampleTool() {
	for _, c := range []claudetest.Call{
		claudetest.Bash("go test ./..."),
		claudetest.Write("notes.md", "# Notes\n"),
		claudetest.Read("/etc/hostname"),
		claudetest.MCP("probe", "listen_here", map[string]any{"room": "K\u00f6ln", "n": 1}),
		// Input text as the model writes it: escapes reach Claude Code as they are.
		claudetest.Tool("Edit", `{"file_path":"`+claudetest.ProjectDir+`/a.go","old_string":"\ud800","new_string":"x"}`),
	} {
		fmt.Println(c.Tool, c.Input)
	}
	// Output:
	// Bash {"command":"go test ./...","description":"claudetest step"}
	// Write {"content":"# Notes\n","file_path":"@PROJECT@/notes.md"}
	// Read {"file_path":"/etc/hostname"}
	// mcp__probe__listen_here {"n":1,"room":"Köln"}
	// Edit {"file_path":"@PROJECT@/a.go","old_string":"\ud800","new_string":"x"}
}

// A hook run's payload and answer, read member by member, exactly as
// written.
func ExampleHookRun() {
	h := claudetest.HookRun{
		Name:  "guard",
		Event: "PreToolUse",
		In:    []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /","timeout":120000}}` + "\n"),
		Out:   []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`),
	}
	cmd, _ := h.Input("tool_input", "command")
	timeout, _ := h.Input("tool_input", "timeout")
	decision, _ := h.Output("hookSpecificOutput", "permissionDecision")
	_, updated := h.Output("hookSpecificOutput", "updatedInput")
	fmt.Println(cmd, timeout, decision, updated)
	// Output: "rm -rf /" 120000 "deny" false
}

// Reading a result: the hook events in order, one hook's runs, and what
// the model was told.
func ExampleResult() {
	r := &claudetest.Result{
		Hooks: []claudetest.HookRun{
			{Seq: 1, Name: "context", Event: "SessionStart"},
			{Seq: 2, Name: "guard", Event: "PreToolUse", Tool: "Bash", Code: 0},
			{Seq: 3, Name: "record", Event: "PostToolUse", Tool: "Bash"},
			{Seq: 4, Name: "stopguard", Event: "Stop", Code: 0},
		},
		Requests: []jsontext.Value{jsontext.Value(`{"messages":[{"role":"user","content":"SessionStart hook additional context: Git: on branch main"}]}`)},
	}
	fmt.Println(r.Events())
	fmt.Println(len(r.HooksOf("guard", "PreToolUse")), len(r.HooksOf("guard", "PostToolUse")))
	fmt.Println(r.Told("on branch main"))
	// Output:
	// [SessionStart PreToolUse:Bash PostToolUse:Bash Stop]
	// 1 0
	// true
}

// A test binary whose tests use claudetest runs them in a network
// namespace that has only loopback, where one can be made.
func ExampleMain() {
	// In a _test.go file:
	//
	//	func TestMain(m *testing.M) { os.Exit(claudetest.Main(m)) }
	_ = func(m *testing.M) { os.Exit(claudetest.Main(m)) }
}
