package hook

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"

	"github.com/go-json-experiment/json/jsontext"
)

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
	updOut, updMCP := ownCopy(o.UpdatedToolOutput), ownCopy(o.UpdatedMCPToolOutput)
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
