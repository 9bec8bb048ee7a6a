package hook

import (
	"errors"
	"fmt"
)

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
