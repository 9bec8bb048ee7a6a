package hook

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

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
