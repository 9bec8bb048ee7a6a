package hook

import (
	"errors"
)

// PromptSource says who authored a submitted prompt.
type PromptSource string

// The values of [UserPromptSubmit.Source].
const (
	// PromptSourceUser: the interactive composer.
	PromptSourceUser PromptSource = "user"
	// PromptSourceSDK: a non-interactive entry point (-p, the Agent SDK).
	PromptSourceSDK PromptSource = "sdk"
	// PromptSourceSystem: other machine-injected turns.
	PromptSourceSystem PromptSource = "system"
	// PromptSourceLoopWakeup: a dynamic /loop wake-up.
	PromptSourceLoopWakeup PromptSource = "loop_wakeup"
	// PromptSourceScheduleWakeup: a scheduled task firing.
	PromptSourceScheduleWakeup PromptSource = "schedule_wakeup"
	// PromptSourcePollEvent: the poll-event channel.
	PromptSourcePollEvent PromptSource = "poll_event"
)

func (o *UserPromptSubmitOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	if o.Text != "" {
		return appendText(dst, o.Text, otherThanText(o))
	}
	a, err := promptAnswer(&o.Common, o.Block, o.Reason, o.SuppressOriginalPrompt)
	if err != nil {
		return dst, err
	}
	if o.AdditionalContext != "" || o.SessionTitle != "" || o.SuppressOriginalPrompt {
		a.specific = &userPromptSubmitSpecific{
			HookEventName:          EventUserPromptSubmit,
			AdditionalContext:      o.AdditionalContext,
			SessionTitle:           o.SessionTitle,
			SuppressOriginalPrompt: o.SuppressOriginalPrompt,
		}
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines UserPromptSubmit answers: texts stay
// text while every answer is text, contexts joined; the first block wins
// and stops the chain.
func (a *UserPromptSubmitOutput) join(n *UserPromptSubmitOutput) (stop bool, err error) {
	if err := joinPlainText(&a.Text, &a.AdditionalContext, a, n, n.Text); err != nil {
		return false, err
	}
	a.Common.join(n.Common)
	a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
	if n.SessionTitle != "" {
		a.SessionTitle = n.SessionTitle
	}
	if n.Block {
		a.Block, a.Reason, a.SuppressOriginalPrompt = true, n.Reason, n.SuppressOriginalPrompt
	}
	return n.Block, nil
}

// ExpansionType says what a [UserPromptExpansion] expands.
type ExpansionType string

// The values of [UserPromptExpansion.ExpansionType].
const (
	ExpansionSlashCommand ExpansionType = "slash_command"
	ExpansionMCPPrompt    ExpansionType = "mcp_prompt"
)

func (o *UserPromptExpansionOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	if o.Text != "" {
		return appendText(dst, o.Text, otherThanText(o))
	}
	a, err := promptAnswer(&o.Common, o.Block, o.Reason, o.SuppressOriginalPrompt)
	if err != nil {
		return dst, err
	}
	if o.AdditionalContext != "" || o.SuppressOriginalPrompt {
		a.specific = &userPromptExpansionSpecific{
			HookEventName:          EventUserPromptExpansion,
			AdditionalContext:      o.AdditionalContext,
			SuppressOriginalPrompt: o.SuppressOriginalPrompt,
		}
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines UserPromptExpansion answers: texts stay
// text while every answer is text, contexts joined; the first block wins
// and stops the chain.
func (a *UserPromptExpansionOutput) join(n *UserPromptExpansionOutput) (stop bool, err error) {
	if err := joinPlainText(&a.Text, &a.AdditionalContext, a, n, n.Text); err != nil {
		return false, err
	}
	a.Common.join(n.Common)
	a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
	if n.Block {
		a.Block, a.Reason, a.SuppressOriginalPrompt = true, n.Reason, n.SuppressOriginalPrompt
	}
	return n.Block, nil
}

// promptAnswer starts the answer of the two prompt events
// (UserPromptSubmit, UserPromptExpansion): the common fields, the block
// fields, and the check that SuppressOriginalPrompt comes with a block.
func promptAnswer(c *Common, block bool, reason string, suppress bool) (answer, error) {
	decision, reason, err := blockFields(block, reason)
	if err != nil {
		return answer{}, err
	}
	if suppress && !block {
		return answer{}, errors.New("SuppressOriginalPrompt only changes the notice of a block; set Block")
	}
	return answer{common: c, decision: decision, reason: reason}, nil
}
