package hook

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/inputedit"
	"github.com/gohooks/hook/internal/wire"
)

// Edit decodes the JSON value orig into a new T, lets edit change it, and
// returns orig with exactly the values that edit changed replaced, at
// every depth. orig may be any JSON value: an object with one of the
// typed views such as [BashInput] or [BashResponse], an array of an MCP
// tool's content blocks with []ContentBlock, a string (the shell output
// Codex sends as tool_response) with string. See [Update] for the rules;
// an edit that leaves the value equal returns orig unchanged, which an
// answer then leaves out (a no-op rewrite is no answer). If edit returns
// an error, Edit returns it.
//
//	upd, err := hook.Edit(ev.ToolInput, func(in *hook.BashInput) error {
//		in.Command = "timeout 600 " + in.Command
//		return nil
//	})
//
// To change every text of a tool's result, whatever its shape, use
// [EditText].
func Edit[T any](orig jsontext.Value, edit func(*T) error) (jsontext.Value, error) {
	if err := checkEditable("Edit", orig); err != nil {
		return nil, err
	}
	v := new(T)
	if err := foreignView("Edit", servedTool(orig), reflect.TypeFor[T]()); err != nil {
		return nil, err
	}
	if err := checkRequired("Edit", orig, reflect.TypeFor[T]()); err != nil { // see tools.go
		return nil, err
	}
	if err := checkCopilotResult("Edit", orig, reflect.TypeFor[T]()); err != nil {
		return nil, err
	}
	if err := wire.Unmarshal(orig, v); err != nil {
		return nil, fmt.Errorf("hook: Edit: decoding %T: %w", v, err)
	}
	if err := edit(v); err != nil {
		return nil, err
	}
	out, err := inputedit.Diff(orig, v) // orig is checked above
	if err != nil {
		return nil, err
	}
	out = append(jsontext.Value(nil), out...)
	noteBuilt(orig, out) // see chainown.go
	return out, nil
}

// Update compares edited, a typed view of the JSON value orig after the
// hook changed it, with a fresh decode of orig into the same type, and
// returns orig with only the values that differ replaced. orig may be a
// value of any kind: an object (a tool's input or result), an array (an
// MCP tool's content blocks) or a string (a text result). The comparison
// recurses through structs, pointers, maps with string keys and slices,
// so the rules hold at every depth:
//
//   - A view equal as a whole to the fresh decode returns orig itself,
//     less the whitespace around it: an answer leaves such a rewrite out,
//     so a no-op edit is no answer.
//   - A member whose value did not change keeps its bytes, even when the
//     view would encode it differently (escapes, "2.50", big integers).
//   - Members that the view does not know survive, in order, in every
//     object, also inside a nested object or array element that the edit
//     changed (a todo's unknown "id" inside todos[]).
//   - A field set to a new value is written, zero values included: an
//     edit that sets Content to "" writes "content":"", whatever the
//     field's omitzero option says. A field absent from orig that is
//     still its zero value stays absent.
//   - A slice element is matched with the original element at the same
//     place, after the elements the edit left equal at the start and end
//     of the slice: changing, appending, inserting or deleting elements
//     keeps the bytes (and unknown members) of every other element. This
//     holds for a top-level array too ([]ContentBlock of an MCP result).
//   - A string, number or boolean that the edit changed is written
//     whole; one it left equal keeps its bytes.
//   - Update never removes a member: an edit that would (a raw value or
//     pointer set to nil, a map key deleted) is an error that points to
//     [Remove]. Array elements are values, not members: a shorter slice
//     is written shorter.
//
// Values whose type encodes itself (a MarshalJSON method, an interface)
// are written whole when they change. The result is compact where it
// changed: whitespace inside a rewritten object or array is not kept.
// edited is the view or a pointer to it (a struct, slice, map, string,
// …); orig must decode into its type.
func Update(orig jsontext.Value, edited any) (jsontext.Value, error) {
	if err := checkEditable("Update", orig); err != nil {
		return nil, err
	}
	if err := foreignView("Update", servedTool(orig), reflect.TypeOf(edited)); err != nil {
		return nil, err
	}
	if err := checkRequired("Update", orig, reflect.TypeOf(edited)); err != nil { // see tools.go
		return nil, err
	}
	if err := checkCopilotResult("Update", orig, reflect.TypeOf(edited)); err != nil {
		return nil, err
	}
	out, err := inputedit.Diff(orig, edited)
	if err != nil {
		return nil, err
	}
	out = append(jsontext.Value(nil), out...)
	noteBuilt(orig, out) // see chainown.go
	return out, nil
}

// checkEditable refuses an orig that is not one valid JSON value by the
// library's rules (see internal/wire): invalid UTF-8 allowed, a name
// twice in an object refused.
func checkEditable(fn string, orig jsontext.Value) error {
	if len(bytes.TrimSpace(orig)) == 0 {
		return fmt.Errorf("hook: %s: the original is empty, not a JSON value", fn)
	}
	if !wire.Valid(orig) {
		return fmt.Errorf("hook: %s: the original is not one valid JSON value (or has a member name twice in an object)", fn)
	}
	return nil
}

// viewTools returns the tools whose input the typed view t describes,
// when t is the view of a built-in tool's input. (A switch, not a map, so
// that nothing is built at start-up.)
func viewTools(t reflect.Type) []string {
	switch t {
	case reflect.TypeFor[BashInput]():
		return []string{ToolBash, ToolPowerShell}
	case reflect.TypeFor[PowerShellInput]():
		return []string{ToolPowerShell}
	case reflect.TypeFor[WriteInput]():
		return []string{ToolWrite}
	case reflect.TypeFor[EditInput]():
		return []string{ToolEdit}
	case reflect.TypeFor[ReadInput]():
		return []string{ToolRead}
	case reflect.TypeFor[GlobInput]():
		return []string{ToolGlob}
	case reflect.TypeFor[GrepInput]():
		return []string{ToolGrep}
	case reflect.TypeFor[WebFetchInput]():
		return []string{ToolWebFetch}
	case reflect.TypeFor[WebSearchInput]():
		return []string{ToolWebSearch}
	case reflect.TypeFor[AgentInput]():
		return []string{ToolAgent}
	case reflect.TypeFor[NotebookEditInput]():
		return []string{ToolNotebookEdit}
	case reflect.TypeFor[TodoWriteInput]():
		return []string{ToolTodoWrite}
	case reflect.TypeFor[ExitPlanModeInput]():
		return []string{ToolExitPlanMode}
	case reflect.TypeFor[AskUserQuestionInput]():
		return []string{ToolAskUserQuestion}
	case reflect.TypeFor[SkillInput]():
		return []string{ToolSkill}
	case reflect.TypeFor[TaskCreateInput]():
		return []string{ToolTaskCreate}
	case reflect.TypeFor[TaskUpdateInput]():
		return []string{ToolTaskUpdate}
	case reflect.TypeFor[TaskGetInput]():
		return []string{ToolTaskGet}
	case reflect.TypeFor[TaskStopInput]():
		return []string{ToolTaskStop}
	case reflect.TypeFor[CronCreateInput]():
		return []string{ToolCronCreate}
	case reflect.TypeFor[CronDeleteInput]():
		return []string{ToolCronDelete}
	case reflect.TypeFor[EnterWorktreeInput]():
		return []string{ToolEnterWorktree}
	case reflect.TypeFor[ExitWorktreeInput]():
		return []string{ToolExitWorktree}
	case reflect.TypeFor[ListMcpResourcesInput]():
		return []string{ToolListMcpResources}
	case reflect.TypeFor[ReadMcpResourceInput]():
		return []string{ToolReadMcpResource}
	case reflect.TypeFor[MonitorInput]():
		return []string{ToolMonitor}
	case reflect.TypeFor[ScheduleWakeupInput]():
		return []string{ToolScheduleWakeup}
	case reflect.TypeFor[PushNotificationInput]():
		return []string{ToolPushNotification}
	}
	return nil
}

// builtinTool reports whether tool is one of the built-in tools whose
// input has a typed view.
func builtinTool(tool string) bool {
	switch tool {
	case ToolBash, ToolPowerShell, ToolWrite, ToolEdit, ToolRead, ToolGlob, ToolGrep,
		ToolWebFetch, ToolWebSearch, ToolAgent, ToolNotebookEdit, ToolTodoWrite,
		ToolExitPlanMode, ToolAskUserQuestion, ToolSkill, ToolTaskCreate, ToolTaskUpdate,
		ToolTaskGet, ToolTaskStop, ToolCronCreate, ToolCronDelete, ToolEnterWorktree,
		ToolExitWorktree, ToolListMcpResources, ToolReadMcpResource, ToolMonitor,
		ToolScheduleWakeup, ToolPushNotification:
		return true
	}
	return false
}

// foreignView refuses a typed edit with the view t of a built-in tool's
// input on the input of another built-in tool: the view's fields would
// be added to the input as new members (new_string in a Bash call), which
// Claude Code drops or refuses. A call of an MCP tool or of a tool the
// library does not know ("" when the tool is not known) takes any view.
func foreignView(fn, tool string, t reflect.Type) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want := viewTools(t)
	if tool == "" || want == nil || !builtinTool(tool) {
		return nil
	}
	for _, w := range want {
		if w == tool {
			return nil
		}
	}
	return fmt.Errorf("hook: %s: %s is a view of the %s tool's input, and this is a %s call: its fields would be added to the %s input as new members (use the view of %s, or a struct of your own)", fn, t.Name(), want[0], tool, tool, tool)
}
