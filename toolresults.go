package hook

import "github.com/go-json-experiment/json/jsontext"

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

// BashResponse is the result of the Bash tool (and of PowerShell).
type BashResponse struct {
	// Stdout is the command's standard output, its trailing newline
	// trimmed.
	Stdout string `json:"stdout"`
	// Stderr is the command's standard error.
	Stderr string `json:"stderr"`
	// Interrupted is true when the command was interrupted.
	Interrupted bool `json:"interrupted"`
	// IsImage is true when stdout holds image data.
	IsImage bool `json:"isImage"`
	// NoOutputExpected is true when the command normally prints nothing.
	NoOutputExpected bool `json:"noOutputExpected"`
	// ReturnCodeInterpretation explains a non-zero exit code.
	ReturnCodeInterpretation string `json:"returnCodeInterpretation"`
	// BackgroundTaskID is the task id of a command run in the background.
	BackgroundTaskID string `json:"backgroundTaskId"`
	// BackgroundedByUser is true when the user sent the command to the
	// background.
	BackgroundedByUser bool `json:"backgroundedByUser"`
	// TimedOutAfterMS is the timeout that stopped the command, in ms.
	TimedOutAfterMS float64 `json:"timedOutAfterMs"`
	// DangerouslyDisableSandbox is true when the command ran outside the
	// sandbox.
	DangerouslyDisableSandbox bool `json:"dangerouslyDisableSandbox"`
	// RawOutputPath is the file holding the raw output.
	RawOutputPath string `json:"rawOutputPath"`
	// PersistedOutputPath is the file a large output was saved to.
	PersistedOutputPath string `json:"persistedOutputPath"`
	// PersistedOutputSize is the size of that file in bytes.
	PersistedOutputSize int64 `json:"persistedOutputSize"`
	// GitOperation summarises a git commit, push, branch or PR; kept raw.
	GitOperation jsontext.Value `json:"gitOperation,omitzero"`
}

// PatchHunk is one hunk of a structured patch.
type PatchHunk struct {
	// OldStart is the hunk's first line in the old file.
	OldStart int64 `json:"oldStart"`
	// OldLines is the hunk's number of lines in the old file.
	OldLines int64 `json:"oldLines"`
	// NewStart is the hunk's first line in the new file.
	NewStart int64 `json:"newStart"`
	// NewLines is the hunk's number of lines in the new file.
	NewLines int64 `json:"newLines"`
	// Lines are the hunk's lines, each prefixed with " ", "-" or "+".
	Lines []string `json:"lines"`
}

// WriteResponse is the result of the Write tool.
type WriteResponse struct {
	// Type is "create" or "update".
	Type string `json:"type"`
	// FilePath is the path as the model wrote it (it may be relative,
	// while tool_input.file_path is absolute).
	FilePath string `json:"filePath"`
	// Content is the content written.
	Content string `json:"content"`
	// StructuredPatch is the change as patch hunks.
	StructuredPatch []PatchHunk `json:"structuredPatch"`
	// OriginalFile is the previous content; "" when the file was created
	// (null on the wire).
	OriginalFile string `json:"originalFile"`
	// UserModified is true when the user changed the content in the
	// permission dialog.
	UserModified bool `json:"userModified"`
	// Staged is true when the change was staged in git.
	Staged bool `json:"staged"`
	// GitDiff is the git diff of the change; kept raw.
	GitDiff jsontext.Value `json:"gitDiff,omitzero"`
}

// EditResponse is the result of the Edit tool.
type EditResponse struct {
	// FilePath is the path as the model wrote it.
	FilePath string `json:"filePath"`
	// OldString is the text replaced.
	OldString string `json:"oldString"`
	// NewString is the replacement.
	NewString string `json:"newString"`
	// OriginalFile is the content before the edit.
	OriginalFile string `json:"originalFile"`
	// StructuredPatch is the change as patch hunks.
	StructuredPatch []PatchHunk `json:"structuredPatch"`
	// UserModified is true when the user changed the edit in the
	// permission dialog.
	UserModified bool `json:"userModified"`
	// ReplaceAll is true when every occurrence was replaced.
	ReplaceAll bool `json:"replaceAll"`
	// ContentNotInModelContext is true when the file's content was not in
	// Claude's context (sent by 2.1.332, not declared by the SDK).
	ContentNotInModelContext bool `json:"contentNotInModelContext"`
	// Staged is true when the change was staged in git.
	Staged bool `json:"staged"`
	// GitDiff is the git diff of the change; kept raw.
	GitDiff jsontext.Value `json:"gitDiff,omitzero"`
}

// ReadResponse is the result of the Read tool.
type ReadResponse struct {
	// Type is "text", "image", "notebook", "pdf" or "parts"; it says
	// which fields of File are set.
	Type string `json:"type"`
	// File is what was read.
	File ReadFile `json:"file"`
}

// ReadFile is the file part of a [ReadResponse]. Its fields are left out
// of the JSON when zero, as the variants of the type each use a few.
type ReadFile struct {
	// FilePath is the path read (text, notebook, pdf, parts).
	FilePath string `json:"filePath,omitzero"`
	// Content is the text read (text).
	Content string `json:"content,omitzero"`
	// NumLines is the number of lines returned (text).
	NumLines int64 `json:"numLines,omitzero"`
	// StartLine is the first line returned (text).
	StartLine int64 `json:"startLine,omitzero"`
	// TotalLines is the number of lines in the file (text).
	TotalLines int64 `json:"totalLines,omitzero"`
	// TruncatedByTokenCap is true when a whole-file read was cut to its
	// first page (text).
	TruncatedByTokenCap bool `json:"truncatedByTokenCap,omitzero"`
	// Base64 is the image or PDF data (image, pdf).
	Base64 string `json:"base64,omitzero"`
	// MediaType is the image's MIME type, e.g. "image/png" (image; "type"
	// on the wire).
	MediaType string `json:"type,omitzero"`
	// OriginalSize is the file size in bytes (image, pdf, parts).
	OriginalSize int64 `json:"originalSize,omitzero"`
	// Dimensions holds image sizes; kept raw (image).
	Dimensions jsontext.Value `json:"dimensions,omitzero"`
	// Cells are the notebook's cells; kept raw (notebook).
	Cells jsontext.Value `json:"cells,omitzero"`
	// Count is the number of pages extracted (parts).
	Count int64 `json:"count,omitzero"`
	// OutputDir is the directory of the extracted pages (parts).
	OutputDir string `json:"outputDir,omitzero"`
}

// GlobResponse is the result of the Glob tool.
type GlobResponse struct {
	// Filenames are the matches, relative to the working directory.
	Filenames []string `json:"filenames"`
	// DurationMS is how long the search took, in milliseconds.
	DurationMS float64 `json:"durationMs"`
	// NumFiles is the number of files returned.
	NumFiles int64 `json:"numFiles"`
	// Truncated is true when there were more matches than returned.
	Truncated bool `json:"truncated"`
	// TotalMatches is the number of matches in all.
	TotalMatches int64 `json:"totalMatches"`
	// CountIsComplete is true when TotalMatches is exact.
	CountIsComplete bool `json:"countIsComplete"`
	// TimedOut is true when the search timed out.
	TimedOut bool `json:"timedOut"`
}

// GrepResponse is the result of the Grep tool.
type GrepResponse struct {
	// Mode is "content", "files_with_matches" or "count".
	Mode string `json:"mode"`
	// NumFiles is the number of files with matches.
	NumFiles int64 `json:"numFiles"`
	// Filenames are the files with matches.
	Filenames []string `json:"filenames"`
	// Content is the matching lines (content mode).
	Content string `json:"content"`
	// NumLines is the number of lines in Content.
	NumLines int64 `json:"numLines"`
	// NumMatches is the number of matches (count mode).
	NumMatches int64 `json:"numMatches"`
	// TotalFiles is the number of files searched.
	TotalFiles int64 `json:"totalFiles"`
	// TotalLines is the number of matching lines before any limit.
	TotalLines int64 `json:"totalLines"`
	// AppliedLimit is the head limit applied.
	AppliedLimit int64 `json:"appliedLimit"`
	// AppliedOffset is the offset applied.
	AppliedOffset int64 `json:"appliedOffset"`
	// TimedOut is true when the search timed out.
	TimedOut bool `json:"timedOut"`
}

// WebFetchResponse is the result of the WebFetch tool.
type WebFetchResponse struct {
	// Bytes is the size of the fetched page.
	Bytes int64 `json:"bytes"`
	// Code is the HTTP status code.
	Code int64 `json:"code"`
	// CodeText is the HTTP status text.
	CodeText string `json:"codeText"`
	// Result is what the prompt extracted from the page.
	Result string `json:"result"`
	// DurationMS is how long the fetch took, in milliseconds.
	DurationMS float64 `json:"durationMs"`
	// URL is the URL fetched.
	URL string `json:"url"`
}

// WebSearchResponse is the result of the WebSearch tool.
type WebSearchResponse struct {
	// Query is the query run.
	Query string `json:"query"`
	// Results are the search results (objects or strings); kept raw.
	Results jsontext.Value `json:"results,omitzero"`
	// DurationSeconds is how long the search took.
	DurationSeconds float64 `json:"durationSeconds"`
	// SearchCount is the number of searches made.
	SearchCount int64 `json:"searchCount"`
}

// ContentBlock is a content block of a model-facing result, such as an
// Agent's answer or an MCP tool's result: {"type":"text","text":…}.
// Blocks of other types leave Text empty.
type ContentBlock struct {
	// Type is the block's type, e.g. "text" or "image".
	Type string `json:"type"`
	// Text is the text of a text block.
	Text string `json:"text,omitzero"`
}

// AgentResponse is the result of the Agent tool. Status says which
// variant it is: "completed" (the subagent finished; Content holds its
// answer), "async_launched" (it runs in the background; see OutputFile) or
// "remote_launched" (it runs in a cloud session; see SessionURL).
type AgentResponse struct {
	// Status is "completed", "async_launched" or "remote_launched".
	Status string `json:"status"`
	// Prompt is the subagent's task.
	Prompt string `json:"prompt"`
	// AgentID is the subagent's id ("a" and 16 hex digits).
	AgentID string `json:"agentId"`
	// AgentType is the agent used, e.g. "Explore".
	AgentType string `json:"agentType"`
	// Description is the task's short description (launched variants).
	Description string `json:"description"`
	// ToolsUsed lists the tools the subagent used.
	ToolsUsed []string `json:"toolsUsed"`
	// Content is the subagent's answer (completed).
	Content []ContentBlock `json:"content"`
	// ResolvedModel is the model that ran the subagent.
	ResolvedModel string `json:"resolvedModel"`
	// ModelsUsed lists the models used, in order.
	ModelsUsed []string `json:"modelsUsed"`
	// TotalDurationMS is the run time in milliseconds.
	TotalDurationMS float64 `json:"totalDurationMs"`
	// TotalTokens is the number of tokens used.
	TotalTokens int64 `json:"totalTokens"`
	// TotalToolUseCount is the number of tool calls made.
	TotalToolUseCount int64 `json:"totalToolUseCount"`
	// Usage is the API usage; kept raw.
	Usage jsontext.Value `json:"usage,omitzero"`
	// ToolStats counts the subagent's tool calls by kind; kept raw.
	ToolStats jsontext.Value `json:"toolStats,omitzero"`
	// OutputFile is the file to read a background agent's progress from.
	OutputFile string `json:"outputFile"`
	// TaskID is the remote task's id (remote_launched).
	TaskID string `json:"taskId"`
	// SessionURL is the cloud session's URL (remote_launched).
	SessionURL string `json:"sessionUrl"`
	// WorktreePath is the worktree the subagent ran in.
	WorktreePath string `json:"worktreePath"`
	// WorktreeBranch is that worktree's branch.
	WorktreeBranch string `json:"worktreeBranch"`
	// CanContinueAgent is true when the subagent can be continued (sent
	// by 2.1.332, not declared by the SDK).
	CanContinueAgent bool `json:"canContinueAgent"`
}

// NotebookEditResponse is the result of the NotebookEdit tool.
type NotebookEditResponse struct {
	// NewSource is the cell's new source.
	NewSource string `json:"new_source"`
	// OldSource is the cell's previous source.
	OldSource string `json:"old_source"`
	// CellID is the cell edited.
	CellID string `json:"cell_id"`
	// CellType is "code" or "markdown".
	CellType string `json:"cell_type"`
	// Language is the notebook's language.
	Language string `json:"language"`
	// EditMode is "replace", "insert" or "delete".
	EditMode string `json:"edit_mode"`
	// Error is set when the edit failed.
	Error string `json:"error"`
	// NotebookPath is the notebook's path.
	NotebookPath string `json:"notebook_path"`
	// OriginalFile is the notebook before the edit.
	OriginalFile string `json:"original_file"`
	// UpdatedFile is the notebook after the edit.
	UpdatedFile string `json:"updated_file"`
}

// TodoWriteResponse is the result of the TodoWrite tool.
type TodoWriteResponse struct {
	// OldTodos is the list before the call.
	OldTodos []Todo `json:"oldTodos"`
	// NewTodos is the list after the call.
	NewTodos []Todo `json:"newTodos"`
}

// ExitPlanModeResponse is the result of the ExitPlanMode tool.
type ExitPlanModeResponse struct {
	// Plan is the approved plan ("" when null).
	Plan string `json:"plan"`
	// IsAgent is true when a subagent left plan mode.
	IsAgent bool `json:"isAgent"`
	// FilePath is the plan's file.
	FilePath string `json:"filePath"`
	// PlanWasEdited is true when the user edited the plan.
	PlanWasEdited bool `json:"planWasEdited"`
}
