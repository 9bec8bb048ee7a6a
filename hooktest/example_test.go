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

// A hook that copies tool_input through map[string]any fails the
// property run; each failure names the fixture, the tricky value, the
// member and the JSON pointer.
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
	rep := hooktest.RunProperty(run,
		hooktest.UseFixtures(hooktest.Fixture{Name: "bash", Event: "PreToolUse", JSON: hooktest.Payload("pretooluse-bash")}),
		hooktest.UseValues(hooktest.Tricky{Name: "trailing zero", JSON: jsontext.Value(`2.50`)}))
	for _, f := range rep.Failures {
		fmt.Println(f)
	}
	// Output:
	// bash with trailing zero in /tool_input/command:
	// 	/hookSpecificOutput/updatedInput/command: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)
	// bash with trailing zero in /tool_input/description:
	// 	/hookSpecificOutput/updatedInput/description: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)
	// bash with trailing zero in /tool_input/timeout:
	// 	/hookSpecificOutput/updatedInput/timeout: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)
	// bash with trailing zero added as /tool_input/hooktest_added:
	// 	/hookSpecificOutput/updatedInput/timeout: member moved (a hook must keep every tool_input member it did not change)
	// 	/hookSpecificOutput/updatedInput/hooktest_added: member rewritten from 2.50 to 2.5 (a hook must keep every tool_input member it did not change)
}
