package hook

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// EventPreSkillShellCommand fires before a skill's inline shell command
// runs.
const EventPreSkillShellCommand = "PreSkillShellCommand"

// PreSkillShellCommand fires before a skill's (or a slash command's)
// inline shell command runs. The answer can keep the command from running
// (see [PreSkillShellCommandOutput]); exit code 2 ([Block]) does too, with
// stderr shown to Claude and the user.
type PreSkillShellCommand struct {
	Event
	// ToolName is the shell that would run the command: "Bash" or
	// "PowerShell".
	ToolName string `json:"tool_name"`
	// ToolInput is {"command": …}, the command with its arguments
	// substituted, kept raw; see [PreSkillShellCommand.Command].
	ToolInput jsontext.Value `json:"tool_input"`
	// ToolUseID identifies this command; it names no tool call in the
	// transcript.
	ToolUseID string `json:"tool_use_id"`
	// CommandName is the skill or command whose text holds the shell
	// command.
	CommandName string `json:"command_name"`
	// CommandSource says where that skill or command came from, e.g.
	// "project" or "plugin"; empty when absent.
	CommandSource string `json:"command_source,omitempty"`
	// InvokedBy says who started the skill load.
	InvokedBy InvokedBy `json:"invoked_by"`
}

// Command returns the shell command, read from ToolInput.
func (e *PreSkillShellCommand) Command() (string, error) {
	in, err := DecodeView[BashInput](e.ToolInput)
	if err != nil {
		return "", err
	}
	return in.Command, nil
}

// InvokedBy says who started a skill load.
type InvokedBy string

// The values of [PreSkillShellCommand.InvokedBy].
const (
	// InvokedByUser: the user typed it, or an SDK host sent it.
	InvokedByUser InvokedBy = "user"
	// InvokedByClaude: the Skill tool, or a turn Claude scheduled.
	InvokedByClaude InvokedBy = "claude"
	// InvokedByOther: anything else (a subagent's preload, a channel
	// message) or not known.
	InvokedByOther InvokedBy = "other"
)

// PreSkillShellCommandOutput is the answer to a [PreSkillShellCommand]
// event.
//
// Claude Code rewrites this event's answers before applying them: ask and
// defer become a block ("a skill can't wait for approval"), and any
// updatedInput becomes a block ("the hook changed the command"). The
// library therefore offers only Allow and Deny and no updated input, so
// that an answer never blocks by surprise.
type PreSkillShellCommandOutput struct {
	Common

	// Decision is [Deny] to keep the command from running, or [Allow],
	// which adds nothing: the command runs unless some hook refuses it.
	Decision PermissionDecision
	// Reason explains a Deny; shown to Claude and the user.
	Reason string
}

func (o *PreSkillShellCommandOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	switch o.Decision {
	case "", Allow, Deny:
	case Ask, Defer:
		return dst, fmt.Errorf("a skill's shell command cannot wait for approval: Claude Code turns %q into a block; use Deny to block", o.Decision)
	default:
		return dst, fmt.Errorf("permission decision %q is not allow or deny", o.Decision)
	}
	return appendDecision(dst, &o.Common, EventPreSkillShellCommand, o.Decision, o.Reason)
}

// join merges n into a as [Chain] combines PreSkillShellCommand answers:
// the decision by precedence; a deny stops the chain.
func (a *PreSkillShellCommandOutput) join(n *PreSkillShellCommandOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinDecision(&a.Decision, &a.Reason, n.Decision, n.Reason)
	return n.Decision == Deny, nil
}

// appendDecision writes the answer of an event whose hookSpecificOutput
// is a permission decision and its reason (PreSkillShellCommand,
// PreModelSwitch); the caller has checked the decision.
func appendDecision(dst []byte, c *Common, name string, d PermissionDecision, reason string) ([]byte, error) {
	a := answer{common: c}
	if d != "" || reason != "" {
		if d == "" {
			return dst, errors.New("a permission decision reason needs a decision")
		}
		if d == Deny {
			reason = reasonOrDefault(reason)
		}
		a.specific = &permissionDecisionSpecific{HookEventName: name, PermissionDecision: d, PermissionDecisionReason: reason}
	}
	return appendWire(dst, a)
}

// permissionDecisionSpecific is the hookSpecificOutput of a
// PreSkillShellCommand answer (and, with its own name, of PreModelSwitch).
type permissionDecisionSpecific struct {
	HookEventName            string             `json:"hookEventName"`
	PermissionDecision       PermissionDecision `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string             `json:"permissionDecisionReason,omitempty"`
}
