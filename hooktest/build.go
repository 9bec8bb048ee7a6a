package hooktest

import (
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// The builders below return payloads as Claude Code writes them: one
// compact JSON object with the common fields first, in Claude Code's
// order. They start from an embedded fixture and replace only what they
// are given; every other member keeps the fixture's bytes. They panic on
// bad arguments, the way httptest.NewRequest does: a test with a bad
// payload is a broken test.

// NewPreToolUse returns a PreToolUse payload for a call of tool with
// toolInput as its tool_input. toolInput is the text of one JSON object
// without duplicate names (a string, a []byte or a [jsontext.Value]),
// whose bytes are kept except for whitespace between tokens (lone
// surrogate escapes are fine); or any other Go value that encodes to a
// JSON object with the library's options, such as a map[string]any or a
// typed view like [hook.BashInput]. For an MCP tool name
// ("mcp__<server>__<tool>") the payload carries an mcp_server member
// naming the server. NewPreToolUse panics if tool is empty or toolInput
// is not such an object.
func NewPreToolUse(tool string, toolInput any) jsontext.Value {
	base, ti := toolPayload("NewPreToolUse", "pretooluse-bash", "pretooluse-mcp-listen_here", tool, toolInput)
	return setFields(base, "tool_name", quote(tool), "tool_input", ti)
}

// NewPermissionRequest returns a PermissionRequest payload for a call of
// tool with toolInput as its tool_input, without permission_suggestions.
// The arguments and panics are those of [NewPreToolUse].
func NewPermissionRequest(tool string, toolInput any) jsontext.Value {
	base, ti := toolPayload("NewPermissionRequest", "permissionrequest-bash", "permissionrequest-mcp", tool, toolInput)
	base, err := hook.Remove(base, "permission_suggestions")
	if err != nil {
		panic("hooktest: NewPermissionRequest: " + err.Error())
	}
	return setFields(base, "tool_name", quote(tool), "tool_input", ti)
}

// NewPostToolUse returns a PostToolUse payload for a call of tool with
// toolInput as its tool_input and toolResponse as its tool_response:
// the text of any JSON value (a string, a []byte or a [jsontext.Value]),
// or any other Go value, encoded with the library's options. The
// arguments and panics are those of [NewPreToolUse]; it also panics if
// toolResponse is not one JSON value.
func NewPostToolUse(tool string, toolInput, toolResponse any) jsontext.Value {
	base, ti := toolPayload("NewPostToolUse", "posttooluse-bash", "posttooluse-mcp-listen_here", tool, toolInput)
	resp, err := jsonOf(toolResponse)
	if err == nil {
		err = resp.Compact(jsonopts.Lenient())
	}
	if err != nil {
		panic(fmt.Sprintf("hooktest: NewPostToolUse: toolResponse is not one JSON value: %v", err))
	}
	return setFields(base, "tool_name", quote(tool), "tool_input", ti, "tool_response", resp)
}

// NewEvent returns the payload of the first hand-written fixture of the
// event name (see [Fixtures]), for example NewEvent("Stop"). Combine it
// with [WithField] to build any event. For an event that only Codex has
// (one of [CodexFixtures]) it returns [NewCodexEvent]'s payload. It panics
// if name is neither one of the 35 events of Claude Code 2.1.336 nor an
// event of Codex.
func NewEvent(name string) jsontext.Value {
	for _, f := range loadFixtures() {
		if f.Event == name {
			return clone(f.JSON)
		}
	}
	for _, f := range loadCodexFixtures() {
		if f.Event == name {
			return NewCodexEvent(name)
		}
	}
	panic(fmt.Sprintf("hooktest: NewEvent: no fixture for event %q", name))
}

// WithField returns a copy of the JSON object payload with its top-level
// member name set to value, in place if payload has it, appended
// otherwise; every other member keeps its bytes (see [hook.Merge]). value
// is encoded with the library's options; a [jsontext.Value] is written as
// it is. WithField panics if payload is not a JSON object without
// duplicate names or value cannot be encoded.
func WithField(payload jsontext.Value, name string, value any) jsontext.Value {
	out, err := hook.Merge(payload, map[string]any{name: value})
	if err != nil {
		panic("hooktest: WithField: " + err.Error())
	}
	return out
}

// WithoutField returns a copy of the JSON object payload without the
// top-level members names; every other member keeps its bytes (see
// [hook.Remove]). It panics if payload is not a JSON object without
// duplicate names.
func WithoutField(payload jsontext.Value, names ...string) jsontext.Value {
	out, err := hook.Remove(payload, names...)
	if err != nil {
		panic("hooktest: WithoutField: " + err.Error())
	}
	return out
}

// WithToolInputField returns a copy of payload whose tool_input has the
// member name set to value, as [WithField] does one level down. It panics
// if payload has no tool_input object, or as WithField does.
func WithToolInputField(payload jsontext.Value, name string, value any) jsontext.Value {
	ti, ok := Field(payload, "tool_input")
	if !ok || ti.Kind() != '{' {
		panic("hooktest: WithToolInputField: the payload has no tool_input object")
	}
	out, err := hook.Merge(ti, map[string]any{name: value})
	if err != nil {
		panic("hooktest: WithToolInputField: " + err.Error())
	}
	return WithField(payload, "tool_input", out)
}

// Field returns the raw value of the top-level member name of the JSON
// object v, and whether it has one. It returns false too when v is not a
// JSON object without duplicate names. The result shares v's bytes.
func Field(v jsontext.Value, name string) (jsontext.Value, bool) {
	ms, err := rawjson.Members(v)
	if err != nil {
		return nil, false
	}
	m, ok := rawjson.Find(ms, name)
	return m.Value, ok
}

// toolPayload returns the base fixture for tool and the compacted tool
// input, panicking on bad arguments.
func toolPayload(fn, builtin, mcp, tool string, toolInput any) (jsontext.Value, jsontext.Value) {
	if tool == "" {
		panic("hooktest: " + fn + ": empty tool name")
	}
	ti := toolInputOf(fn, toolInput)
	server, _, isMCP := hook.SplitMCPToolName(tool)
	if !isMCP {
		return Payload(builtin), ti
	}
	base := Payload(mcp)
	srv, _ := Field(base, "mcp_server")
	srv = WithField(srv, "name", server)
	return WithField(base, "mcp_server", srv), ti
}

// toolInputOf returns toolInput as compact JSON text, panicking (in the
// builder fn) when it is not one JSON object without duplicate names.
func toolInputOf(fn string, toolInput any) jsontext.Value {
	ti, err := jsonOf(toolInput)
	if err == nil {
		err = ti.Compact(jsonopts.Lenient())
	}
	if err != nil {
		panic(fmt.Sprintf("hooktest: %s: toolInput is not valid JSON: %v", fn, err))
	}
	if _, err := rawjson.Members(ti); err != nil {
		panic(fmt.Sprintf("hooktest: %s: toolInput must be one JSON object without duplicate names: %v", fn, err))
	}
	return ti
}

// jsonOf returns the JSON text v is (a string, a []byte, a
// jsontext.Value; copied), or v encoded with the library's options.
func jsonOf(v any) (jsontext.Value, error) {
	switch v := v.(type) {
	case string:
		return jsontext.Value(v), nil
	case []byte:
		return jsontext.Value(slices.Clone(v)), nil
	case jsontext.Value:
		return slices.Clone(v), nil
	}
	// Merge encodes the patch's values with the library's options.
	out, err := hook.Merge(jsontext.Value(`{}`), map[string]any{"v": v})
	if err != nil {
		return nil, err
	}
	val, _ := Field(out, "v")
	return val, nil
}

// setFields sets pairs of top-level members (name, raw value) of payload.
func setFields(payload jsontext.Value, pairs ...any) jsontext.Value {
	for i := 0; i < len(pairs); i += 2 {
		payload = WithField(payload, pairs[i].(string), pairs[i+1].(jsontext.Value))
	}
	return payload
}

// quote returns s as a JSON string.
func quote(s string) jsontext.Value {
	v, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		panic(fmt.Sprintf("hooktest: %q is not valid UTF-8", s))
	}
	return v
}
