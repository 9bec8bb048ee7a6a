package hook

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/inputedit"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// EventPostToolUse fires after a tool call succeeded.
const EventPostToolUse = "PostToolUse"

// PostToolUse fires after a tool call succeeded. The call already ran: the
// answer can give Claude feedback next to the result, add context, or
// replace the result Claude sees (see [PostToolUseOutput]). Exit code 2
// ([Block]) shows the reason to Claude next to the result.
type PostToolUse struct {
	Event
	// ToolName is the tool's current name, or "mcp__<server>__<tool>".
	ToolName string `json:"tool_name"`
	// ToolInput is the arguments that were executed, kept raw.
	ToolInput jsontext.Value `json:"tool_input"`
	// ToolResponse is the tool's result, kept raw: the tool's structured
	// output for built-in tools (decode it with [DecodeView] into
	// [BashResponse], [EditResponse], …), and for MCP tools a string, an
	// array of content blocks or an object. Paths inside it are as the
	// model wrote them (possibly relative).
	ToolResponse jsontext.Value `json:"tool_response"`
	// ToolUseID is the call's id ("toolu_…").
	ToolUseID string `json:"tool_use_id"`
	// DurationMS is how long the tool ran, in milliseconds, without
	// permission prompts and hooks; zero when absent.
	DurationMS float64 `json:"duration_ms,omitempty"`
	// MCPServer says which MCP server serves the tool; nil for built-in
	// tools.
	MCPServer *MCPServer `json:"mcp_server,omitempty"`
}

// PostToolUseOutput is the answer to a [PostToolUse] event. All the common
// fields are honoured.
type PostToolUseOutput struct {
	Common

	// Block writes "decision": "block": Reason is shown to Claude next to
	// the tool result, which is kept (or replaced by UpdatedToolOutput).
	Block bool
	// Reason is the feedback for Claude; it needs Block.
	Reason string
	// AdditionalContext is added next to the tool result for Claude.
	AdditionalContext string
	// ClassifierContext is a note for auto mode's permission classifier
	// about this call's result (only genuine user statements belong in
	// it). Claude Code caps it at 2000 UTF-16 code units shared by all
	// hooks of the call, and ignores it from async hooks.
	ClassifierContext string
	// UpdatedToolOutput replaces the result Claude sees; the tool already
	// ran. For a built-in tool it must match the tool's output type
	// (Claude Code ignores it otherwise), so the library refuses a value
	// of another JSON kind than the incoming tool_response and, for the
	// tools it knows, one that lacks a required member. Build it from the
	// incoming ToolResponse with [EditText] (every text of the result,
	// whatever its shape), [Edit] (with the typed view of the result's
	// kind: [BashResponse], []ContentBlock, string, …) or [Merge]. MCP
	// results are not checked. null is refused. A value byte for byte
	// equal to the incoming tool_response (what Edit and EditText return
	// when nothing changed) is left out of the answer.
	UpdatedToolOutput jsontext.Value
	// UpdatedMCPToolOutput is the legacy, MCP-only form of
	// UpdatedToolOutput, and the only one Codex reads. Claude Code ignores
	// it for built-in tools, when UpdatedToolOutput is set, and when it is
	// null, "", 0 or false; the library refuses those cases. Like
	// UpdatedToolOutput, a value equal to the incoming tool_response is
	// left out.
	UpdatedMCPToolOutput jsontext.Value
}

func (o *PostToolUseOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	decision, reason, err := blockFields(o.Block, o.Reason)
	if err != nil {
		return dst, err
	}
	tool := ""
	if v, ok := ev.Field("tool_name"); ok {
		_ = wire.Unmarshal(v, &tool)
	}
	// The answer carries copies of the handler's raw values: what is
	// checked is what is written.
	updOut, updMCP := inputedit.OwnCopy(o.UpdatedToolOutput), inputedit.OwnCopy(o.UpdatedMCPToolOutput)
	// A rewrite that changes nothing is not written (see unchanged).
	if updOut != nil && unchanged(ev, "tool_response", updOut) {
		updOut = nil
	}
	if updMCP != nil && unchanged(ev, "tool_response", updMCP) {
		updMCP = nil
	}
	if ev.Agent() == AgentCodex {
		// Codex's rule, not Claude Code's: it has no updatedToolOutput,
		// and replaces an MCP tool's result only.
		if err := agent.CheckCodexToolOutput(tool, updOut != nil, updMCP != nil); err != nil {
			return dst, fmt.Errorf("for Codex %s: %w", agent.CodexVersion, err)
		}
	}
	if ev.Agent() == AgentCopilot && (updOut != nil || updMCP != nil) {
		// Copilot's rule, before Claude Code's: it ignores any rewrite.
		return dst, fmt.Errorf("for GitHub Copilot CLI %s: it ignores a rewrite of the tool's result (updatedToolOutput, updatedMCPToolOutput): the model sees the original; block with Block and a Reason instead", agent.CopilotVersion)
	}
	if updOut != nil {
		orig, _ := ev.Field("tool_response")
		if err := checkUpdatedToolOutput(tool, orig, updOut); err != nil {
			return dst, err
		}
	}
	if updMCP != nil {
		if err := checkUpdatedMCPToolOutput(tool, updMCP, updOut != nil); err != nil {
			return dst, err
		}
	}
	a := answer{common: &o.Common, decision: decision, reason: reason}
	if o.AdditionalContext != "" || o.ClassifierContext != "" || updOut != nil || updMCP != nil {
		a.specific = &postToolUseSpecific{
			HookEventName:        EventPostToolUse,
			AdditionalContext:    o.AdditionalContext,
			ClassifierContext:    o.ClassifierContext,
			UpdatedToolOutput:    updOut,
			UpdatedMCPToolOutput: updMCP,
		}
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines PostToolUse answers: every
// handler runs, a block from any blocks, texts joined, the last output
// given in either form.
func (a *PostToolUseOutput) join(n *PostToolUseOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinFeedback(&a.Block, &a.Reason, &a.AdditionalContext, n.Block, n.Reason, n.AdditionalContext)
	a.ClassifierContext = joinText(a.ClassifierContext, n.ClassifierContext)
	// Each handler saw the last output as its tool_response, so the last
	// one given, in either form, holds the others.
	if n.UpdatedToolOutput != nil || n.UpdatedMCPToolOutput != nil {
		a.UpdatedToolOutput, a.UpdatedMCPToolOutput = n.UpdatedToolOutput, n.UpdatedMCPToolOutput
	}
	return false, nil
}

// rewrite returns the input member the answer rewrites, tool_response,
// and its new value in either form (nil: none).
func (o *PostToolUseOutput) rewrite() (string, jsontext.Value) {
	if o.UpdatedToolOutput != nil {
		return "tool_response", o.UpdatedToolOutput
	}
	return "tool_response", o.UpdatedMCPToolOutput
}

// responseRequired lists, for the built-in tools whose output type the
// library knows, the members that type requires (sdk-tools.d.ts).
var responseRequired = map[string][]string{
	ToolBash:       {"stdout", "stderr", "interrupted"},
	ToolPowerShell: {"stdout", "stderr", "interrupted"},
	ToolWrite:      {"type", "filePath", "content", "structuredPatch", "originalFile"},
	ToolEdit:       {"filePath", "oldString", "newString", "originalFile", "structuredPatch", "userModified", "replaceAll"},
	ToolRead:       {"type", "file"},
	ToolGlob:       {"durationMs", "numFiles", "filenames", "truncated"},
	ToolGrep:       {"numFiles", "filenames"},
	ToolWebFetch:   {"bytes", "code", "codeText", "result", "durationMs", "url"},
	ToolTodoWrite:  {"oldTodos", "newTodos"},
}

// checkUpdatedToolOutput refuses an updatedToolOutput that Claude Code
// would ignore.
func checkUpdatedToolOutput(tool string, orig, upd jsontext.Value) error {
	if !wire.Valid(upd) {
		return errors.New("UpdatedToolOutput is not one valid JSON value")
	}
	if upd.Kind() == 'n' {
		return errors.New("UpdatedToolOutput is null; omit it to keep the tool's result")
	}
	if isMCPTool(tool) {
		return nil
	}
	if orig != nil && orig.Kind() != upd.Kind() {
		return fmt.Errorf("UpdatedToolOutput is a JSON %s but %s's result is a JSON %s; Claude Code ignores an output that does not match the tool's output type", rawjson.KindName(upd), tool, rawjson.KindName(orig))
	}
	req, ok := responseRequired[tool]
	if !ok {
		return nil
	}
	ms, err := rawjson.Members(upd)
	if err != nil {
		return fmt.Errorf("UpdatedToolOutput for %s must be a JSON object: %w", tool, err)
	}
	var missing []string
	for _, k := range req {
		if _, ok := rawjson.Find(ms, k); !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("UpdatedToolOutput lacks %s, required in %s's output; Claude Code would ignore it (build it from ToolResponse with hook.Edit or hook.Merge)", strings.Join(missing, ", "), tool)
	}
	return nil
}

// checkUpdatedMCPToolOutput refuses an updatedMCPToolOutput that Claude
// Code would ignore.
func checkUpdatedMCPToolOutput(tool string, upd jsontext.Value, withToolOutput bool) error {
	switch {
	case !wire.Valid(upd):
		return errors.New("UpdatedMCPToolOutput is not one valid JSON value")
	case !isMCPTool(tool):
		return fmt.Errorf("UpdatedMCPToolOutput only applies to MCP tools, not %s; use UpdatedToolOutput", tool)
	case withToolOutput:
		return errors.New("UpdatedMCPToolOutput is ignored when UpdatedToolOutput is set; set only one")
	case isFalsy(upd):
		return fmt.Errorf("UpdatedMCPToolOutput %s is falsy and Claude Code ignores it", upd)
	}
	return nil
}

// isFalsy reports whether the JSON value v is falsy in JavaScript: null,
// false, "", or a number equal to zero.
func isFalsy(v jsontext.Value) bool {
	switch v.Kind() {
	case 'n', 'f':
		return true
	case '"':
		return bytes.Equal(v, []byte(`""`))
	case '0':
		f, err := strconv.ParseFloat(string(v), 64)
		return err == nil && f == 0
	}
	return false
}

// postToolUseSpecific is the hookSpecificOutput of a PostToolUse answer.
type postToolUseSpecific struct {
	HookEventName        string         `json:"hookEventName"`
	AdditionalContext    string         `json:"additionalContext,omitempty"`
	ClassifierContext    string         `json:"classifierContext,omitempty"`
	UpdatedToolOutput    jsontext.Value `json:"updatedToolOutput,omitzero"`
	UpdatedMCPToolOutput jsontext.Value `json:"updatedMCPToolOutput,omitzero"`
}

// EventPostToolUseFailure fires after a tool call started and failed.
const EventPostToolUseFailure = "PostToolUseFailure"

// PostToolUseFailure fires after a tool call started and failed. It does
// not fire for calls refused before they ran (unknown tool, invalid input,
// permission denied). The answer can only add context for Claude (see
// [PostToolUseFailureOutput]); exit code 2 ([Block]) shows the reason to
// Claude.
type PostToolUseFailure struct {
	Event
	// ToolName is the tool's current name, or "mcp__<server>__<tool>".
	ToolName string `json:"tool_name"`
	// ToolInput is the call's arguments, kept raw.
	ToolInput jsontext.Value `json:"tool_input"`
	// ToolUseID is the call's id ("toolu_…").
	ToolUseID string `json:"tool_use_id"`
	// Error is usually the text Claude receives; for Bash and PowerShell
	// its first line is "Exit code N". Long errors are cut in the middle
	// (above 10,000 characters). Not a stable format.
	Error string `json:"error"`
	// IsInterrupt is true when the failure was an abort.
	IsInterrupt bool `json:"is_interrupt,omitempty"`
	// DurationMS is how long the tool ran, in milliseconds; zero when
	// absent.
	DurationMS float64 `json:"duration_ms,omitempty"`
	// MCPServer says which MCP server serves the tool; nil for built-in
	// tools.
	MCPServer *MCPServer `json:"mcp_server,omitempty"`
}

// PostToolUseFailureOutput is the answer to a [PostToolUseFailure] event.
// All the common fields are honoured.
type PostToolUseFailureOutput struct {
	Common

	// AdditionalContext is added next to the error for Claude.
	AdditionalContext string
}
