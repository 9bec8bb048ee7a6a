package hook

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// This file holds the tool names, the typed views of the built-in tools'
// inputs (tool_input) and what works on the views; the views of their
// results (tool_response) are in toolresults.go.
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
//
// A view of a built-in tool's input ([WriteInput], …) also refuses the
// input of a built-in tool's call being served (an event's ToolInput)
// that lacks a member Claude Code always sends ([RequiredMembers]), or
// has it null: such an input is another agent's, and would decode to
// empty fields that a guard reads as harmless (the GitHub Copilot CLI's
// Write, Edit and Read calls name the file "path", not "file_path": see
// docs/agents.md). Likewise a view of a built-in tool's result
// ([BashResponse], …) refuses the Copilot CLI's tool_result, an object
// with a "text_result_for_llm" for every tool, which has none of the
// view's fields; [Edit] and [Update] refuse both the same way.
func DecodeView[T any](raw jsontext.Value) (*T, error) {
	v := new(T)
	if len(raw) == 0 {
		return nil, fmt.Errorf("hook: DecodeView: no value to decode into %T", v)
	}
	if err := wire.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("hook: DecodeView: %w", err)
	}
	if err := checkRequired("DecodeView", raw, reflect.TypeFor[T]()); err != nil {
		return nil, err
	}
	if err := checkCopilotResult("DecodeView", raw, reflect.TypeFor[T]()); err != nil {
		return nil, err
	}
	return v, nil
}

// RequiredMembers returns the members that the input of the built-in
// tool whose typed view is view ([BashInput], …, or a pointer to one)
// always has, as the tool's schema requires them (the SDK's
// sdk-tools.d.ts, spec §9.1): Claude Code validates a call's input
// against that schema before any hook sees it. It returns nil for a type
// that is not an input view, and for a view whose members are all
// optional. [DecodeView], [Edit] and [Update] refuse a served call's
// input that lacks one of them.
func RequiredMembers(view reflect.Type) []string {
	for view != nil && view.Kind() == reflect.Pointer {
		view = view.Elem()
	}
	switch view {
	case reflect.TypeFor[BashInput](), reflect.TypeFor[PowerShellInput]():
		return []string{"command"}
	case reflect.TypeFor[WriteInput]():
		return []string{"file_path", "content"}
	case reflect.TypeFor[EditInput]():
		return []string{"file_path", "old_string", "new_string"}
	case reflect.TypeFor[ReadInput]():
		return []string{"file_path"}
	case reflect.TypeFor[GlobInput](), reflect.TypeFor[GrepInput]():
		return []string{"pattern"}
	case reflect.TypeFor[WebFetchInput]():
		return []string{"url", "prompt"}
	case reflect.TypeFor[WebSearchInput]():
		return []string{"query"}
	case reflect.TypeFor[AgentInput]():
		return []string{"description", "prompt"}
	case reflect.TypeFor[NotebookEditInput]():
		return []string{"notebook_path", "new_source"}
	case reflect.TypeFor[TodoWriteInput]():
		return []string{"todos"}
	case reflect.TypeFor[AskUserQuestionInput]():
		return []string{"questions"}
	case reflect.TypeFor[SkillInput]():
		return []string{"skill"}
	case reflect.TypeFor[TaskCreateInput]():
		return []string{"subject", "description"}
	case reflect.TypeFor[TaskUpdateInput](), reflect.TypeFor[TaskGetInput]():
		return []string{"taskId"}
	case reflect.TypeFor[CronCreateInput]():
		return []string{"cron", "prompt"}
	case reflect.TypeFor[CronDeleteInput]():
		return []string{"id"}
	case reflect.TypeFor[ExitWorktreeInput]():
		return []string{"action"}
	case reflect.TypeFor[ReadMcpResourceInput]():
		return []string{"server", "uri"}
	case reflect.TypeFor[MonitorInput]():
		return []string{"description", "timeout_ms"}
	case reflect.TypeFor[PushNotificationInput]():
		return []string{"message"}
	}
	return nil
}

// checkRequired refuses, for the function fn, an input raw of a built-in
// tool's call that lacks a member the view t requires (see
// [RequiredMembers]), or has it null. The call's tool is known for the
// tool_input of an event being served (see servedTool); other bytes (a
// copy, an MCP tool's input, bytes from outside Serve) take any view, as
// a struct of the caller's would. An input that is not a JSON object is
// left to the decoding's own error.
func checkRequired(fn string, raw []byte, t reflect.Type) error {
	req := RequiredMembers(t)
	if req == nil {
		return nil
	}
	tool := servedTool(raw)
	if tool == "" {
		return nil
	}
	ms, err := rawjson.Members(raw)
	if err != nil {
		return nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, name := range req {
		m, ok := rawjson.Find(ms, name)
		if ok && string(m.Value) != "null" {
			continue
		}
		how := "has none"
		if ok {
			how = "has it null"
		}
		hint := ""
		if _, p := rawjson.Find(ms, "path"); p && name == "file_path" && (tool == ToolWrite || tool == ToolEdit || tool == ToolRead) {
			hint = ` (the GitHub Copilot CLI's Write, Edit and Read calls name the file "path" and keep their own members: read them from the raw input; docs/agents.md)`
		}
		return fmt.Errorf("hook: %s: %s needs the member %q, which every %s input of Claude Code's has, and this %s call's input %s: it is another agent's input%s", fn, t.Name(), name, tool, tool, how, hint)
	}
	return nil
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

// BashInput is the input of the Bash tool.
type BashInput struct {
	// Command is the shell command to run (required).
	Command string `json:"command"`
	// Timeout is the limit in milliseconds (foreground max 600000; in the
	// background default 1800000, max 7200000).
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

// GlobInput is the input of the Glob tool.
type GlobInput struct {
	// Pattern is the glob pattern, e.g. "src/**/*.ts" (required).
	Pattern string `json:"pattern"`
	// Path is the directory to search in; empty means the working
	// directory.
	Path string `json:"path"`
}

// GrepInput is the input of the Grep tool (ripgrep).
type GrepInput struct {
	// Pattern is the regular expression to search for (required).
	Pattern string `json:"pattern"`
	// Path is the file or directory to search in.
	Path string `json:"path"`
	// Glob filters the files searched, e.g. "*.ts".
	Glob string `json:"glob"`
	// OutputMode is "content", "files_with_matches" (the default) or
	// "count".
	OutputMode string `json:"output_mode"`
	// Before is the number of lines shown before each match ("-B").
	Before int64 `json:"-B"`
	// After is the number of lines shown after each match ("-A").
	After int64 `json:"-A"`
	// ContextLines is the number of lines shown around each match ("-C").
	ContextLines int64 `json:"-C"`
	// Context is the same as ContextLines ("context").
	Context int64 `json:"context"`
	// LineNumbers shows line numbers ("-n").
	LineNumbers bool `json:"-n"`
	// IgnoreCase searches case-insensitively ("-i").
	IgnoreCase bool `json:"-i"`
	// OnlyMatching shows only the matching parts ("-o").
	OnlyMatching bool `json:"-o"`
	// Type is a ripgrep file type, e.g. "go".
	Type string `json:"type"`
	// HeadLimit caps the number of results.
	HeadLimit int64 `json:"head_limit"`
	// Offset skips that many results.
	Offset int64 `json:"offset"`
	// Multiline lets patterns span lines.
	Multiline bool `json:"multiline"`
}

// WebFetchInput is the input of the WebFetch tool.
type WebFetchInput struct {
	// URL is the page to fetch (required).
	URL string `json:"url"`
	// Prompt is what to extract from the page (required).
	Prompt string `json:"prompt"`
	// Offset is the character position in the page text to start from.
	Offset int64 `json:"offset"`
}

// WebSearchInput is the input of the WebSearch tool.
type WebSearchInput struct {
	// Query is the search query (required).
	Query string `json:"query"`
	// AllowedDomains limits results to these domains.
	AllowedDomains []string `json:"allowed_domains"`
	// BlockedDomains excludes results from these domains.
	BlockedDomains []string `json:"blocked_domains"`
}

// AgentInput is the input of the Agent tool (legacy name Task), which
// starts a subagent.
type AgentInput struct {
	// Description is a short description of the task (required).
	Description string `json:"description"`
	// Prompt is the subagent's task (required).
	Prompt string `json:"prompt"`
	// SubagentType is the agent to use, e.g. "Explore".
	SubagentType string `json:"subagent_type"`
	// Model is "sonnet", "opus", "haiku" or "fable".
	Model string `json:"model"`
	// Effort is "low", "medium", "high", "xhigh" or "max".
	Effort string `json:"effort"`
	// RunInBackground runs the agent in the background (the default since
	// v2.1.198 when absent).
	RunInBackground bool `json:"run_in_background"`
	// Name names the agent.
	Name string `json:"name"`
	// TeamName is deprecated.
	TeamName string `json:"team_name"`
	// Mode is a permission mode for the agent (deprecated).
	Mode string `json:"mode"`
	// Isolation is "worktree" or "remote".
	Isolation string `json:"isolation"`
}

// NotebookEditInput is the input of the NotebookEdit tool.
type NotebookEditInput struct {
	// NotebookPath is the absolute path of the .ipynb file (required).
	NotebookPath string `json:"notebook_path"`
	// CellID is the cell to edit, or to insert after.
	CellID string `json:"cell_id"`
	// NewSource is the cell's new source (required).
	NewSource string `json:"new_source"`
	// CellType is "code" or "markdown".
	CellType string `json:"cell_type"`
	// EditMode is "replace", "insert" or "delete".
	EditMode string `json:"edit_mode"`
}

// TodoWriteInput is the input of the TodoWrite tool.
type TodoWriteInput struct {
	// Todos is the whole updated list (required).
	Todos []Todo `json:"todos"`
}

// Todo is one item of a TodoWrite list.
type Todo struct {
	// Content is what to do.
	Content string `json:"content"`
	// Status is "pending", "in_progress" or "completed".
	Status string `json:"status"`
	// ActiveForm is the text shown while the item is in progress.
	ActiveForm string `json:"activeForm"`
}

// ExitPlanModeInput is the input of the ExitPlanMode tool. Claude Code
// injects Plan and PlanFilePath before hooks see it; the object is open.
type ExitPlanModeInput struct {
	// Plan is the plan, in Markdown.
	Plan string `json:"plan"`
	// PlanFilePath is the file the plan is saved in.
	PlanFilePath string `json:"planFilePath"`
	// AllowedPrompts is deprecated and ignored; kept raw.
	AllowedPrompts jsontext.Value `json:"allowedPrompts,omitzero"`
}

// AskUserQuestionInput is the input of the AskUserQuestion tool. A
// PreToolUse hook answers the questions itself by allowing the call with
// an updated input that adds Answers (see [Edit]).
type AskUserQuestionInput struct {
	// Questions are the 1 to 4 questions (required).
	Questions []Question `json:"questions"`
	// Answers maps a question's text to the chosen label (several labels
	// comma-joined). The model never sets it; hooks do.
	Answers map[string]string `json:"answers"`
	// Annotations maps a question's text to the user's notes; kept raw.
	Annotations jsontext.Value `json:"annotations,omitzero"`
	// Metadata is tracking metadata ({source?}); kept raw.
	Metadata jsontext.Value `json:"metadata,omitzero"`
}

// Question is one question of an AskUserQuestion call.
type Question struct {
	// Question is the full question text.
	Question string `json:"question"`
	// Header is a very short label (max 12 characters).
	Header string `json:"header"`
	// Options are the 2 to 4 choices.
	Options []QuestionOption `json:"options"`
	// MultiSelect allows choosing several options.
	MultiSelect bool `json:"multiSelect"`
}

// QuestionOption is one choice of a [Question].
type QuestionOption struct {
	// Label is the choice's text.
	Label string `json:"label"`
	// Description explains the choice.
	Description string `json:"description"`
	// Preview is optional preview content.
	Preview string `json:"preview,omitempty"`
}

// SkillInput is the input of the Skill tool.
type SkillInput struct {
	// Skill is the skill's name (required).
	Skill string `json:"skill"`
	// Args are the skill's arguments.
	Args string `json:"args"`
}

// TaskCreateInput is the input of the TaskCreate tool.
type TaskCreateInput struct {
	// Subject is the task's title (required).
	Subject string `json:"subject"`
	// Description is the task's description (required).
	Description string `json:"description"`
	// ActiveForm is the text shown while the task is in progress.
	ActiveForm string `json:"activeForm"`
	// Metadata is arbitrary metadata; kept raw.
	Metadata jsontext.Value `json:"metadata,omitzero"`
}

// TaskUpdateInput is the input of the TaskUpdate tool.
type TaskUpdateInput struct {
	// TaskID is the task to update (required).
	TaskID string `json:"taskId"`
	// Subject is the new title.
	Subject string `json:"subject"`
	// Description is the new description.
	Description string `json:"description"`
	// ActiveForm is the new in-progress text.
	ActiveForm string `json:"activeForm"`
	// Status is "pending", "in_progress", "completed" or "deleted".
	Status string `json:"status"`
	// AddBlocks lists tasks this task blocks.
	AddBlocks []string `json:"addBlocks"`
	// AddBlockedBy lists tasks that block this task.
	AddBlockedBy []string `json:"addBlockedBy"`
	// Owner is the task's new owner.
	Owner string `json:"owner"`
	// Metadata is arbitrary metadata; kept raw.
	Metadata jsontext.Value `json:"metadata,omitzero"`
}

// TaskGetInput is the input of the TaskGet tool.
type TaskGetInput struct {
	// TaskID is the task to read (required).
	TaskID string `json:"taskId"`
}

// TaskStopInput is the input of the TaskStop tool (legacy names KillShell,
// KillBash).
type TaskStopInput struct {
	// TaskID is the background task to stop.
	TaskID string `json:"task_id"`
	// ShellID is the deprecated name of TaskID.
	ShellID string `json:"shell_id"`
}

// CronCreateInput is the input of the CronCreate tool.
type CronCreateInput struct {
	// Cron is a 5-field cron schedule (required).
	Cron string `json:"cron"`
	// Prompt is the prompt to run on schedule (required).
	Prompt string `json:"prompt"`
	// Recurring repeats the job; false runs it once.
	Recurring bool `json:"recurring"`
	// Durable keeps the job across sessions.
	Durable bool `json:"durable"`
}

// CronDeleteInput is the input of the CronDelete tool.
type CronDeleteInput struct {
	// ID is the job to delete (required).
	ID string `json:"id"`
}

// EnterWorktreeInput is the input of the EnterWorktree tool.
type EnterWorktreeInput struct {
	// Name is the worktree's name.
	Name string `json:"name"`
	// Path is an existing worktree to enter.
	Path string `json:"path"`
}

// ExitWorktreeInput is the input of the ExitWorktree tool.
type ExitWorktreeInput struct {
	// Action is "keep" or "remove" (required).
	Action string `json:"action"`
	// DiscardChanges removes the worktree even with uncommitted changes.
	DiscardChanges bool `json:"discard_changes"`
}

// ListMcpResourcesInput is the input of the ListMcpResourcesTool tool.
type ListMcpResourcesInput struct {
	// Server limits the listing to one MCP server.
	Server string `json:"server"`
}

// ReadMcpResourceInput is the input of the ReadMcpResourceTool tool.
type ReadMcpResourceInput struct {
	// Server is the MCP server (required).
	Server string `json:"server"`
	// URI is the resource to read (required).
	URI string `json:"uri"`
}

// MonitorInput is the input of the Monitor tool.
type MonitorInput struct {
	// Description says what is monitored (required).
	Description string `json:"description"`
	// TimeoutMS is how long to monitor, in milliseconds (required).
	TimeoutMS int64 `json:"timeout_ms"`
	// Command is the command whose output is monitored.
	Command string `json:"command"`
	// WS is a WebSocket source; kept raw.
	WS jsontext.Value `json:"ws,omitzero"`
}

// ScheduleWakeupInput is the input of the ScheduleWakeup tool.
type ScheduleWakeupInput struct {
	// DelaySeconds is when to wake up.
	DelaySeconds int64 `json:"delaySeconds"`
	// Reason says why.
	Reason string `json:"reason"`
	// Prompt is the prompt to run at wake-up.
	Prompt string `json:"prompt"`
	// Stop cancels the scheduled wake-ups.
	Stop bool `json:"stop"`
	// Noop schedules nothing.
	Noop bool `json:"noop"`
}

// PushNotificationInput is the input of the PushNotification tool.
type PushNotificationInput struct {
	// Message is the notification's text (required).
	Message string `json:"message"`
	// Status is "proactive" or empty.
	Status string `json:"status"`
}
