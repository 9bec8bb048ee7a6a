package hooktest_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// A hook that adds a member to every tool call, built with hook.Merge.
func ExampleRecord() {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": "0123456789abcdef"})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	r := hooktest.Record(h, hooktest.NewPreToolUse("mcp__probe__listen_here", `{"room":"Zürich \"war room\"","seats":2.50}`))
	fmt.Println("exit code:", r.Code)
	fmt.Println("decision:", r.PermissionDecision)
	fmt.Println("updatedInput:", string(r.UpdatedInput))
	fmt.Println("problems:", r.Err())
	// Output:
	// exit code: 0
	// decision: allow
	// updatedInput: {"room":"Zürich \"war room\"","seats":2.50,"fingerprint":"0123456789abcdef"}
	// problems: <nil>
}

// Round-tripping a tool input through map[string]any loses what JSONEq
// cannot see.
func ExampleCheckPreserved() {
	in := jsontext.Value(`{"room":"K\u00f6ln","seats":12345678901234567890,"price":2.50}`)
	var m map[string]any
	_ = json.Unmarshal(in, &m)
	m["fingerprint"] = "0123456789abcdef"
	out, _ := json.Marshal(m)
	fmt.Println(hooktest.CheckPreserved(in, out))
	fmt.Println(hooktest.CheckPreserved(in, jsontext.Value(`{"fingerprint":"0123456789abcdef"}`)))
	// Output:
	// /room: member rewritten from "K\u00f6ln" to "Köln" (a hook must keep every tool_input member it did not change)
	// /seats: member rewritten from 12345678901234567890 to 12345678901234567000 (a hook must keep every tool_input member it did not change)
	// /price: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)
	// /price: member moved (a hook must keep every tool_input member it did not change)
	// /room: member lost (a hook must keep every tool_input member it did not change)
	// /seats: member lost (a hook must keep every tool_input member it did not change)
	// /price: member lost (a hook must keep every tool_input member it did not change)
}

// The answer of the seed case's buggy hook, checked against the payload
// Claude Code sent it.
func ExampleCheckAnswer() {
	in := hooktest.Payload("captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1")
	stdout := []byte(`{"systemMessage":null,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"fingerprint":"0123456789abcdef"}}}` + "\n")
	fmt.Println(hooktest.CheckAnswer(in, 0, stdout, nil))
	fmt.Println(hooktest.CheckAnswer(in, 2, stdout, []byte("blocked\n")))
	// Output:
	// /systemMessage: is null; leave the field out instead (Claude Code rejects null and ignores the whole answer) (an answer must leave an optional field out, never set it to null)
	// /hookSpecificOutput/updatedInput/room: member lost (a hook must keep every tool_input member it did not change)
	// exit code 2 with 153 bytes on stdout ({"systemMessage":null,"hookSpecificOutput":{"hookEventName":"PreToolUse","per...); Claude Code blocks with stderr and does not act on them (a hook that exits with 2 must print nothing on stdout)
}

func ExamplePayload() {
	p := hooktest.Payload("pretooluse-bash")
	ti, _ := hooktest.Field(p, "tool_input")
	fmt.Println(string(ti))
	// Output:
	// {"command":"npm test -- --runInBand","description":"Run the test suite","timeout":120000}
}

func ExampleNewPreToolUse() {
	p := hooktest.NewPreToolUse("Bash", `{"command": "ls -la", "timeout": 2.50}`)
	name, _ := hooktest.Field(p, "tool_name")
	ti, _ := hooktest.Field(p, "tool_input")
	fmt.Println(string(name), string(ti))

	// Any event, any field.
	stop := hooktest.WithField(hooktest.NewEvent("Stop"), "stop_hook_active", true)
	active, _ := hooktest.Field(stop, "stop_hook_active")
	fmt.Println(string(active))
	// Output:
	// "Bash" {"command":"ls -la","timeout":2.50}
	// true
}

// A hook that copies tool_input through map[string]any, judged as
// Claude Code reads its answers: the lone surrogate it turns into U+FFFD
// is a failure; the 2.50 it writes as 2.5 is a value Claude Code never
// sends, so it is a strict finding, a failure only with Options.Strict.
func ExampleRunProperty() {
	bad := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		var m map[string]any
		if err := json.Unmarshal(e.ToolInput, &m); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(m)
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: b}, nil
	})
	run := func(payload []byte) (*hooktest.Recorder, error) { return hooktest.Record(bad, payload), nil }
	rep := hooktest.RunProperty(run, &hooktest.Options{
		Fixtures: []hooktest.Fixture{{Name: "bash", Event: "PreToolUse", JSON: hooktest.Payload("pretooluse-bash")}},
		Values: []hooktest.Tricky{
			{Name: "lone surrogate", JSON: jsontext.Value(`"\ud800"`)},
			{Name: "trailing zero", JSON: jsontext.Value(`2.50`)},
		},
	})
	fmt.Printf("%d cases: %d answered, %d updated, %d rewrote the input to itself, %d blocked, %d silent\n", rep.Cases, rep.Answered, rep.Updates, rep.NoOpUpdates, rep.Blocked, rep.Silent)
	fmt.Println("failures:")
	for _, f := range rep.Failures {
		fmt.Println(f)
	}
	fmt.Println("strict findings:", len(rep.StrictFindings))
	for _, f := range rep.StrictFindings[:min(1, len(rep.StrictFindings))] {
		fmt.Println(f)
	}
	// One case re-encodes to the input's very bytes: the library writes
	// no updatedInput for it (only the allow), so it is no rewrite at all.

	// Output:
	// 10 cases: 10 answered, 4 updated, 5 rewrote the input to itself, 0 blocked, 0 silent
	// failures:
	// bash with lone surrogate in /tool_input/command:
	// 	/hookSpecificOutput/updatedInput/command: member changed from "\ud800" to "�" (a hook must keep every tool_input member it did not change)
	// bash with lone surrogate in /tool_input/description:
	// 	/hookSpecificOutput/updatedInput/description: member changed from "\ud800" to "�" (a hook must keep every tool_input member it did not change)
	// bash with lone surrogate in /tool_input/timeout:
	// 	/hookSpecificOutput/updatedInput/timeout: member changed from "\ud800" to "�" (a hook must keep every tool_input member it did not change)
	// bash with lone surrogate added as /tool_input/hooktest_added:
	// 	/hookSpecificOutput/updatedInput/hooktest_added: member changed from "\ud800" to "�" (a hook must keep every tool_input member it did not change)
	// strict findings: 4
	// bash with trailing zero in /tool_input/command:
	// 	/hookSpecificOutput/updatedInput/command: member respelled from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)
}

// Options.Tools points a property run at a tool no fixture calls. The
// seed bug — an updatedInput of the one member the hook sets — fails on
// it.
func ExampleOptions_tools() {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName != "mcp__aisle__listen_here" {
			return nil, nil
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(`{"fingerprint":"0123456789abcdef"}`)}, nil
	})
	run := func(payload []byte) (*hooktest.Recorder, error) { return hooktest.Record(h, payload), nil }

	rep := hooktest.RunProperty(run, &hooktest.Options{Values: hooktest.RoomNames()[:1]})
	fmt.Println(rep.Err())

	rep = hooktest.RunProperty(run, &hooktest.Options{
		Tools:  []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: `{"room":"lobby","seats":4}`}},
		Values: hooktest.RoomNames()[:1],
	})
	fmt.Println(rep.Failures[0])
	// Output:
	// the property run:
	// 	the hook answered none of the 400 cases (exit 0 and nothing on stdout for every payload, of the tools Bash, Edit, mcp__github__create_pull_request, Agent, Glob, Grep, mcp__probe__listen_here, Read and 10 more), so nothing was tested; point the run at the tools the hook handles with hooktest.Options.Tools, e.g. Tools: []hooktest.Tool{{Name: "mcp__server__tool", Input: `{"room":"lobby"}`}} (for a PostToolUse hook, give each call's result too, e.g. Response: `[{"type":"text","text":"joined"}]`: that adds a PostToolUse payload of the call) (a property run must reach the hook: it must answer at least one case)
	// pretooluse mcp__aisle__listen_here (unchanged):
	// 	hook: invalid answer to PreToolUse: updatedInput is partial: it lacks /room, /seats of the incoming tool_input, and Claude Code replaces the whole input (build it with hook.Merge, or list removals in Removed); Claude Code got no answer (a hook's answer must be one the library can write)
}

// CheckSameValue judges as Claude Code reads: a respelling is no
// failure, a lone surrogate turned into U+FFFD is.
func ExampleCheckSameValue() {
	in := jsontext.Value(`{"room":"Caf\u00e9","price":2.50,"tag":"\ud800","todos":[{"id":"a"},{"id":"b"}]}`)
	out := jsontext.Value(`{"room":"Café","price":2.5,"tag":"\ufffd","todos":[{"id":"a"},{}]}`)
	fmt.Println(hooktest.CheckSameValue(in, out))
	fmt.Println(hooktest.CheckSameValue(in, out, "tag", "todos"))
	// Output:
	// /tag: member changed from "\ud800" to "\ufffd" (a hook must keep every tool_input member it did not change)
	// /todos/1/id: member lost (a hook must keep every tool_input member it did not change)
	// <nil>
}
