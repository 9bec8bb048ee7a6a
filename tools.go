package hook

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/wire"
)

// The typed views of the built-in tools' inputs (tool_input) and results
// (tool_response) are declared in types_gen.go, generated from the
// protocol schema (internal/protocol/types.json); this file holds the
// tool names and what works on the views.
//
// The input views ([BashInput], …) are as declared in the SDK's
// sdk-tools.d.ts (spec §9.1). They are for
// reading, and for typed edits with [Edit] and [Update]: an update built
// from a view replaces only the values that changed, at every depth, so
// members a view does not know survive everywhere — also inside typed
// nested items such as TodoWrite todos and AskUserQuestion questions and
// options — and untouched values keep their bytes. A field set to its
// zero value by an edit is written as that zero value, never dropped.
// Nested open objects are kept as jsontext.Value (omitted when absent),
// so their bytes survive too. Integer fields read any JSON number, as
// JavaScript sends them: a fraction is dropped when reading (2.50 reads
// as 2), and the member keeps its bytes unless the edit changes it.
//
// The typed views of the built-in tools' results ([BashResponse], …) are
// as PostToolUse receives them in tool_response (the tools' Output types of
// the SDK's sdk-tools.d.ts, spec §9.2). Decode them with [DecodeView]; the
// decoding is lenient: members a view does not know are ignored, absent
// members leave the zero value, and a null string reads as "".
//
// Like the input views, the top-level fields carry no omitempty, so a
// PostToolUse hook can build an updatedToolOutput with [Edit] on the
// incoming tool_response: only the members it changed are replaced, every
// other member is kept byte for byte. Nested objects the views do not
// type are kept raw; typed nested items are re-encoded whole when changed.
//
// PostToolBatch's tool_calls[].tool_response is not one of these: it is
// the text (or the content blocks) the model saw.

// The names of the built-in tools, as tool_name carries them. Claude Code
// always sends the current name ("Agent", never the legacy "Task").
const (
	ToolAgent            = "Agent"
	ToolAskUserQuestion  = "AskUserQuestion"
	ToolBash             = "Bash"
	ToolCronCreate       = "CronCreate"
	ToolCronDelete       = "CronDelete"
	ToolCronList         = "CronList"
	ToolEdit             = "Edit"
	ToolEnterPlanMode    = "EnterPlanMode"
	ToolEnterWorktree    = "EnterWorktree"
	ToolExitPlanMode     = "ExitPlanMode"
	ToolExitWorktree     = "ExitWorktree"
	ToolGlob             = "Glob"
	ToolGrep             = "Grep"
	ToolListMcpResources = "ListMcpResourcesTool"
	ToolMonitor          = "Monitor"
	ToolNotebookEdit     = "NotebookEdit"
	ToolPowerShell       = "PowerShell"
	ToolPushNotification = "PushNotification"
	ToolRead             = "Read"
	ToolReadMcpResource  = "ReadMcpResourceTool"
	ToolScheduleWakeup   = "ScheduleWakeup"
	ToolSkill            = "Skill"
	ToolTaskCreate       = "TaskCreate"
	ToolTaskGet          = "TaskGet"
	ToolTaskList         = "TaskList"
	ToolTaskStop         = "TaskStop"
	ToolTaskUpdate       = "TaskUpdate"
	ToolTodoWrite        = "TodoWrite"
	ToolWebFetch         = "WebFetch"
	ToolWebSearch        = "WebSearch"
	ToolWrite            = "Write"
)

// DecodeView decodes raw — a tool_input, a tool_response or any other raw
// member of an event — into a new T, one of the typed views of this
// package ([BashInput], [BashResponse], …) or a type of the caller's.
// Members that T does not know are ignored and absent members leave their
// field at the zero value; a member of the wrong JSON type is an error.
//
//	in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
//
// The view is for reading. To build an updated input from it, use [Edit]
// or [Update], which keep every member the view did not change.
func DecodeView[T any](raw jsontext.Value) (*T, error) {
	v := new(T)
	if len(raw) == 0 {
		return nil, fmt.Errorf("hook: DecodeView: no value to decode into %T", v)
	}
	if err := wire.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("hook: DecodeView: %w", err)
	}
	return v, nil
}

// PowerShellInput is the input of the PowerShell tool: the same five
// fields as [BashInput].
type PowerShellInput BashInput

// SplitMCPToolName splits an MCP tool name "mcp__<server>__<tool>" into
// its server and tool parts. ok is false for a name that is not an MCP tool
// name. The server part is whatever stands before the first "__" after the
// prefix (plugin servers read "plugin_<plugin>_<server>"); Claude Code
// replaces characters outside [A-Za-z0-9_-] in both parts with "_". Trust
// an event's MCPServer field, not this name, for where a server came from.
func SplitMCPToolName(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

// isMCPTool reports whether name is an MCP tool name "mcp__<server>__<tool>".
func isMCPTool(name string) bool {
	_, _, ok := SplitMCPToolName(name)
	return ok
}
