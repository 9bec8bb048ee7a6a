package hook

import (
	"errors"
	"fmt"
)

// Common holds the answer fields that every event accepts. Every answer
// type embeds it. Zero fields are left out of the JSON: the library never
// writes null.
type Common struct {
	// Halt stops Claude after this hook: it writes "continue": false, and
	// no further turns happen. It overrides the event's decisions.
	Halt bool
	// StopReason is shown to the user (not to Claude) when Halt is set.
	StopReason string
	// SuppressOutput is accepted by Claude Code but has no effect in
	// current builds.
	SuppressOutput bool
	// SystemMessage is a warning shown to the user.
	SystemMessage string
	// TerminalSequence is an escape sequence Claude Code writes to the
	// terminal for the hook (OSC 0/1/2/9/99/777 and BEL only; interactive
	// sessions only).
	TerminalSequence string
}

// wireAnswer is the JSON layout of an answer on stdout, in the order the
// fields are written.
type wireAnswer struct {
	Continue           *bool  `json:"continue,omitzero"`
	StopReason         string `json:"stopReason,omitempty"`
	SuppressOutput     bool   `json:"suppressOutput,omitzero"`
	Decision           string `json:"decision,omitempty"`
	Reason             string `json:"reason,omitempty"`
	SystemMessage      string `json:"systemMessage,omitempty"`
	TerminalSequence   string `json:"terminalSequence,omitempty"`
	HookSpecificOutput any    `json:"hookSpecificOutput,omitzero"`
}

// answer is what an answer type hands to appendWire: the common fields,
// the top-level decision and reason where the event takes them, and the
// hookSpecificOutput object (nil when there is none).
type answer struct {
	common   *Common
	decision string
	reason   string
	specific any
}

var falseValue = false

// appendWire validates the parts every answer shares and appends the
// answer's JSON. An answer with no field set appends nothing.
func appendWire(dst []byte, a answer) ([]byte, error) {
	w := wireAnswer{
		Decision:           a.decision,
		Reason:             a.reason,
		HookSpecificOutput: a.specific,
	}
	if c := a.common; c != nil {
		if c.StopReason != "" && !c.Halt {
			return dst, errors.New("StopReason is set but Halt is not; the reason is only shown when Claude is stopped")
		}
		if c.Halt {
			w.Continue = &falseValue
		}
		w.StopReason = c.StopReason
		w.SuppressOutput = c.SuppressOutput
		w.SystemMessage = c.SystemMessage
		w.TerminalSequence = c.TerminalSequence
	}
	if w == (wireAnswer{}) {
		return dst, nil
	}
	b, err := appendMarshal(dst, &w)
	if err != nil {
		return dst, fmt.Errorf("encoding the answer: %w", err)
	}
	return b, nil
}

// checkEvent reports an answer given to an event it does not answer: Claude
// Code would ignore the whole answer.
func checkEvent(ev *Event, answers string) error {
	if ev.HookEventName != answers {
		return fmt.Errorf("a %sOutput cannot answer a %s event; Claude Code ignores an answer for another event", answers, ev.HookEventName)
	}
	return nil
}
