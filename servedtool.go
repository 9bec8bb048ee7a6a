package hook

import (
	"sync"
	"unsafe"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// servedInputs maps the first byte of each tool_input being served (as
// Serve read it) to its length and tool name, so that [Edit] and [Update]
// know the tool of the input they are given; an entry lives while its
// handler runs (see serveTool).
//
// It is the one process-wide state a call writes (docs/design.md). Every
// other piece of a call's state lives in its invocation, reached through
// the Event its handlers receive; Edit and Update are generic functions
// (Go has no generic methods) given only the bytes, so they can reach no
// invocation, and without this they could not refuse the view of another
// tool, whose fields would be added to the input as new members. The key
// is the address of the bytes Serve read, with their length: a copy or a
// slice of them finds nothing, and Edit then has no tool to check the
// view against (it checks none, as for bytes from outside Serve).
var servedInputs sync.Map // unsafe.Pointer → servedInput

type servedInput struct {
	n    int
	tool string
}

// serveTool records the tool of ev's tool_input while its handler runs,
// and returns the function that forgets it.
func serveTool(ev *Event) (forget func()) {
	in, ok := ev.Field("tool_input")
	raw, named := ev.Field("tool_name")
	if !ok || !named || len(in) == 0 {
		return func() {}
	}
	// The read validated raw: a string needs no codec, only unquoting,
	// and a name without escapes is looked up as it is, so that an MCP
	// tool's name is not copied.
	if len(raw) < 2 || raw[0] != '"' {
		return func() {}
	}
	var tool string
	if content := raw[1 : len(raw)-1]; rawjson.IsSimple(content) {
		if !builtinTool(string(content)) {
			return func() {}
		}
		tool = string(content)
	} else if tool, _ = wire.Unquote(raw); !builtinTool(tool) {
		return func() {}
	}
	key := unsafe.Pointer(unsafe.SliceData(in))
	servedInputs.Store(key, servedInput{n: len(in), tool: tool})
	return func() { servedInputs.Delete(key) }
}

// servedTool returns the tool whose input orig is, when orig is the
// tool_input of an event being served, else "".
func servedTool(orig []byte) string {
	if len(orig) == 0 {
		return ""
	}
	v, ok := servedInputs.Load(unsafe.Pointer(unsafe.SliceData(orig)))
	if !ok || v.(servedInput).n != len(orig) {
		return ""
	}
	return v.(servedInput).tool
}
