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

// EventUserPromptSubmit fires when the user (or the host) submits a prompt.
const EventUserPromptSubmit = "UserPromptSubmit"

// UserPromptSubmit fires when the user (or a host) submits a prompt,
// before Claude sees it. It has no matcher. The answer can block the
// prompt, add context, or rename the session (see
// [UserPromptSubmitOutput]); it cannot rewrite the prompt. Exit code 2
// ([Block]) blocks and erases the prompt, with stderr shown to the user
// only. Plain stdout (see [UserPromptSubmitOutput.Text]) becomes context.
type UserPromptSubmit struct {
	Event
	// Prompt is the submitted text.
	Prompt string `json:"prompt"`
	// Source says who authored the prompt. Declared by the SDK but not
	// sent by Claude Code 2.1.332: empty there.
	Source PromptSource `json:"source,omitempty"`
	// SessionTitle is the session's current title, if one is set.
	SessionTitle string `json:"session_title,omitempty"`
}

// UserPromptSubmitOutput is the answer to a [UserPromptSubmit] event. All
// the common fields are honoured.
type UserPromptSubmitOutput struct {
	Common

	// Block writes "decision": "block": the prompt is not processed and
	// is erased. Reason is shown to the user, never to Claude.
	Block bool
	// Reason is the block's message for the user; it needs Block.
	Reason string
	// SuppressOriginalPrompt leaves the prompt's text out of the block
	// notice; it needs Block.
	SuppressOriginalPrompt bool
	// AdditionalContext is added next to the prompt for Claude.
	AdditionalContext string
	// SessionTitle renames the session.
	SessionTitle string
	// Text, when set, is the whole answer: it is written on stdout as
	// plain text instead of JSON, and Claude Code adds it to Claude's
	// context ("UserPromptSubmit hook success: …"). Every other field
	// must be empty; the trimmed text must not start with "{".
	Text string
}

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

// userPromptSubmitSpecific is the hookSpecificOutput of a UserPromptSubmit
// answer.
type userPromptSubmitSpecific struct {
	HookEventName          string `json:"hookEventName"`
	AdditionalContext      string `json:"additionalContext,omitempty"`
	SessionTitle           string `json:"sessionTitle,omitempty"`
	SuppressOriginalPrompt bool   `json:"suppressOriginalPrompt,omitzero"`
}

// EventUserPromptExpansion fires when a typed slash command or an MCP prompt
// expands.
const EventUserPromptExpansion = "UserPromptExpansion"

// UserPromptExpansion fires when a typed slash command or an MCP prompt
// expands, before the expansion reaches Claude. The matcher is tested
// against CommandName. The answer can block the expansion or add context
// (see [UserPromptExpansionOutput]). Exit code 2 ([Block]) blocks, with
// stderr shown to the user. Plain stdout (see
// [UserPromptExpansionOutput.Text]) becomes context.
type UserPromptExpansion struct {
	Event
	// ExpansionType says what expands.
	ExpansionType ExpansionType `json:"expansion_type"`
	// CommandName is the command's name, e.g. "deploy".
	CommandName string `json:"command_name"`
	// CommandArgs are the arguments typed after it.
	CommandArgs string `json:"command_args"`
	// CommandSource says where the command came from, e.g. "plugin";
	// empty when absent.
	CommandSource string `json:"command_source,omitempty"`
	// Prompt is the text as typed, e.g. "/deploy staging".
	Prompt string `json:"prompt"`
}

// UserPromptExpansionOutput is the answer to a [UserPromptExpansion]
// event. All the common fields are honoured.
type UserPromptExpansionOutput struct {
	Common

	// Block writes "decision": "block": the expansion is not processed
	// and is erased. Reason is shown to the user.
	Block bool
	// Reason is the block's message for the user; it needs Block.
	Reason string
	// SuppressOriginalPrompt leaves the typed text out of the block
	// notice; it needs Block.
	SuppressOriginalPrompt bool
	// AdditionalContext is added next to the expansion for Claude.
	AdditionalContext string
	// Text, when set, is the whole answer, written as plain text that
	// Claude Code adds to Claude's context; see
	// [UserPromptSubmitOutput.Text].
	Text string
}

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

// userPromptExpansionSpecific is the hookSpecificOutput of a
// UserPromptExpansion answer.
type userPromptExpansionSpecific struct {
	HookEventName          string `json:"hookEventName"`
	AdditionalContext      string `json:"additionalContext,omitempty"`
	SuppressOriginalPrompt bool   `json:"suppressOriginalPrompt,omitzero"`
}
