package hook

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// EventPermissionRequest fires when a permission prompt is about to be
// shown.
const EventPermissionRequest = "PermissionRequest"

// PermissionRequest fires when Claude Code is about to show a permission
// prompt for a tool call, or, in a session that cannot prompt, would
// refuse it. The answer's decision grants or refuses the permission as the
// user would (see [PermissionRequestOutput]). Exit code 2 ([Block]) and
// stderr are ignored for this event: only the decision counts. Unlike
// [PreToolUse] it carries no tool_use_id.
type PermissionRequest struct {
	Event
	// ToolName is the tool's current name, or "mcp__<server>__<tool>".
	ToolName string `json:"tool_name"`
	// ToolInput is the call's arguments, exactly as Claude Code sent them;
	// see [PreToolUse.ToolInput].
	ToolInput jsontext.Value `json:"tool_input"`
	// PermissionSuggestions are the "always allow" choices the dialog
	// would offer. Echo one in UpdatedPermissions to choose it. The raw
	// value is reachable with Field("permission_suggestions").
	PermissionSuggestions []PermissionUpdate `json:"permission_suggestions,omitempty"`
	// MCPServer says which MCP server serves the tool; nil for built-in
	// tools.
	MCPServer *MCPServer `json:"mcp_server,omitempty"`
	// ToolKind is "mcp_skill" when the request is for a skill served by an
	// MCP server (rare); empty otherwise.
	ToolKind string `json:"tool_kind,omitempty"`
	// MCPSkill describes that skill; nil otherwise.
	MCPSkill *MCPSkill `json:"mcp_skill,omitempty"`
}

// Merge returns the call's input with the members of patch set and every
// other member kept byte for byte; see [Merge].
func (e *PermissionRequest) Merge(patch any) (jsontext.Value, error) {
	return mergeWith(e.inv.vouched(), e.ToolInput, patch)
}

// Update returns the call's input with only the members changed in the
// typed view edited replaced; see [Update].
func (e *PermissionRequest) Update(edited any) (jsontext.Value, error) {
	return updateCall("PermissionRequest.Update", e.ToolName, e.ToolInput, edited)
}

// MCPSkill describes a skill served by an MCP server.
type MCPSkill struct {
	// Name is the skill's name.
	Name string `json:"name"`
	// Version is the skill's version.
	Version string `json:"version"`
	// URI is the skill's resource URI.
	URI string `json:"uri,omitempty"`
	// ServerDescription describes the serving MCP server.
	ServerDescription string `json:"server_description,omitempty"`
}

// PermissionRequestOutput is the answer to a [PermissionRequest] event.
// Decision is mandatory in every answer that sets an event-specific field;
// an answer without a Decision (or a nil *PermissionRequestOutput) lets
// the dialog be shown as usual. Claude Code still applies deny and ask
// rules after an [Allow] (a deny rule wins, an ask rule prompts again).
//
// For tools that need the user (AskUserQuestion, ExitPlanMode) an Allow
// without UpdatedInput is ignored and the dialog is shown. Only the
// decision is known to have an effect on this event; the common fields
// are written but Claude Code's permission code does not read them.
type PermissionRequestOutput struct {
	Common

	// Decision is [Allow] (grant the permission as if the user clicked
	// allow) or [Deny] (refuse it). Ask and Defer are not decisions of
	// this event.
	Decision PermissionDecision
	// UpdatedInput (Allow only) replaces the call's whole input, like
	// [PreToolUseOutput.UpdatedInput]; it is validated the same way.
	UpdatedInput jsontext.Value
	// Removed lists the tool_input members that UpdatedInput drops on
	// purpose (see [Remove]).
	Removed []string
	// UpdatedPermissions (Allow only) are permission updates to apply and
	// save according to each one's destination.
	UpdatedPermissions []PermissionUpdate
	// Message (Deny only) goes to Claude as the refusal. A Deny whose
	// Message is blank (empty or only white space) is written with the
	// default reason "blocked by hook", as [Block] is.
	Message string
	// Interrupt (Deny only) also stops Claude's turn.
	Interrupt bool
}

func (o *PermissionRequestOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	a := answer{common: &o.Common}
	var upd jsontext.Value // what the answer carries for UpdatedInput
	switch o.Decision {
	case "":
		if o.UpdatedInput != nil || len(o.Removed) > 0 || len(o.UpdatedPermissions) > 0 || o.Message != "" || o.Interrupt {
			return dst, errors.New("a PermissionRequest answer needs a Decision (Allow or Deny); Claude Code rejects a decision object without behavior")
		}
		return appendWire(dst, a)
	case Allow:
		if o.Message != "" || o.Interrupt {
			//lint:ignore ST1005 the message starts with a field's or Claude Code's name
			return dst, errors.New("Message and Interrupt belong to a Deny; an Allow cannot carry them")
		}
		var err error
		if upd, err = checkUpdate(ev, o.UpdatedInput, o.Removed); err != nil {
			return dst, err
		}
		for i := range o.UpdatedPermissions {
			if err := o.UpdatedPermissions[i].check(); err != nil {
				return dst, fmt.Errorf("UpdatedPermissions[%d]: %w", i, err)
			}
		}
	case Deny:
		if o.UpdatedInput != nil || len(o.Removed) > 0 || len(o.UpdatedPermissions) > 0 {
			return dst, errors.New("UpdatedInput and UpdatedPermissions belong to an Allow; a Deny cannot carry them")
		}
	default:
		return dst, fmt.Errorf("permission request decision %q is not allow or deny", o.Decision)
	}
	message := o.Message
	if o.Decision == Deny {
		message = reasonOrDefault(message)
	}
	a.specific = &permissionRequestSpecific{
		HookEventName: EventPermissionRequest,
		Decision: permissionRequestDecision{
			Behavior:           o.Decision,
			UpdatedInput:       upd,
			UpdatedPermissions: o.UpdatedPermissions,
			Message:            message,
			Interrupt:          o.Interrupt,
		},
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines PermissionRequest answers: the
// first deny is the answer and stops the chain; otherwise the last
// decision and rewrite, Removed the union, the permission updates
// concatenated.
func (a *PermissionRequestOutput) join(n *PermissionRequestOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	if n.Decision == Deny {
		c := a.Common
		*a = *n
		a.Common = c
		return true, nil
	}
	if n.Decision != "" {
		a.Decision = n.Decision
	}
	if n.UpdatedInput != nil {
		a.UpdatedInput = n.UpdatedInput
	}
	a.Removed = union(a.Removed, n.Removed)
	a.UpdatedPermissions = append(append([]PermissionUpdate(nil), a.UpdatedPermissions...), n.UpdatedPermissions...)
	return false, nil
}

// rewrite returns the input member the answer rewrites, tool_input, and
// its new value (nil: none).
func (o *PermissionRequestOutput) rewrite() (string, jsontext.Value) {
	return "tool_input", o.UpdatedInput
}

// removedMembers returns the members the rewrite drops on purpose.
func (o *PermissionRequestOutput) removedMembers() []string { return o.Removed }

// permissionRequestSpecific is the hookSpecificOutput of a
// PermissionRequest answer.
type permissionRequestSpecific struct {
	HookEventName string                    `json:"hookEventName"`
	Decision      permissionRequestDecision `json:"decision"`
}

// permissionRequestDecision is its decision object.
type permissionRequestDecision struct {
	Behavior           PermissionDecision `json:"behavior"`
	UpdatedInput       jsontext.Value     `json:"updatedInput,omitzero"`
	UpdatedPermissions []PermissionUpdate `json:"updatedPermissions,omitempty"`
	Message            string             `json:"message,omitempty"`
	Interrupt          bool               `json:"interrupt,omitzero"`
}
