package hook

import "strings"

// This file holds typed views of the built-in tools' inputs (tool_input),
// as declared in the SDK's sdk-tools.d.ts (spec §9.1). They are for
// reading, and for typed edits with [Edit] and [Update]: an update built
// from a view replaces only the members whose value changed, so members a
// view does not know survive. The views carry no omitempty options on
// purpose: a field set to its zero value by an edit is written as that
// zero value, never dropped.

// The names of the built-in tools that have typed views here.
const (
	ToolBash  = "Bash"
	ToolWrite = "Write"
	ToolEdit  = "Edit"
	ToolRead  = "Read"
)

// BashInput is the input of the Bash tool.
type BashInput struct {
	// Command is the shell command to run (required).
	Command string `json:"command"`
	// Timeout is the limit in milliseconds (foreground max 600000).
	Timeout int64 `json:"timeout"`
	// Description says what the command does, in a few words.
	Description string `json:"description"`
	// RunInBackground runs the command in the background.
	RunInBackground bool `json:"run_in_background"`
	// DangerouslyDisableSandbox runs the command outside the sandbox.
	DangerouslyDisableSandbox bool `json:"dangerouslyDisableSandbox"`
}

// WriteInput is the input of the Write tool.
type WriteInput struct {
	// FilePath is the absolute path of the file (required).
	FilePath string `json:"file_path"`
	// Content is the whole new content (required).
	Content string `json:"content"`
}

// EditInput is the input of the Edit tool.
type EditInput struct {
	// FilePath is the absolute path of the file (required).
	FilePath string `json:"file_path"`
	// OldString is the text to replace (required).
	OldString string `json:"old_string"`
	// NewString is the replacement (required).
	NewString string `json:"new_string"`
	// ReplaceAll replaces every occurrence; Claude Code fills in false.
	ReplaceAll bool `json:"replace_all"`
}

// ReadInput is the input of the Read tool.
type ReadInput struct {
	// FilePath is the absolute path of the file (required).
	FilePath string `json:"file_path"`
	// Offset is the line to start at.
	Offset int64 `json:"offset"`
	// Limit is the number of lines to read.
	Limit int64 `json:"limit"`
	// Pages is a PDF page range such as "1-5".
	Pages string `json:"pages"`
	// AllowLarge allows reading a large file whole.
	AllowLarge bool `json:"allow_large"`
}

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
