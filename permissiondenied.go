package hook

import "github.com/go-json-experiment/json/jsontext"

// EventPermissionDenied fires after auto mode denied a tool call.
const EventPermissionDenied = "PermissionDenied"

// PermissionDenied fires after auto mode's classifier refused a tool call
// (only in the auto permission mode). The denial stands; the answer can
// only tell Claude that it may retry (see [PermissionDeniedOutput]). Exit
// code 2 does not block anything.
type PermissionDenied struct {
	Event
	// ToolName is the tool's current name, or "mcp__<server>__<tool>".
	ToolName string `json:"tool_name"`
	// ToolInput is the refused call's arguments, kept raw.
	ToolInput jsontext.Value `json:"tool_input"`
	// ToolUseID is the call's id ("toolu_…").
	ToolUseID string `json:"tool_use_id"`
	// Reason is why the call was refused: usually "Blocked by
	// classifier", or the classifier's explanation, "Classifier
	// unavailable", or a text starting "Auto mode could not evaluate this
	// action".
	Reason string `json:"reason"`
	// MCPServer says which MCP server serves the tool; nil for built-in
	// tools.
	MCPServer *MCPServer `json:"mcp_server,omitempty"`
}

// PermissionDeniedOutput is the answer to a [PermissionDenied] event.
type PermissionDeniedOutput struct {
	Common

	// Retry tells Claude it may retry the call (the denial is not
	// reversed). Ignored for denials without a verdict.
	Retry bool
}

func (o *PermissionDeniedOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	a := answer{common: &o.Common}
	if o.Retry {
		a.specific = &permissionDeniedSpecific{HookEventName: EventPermissionDenied, Retry: true}
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines PermissionDenied answers: retry
// from any.
func (a *PermissionDeniedOutput) join(n *PermissionDeniedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	a.Retry = a.Retry || n.Retry
	return false, nil
}

// permissionDeniedSpecific is the hookSpecificOutput of a PermissionDenied
// answer.
type permissionDeniedSpecific struct {
	HookEventName string `json:"hookEventName"`
	Retry         bool   `json:"retry,omitzero"`
}
