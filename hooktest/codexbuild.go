package hooktest

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// The Codex builders below return payloads as the OpenAI Codex CLI
// (the release of [CodexFixtures]) writes them: one compact JSON object
// with the members Codex sends, in Codex's order — session_id, turn_id,
// transcript_path (a rollout file under $CODEX_HOME/sessions), cwd,
// hook_event_name, model, permission_mode, then the event's own members
// (tool_name, tool_input, tool_response, tool_use_id "call_1", …). They
// start from the Codex fixture of the event and replace only what they
// are given; every other member keeps the fixture's bytes. Unlike Claude
// Code, Codex sends no mcp_server member for an MCP tool, and its shell
// and apply_patch tools carry their text in tool_input.command alone.
// They panic on bad arguments, as the Claude Code builders do.

// codexCallID is the tool_use_id of the Codex builders' payloads: Codex
// hands hooks the model's call_id.
const codexCallID = `"call_1"`

// codexOrder is the order in which Codex 0.171.0 writes the members of a
// hook payload (seen in what it sent hooks in e2e/codex_test.go);
// members not named here follow, in the fixture's order.
var codexOrder = []string{
	"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode",
	"tool_name", "tool_input", "tool_response", "tool_use_id",
	"source", "prompt", "stop_hook_active", "last_assistant_message",
}

// NewCodexPreToolUse returns a PreToolUse payload as Codex sends it for a
// call of tool with toolInput as its tool_input. Codex names its shell
// tool "Bash" and its patch tool "apply_patch", and sends for either a
// tool_input of one string member, command (a toolInput with other
// members makes it panic: Codex cannot send that); an MCP tool is
// "mcp__<server>__<tool>" with the tool's own arguments. toolInput is as
// for [NewPreToolUse]. NewCodexPreToolUse panics if tool is empty or
// toolInput is not such an object.
func NewCodexPreToolUse(tool string, toolInput any) jsontext.Value {
	base, ti := codexToolPayload("NewCodexPreToolUse", "codex/pre-tool-use", tool, toolInput)
	return codexOrdered(setFields(base, "tool_name", quote(tool), "tool_input", ti, "tool_use_id", jsontext.Value(codexCallID)))
}

// NewCodexPermissionRequest returns a PermissionRequest payload as Codex
// sends it for a call of tool with toolInput as its tool_input (Codex
// sends it no tool_use_id). The arguments and panics are those of
// [NewCodexPreToolUse].
func NewCodexPermissionRequest(tool string, toolInput any) jsontext.Value {
	base, ti := codexToolPayload("NewCodexPermissionRequest", "codex/permission-request", tool, toolInput)
	return codexOrdered(setFields(base, "tool_name", quote(tool), "tool_input", ti))
}

// NewCodexPostToolUse returns a PostToolUse payload as Codex sends it for
// a call of tool with toolInput as its tool_input and toolResponse as its
// tool_response: for the shell, what the command printed, as a JSON
// string (toolResponse is JSON text as for [NewPostToolUse], so the
// output "ok\n" is `"ok\n"`); for an MCP tool, the call's result object,
// such as `{"content":[{"type":"text","text":"ok"}]}`. The other arguments
// and panics are those of [NewCodexPreToolUse]; it also panics if
// toolResponse is not one JSON value.
func NewCodexPostToolUse(tool string, toolInput, toolResponse any) jsontext.Value {
	base, ti := codexToolPayload("NewCodexPostToolUse", "codex/post-tool-use", tool, toolInput)
	resp, err := jsonOf(toolResponse)
	if err == nil {
		err = resp.Compact(jsonopts.Lenient())
	}
	if err != nil {
		panic(fmt.Sprintf("hooktest: NewCodexPostToolUse: toolResponse is not one JSON value: %v", err))
	}
	return codexOrdered(setFields(base, "tool_name", quote(tool), "tool_input", ti, "tool_response", resp, "tool_use_id", jsontext.Value(codexCallID)))
}

// NewCodexEvent returns the payload of the Codex fixture of the event
// name (see [CodexFixtures]; for PreToolUse its shell call), in Codex's
// order, for example NewCodexEvent("Stop"). Combine it with [WithField]
// to build any event. It panics if Codex has no event name.
func NewCodexEvent(name string) jsontext.Value {
	if name == "PreToolUse" {
		return codexOrdered(WithField(Payload("codex/pre-tool-use"), "tool_use_id", jsontext.Value(codexCallID)))
	}
	for _, f := range loadCodexFixtures() {
		if f.Event == name {
			return codexOrdered(clone(f.JSON))
		}
	}
	panic(fmt.Sprintf("hooktest: NewCodexEvent: Codex has no event %q", name))
}

// codexToolPayload returns the base fixture and the compacted tool input,
// panicking on bad arguments and on a shell or apply_patch input Codex
// cannot send.
func codexToolPayload(fn, fixture, tool string, toolInput any) (jsontext.Value, jsontext.Value) {
	if tool == "" {
		panic("hooktest: " + fn + ": empty tool name")
	}
	ti := toolInputOf(fn, toolInput)
	if tool == "Bash" || tool == "apply_patch" {
		ms, _ := rawjson.Members(ti)
		if len(ms) != 1 || ms[0].Key != "command" || jsontext.Value(ms[0].Value).Kind() != '"' {
			panic(fmt.Sprintf("hooktest: %s: Codex sends %s a tool_input of one string member, command, not %s", fn, tool, ti))
		}
	}
	return Payload(fixture), ti
}

// codexOrdered returns the object v with its members in [codexOrder],
// each with its bytes.
func codexOrdered(v jsontext.Value) jsontext.Value {
	ms, err := rawjson.Members(v)
	if err != nil {
		panic("hooktest: a Codex payload: " + err.Error())
	}
	out := make(jsontext.Value, 0, len(v))
	out = append(out, '{')
	used := make([]bool, len(ms))
	add := func(i int) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, ms[i].Name...)
		out = append(out, ':')
		out = append(out, ms[i].Value...)
		used[i] = true
	}
	for _, k := range codexOrder {
		for i, m := range ms {
			if !used[i] && m.Key == k {
				add(i)
			}
		}
	}
	for i := range ms {
		if !used[i] {
			add(i)
		}
	}
	return append(out, '}')
}
