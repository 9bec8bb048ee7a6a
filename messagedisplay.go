package hook

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/wire"
)

// EventMessageDisplay fires when assistant text is being rendered.
const EventMessageDisplay = "MessageDisplay"

// MessageDisplay fires while an assistant message is being shown, once per
// batch of completed lines. It has no matcher. The answer can replace the
// text displayed for this batch (see [MessageDisplayOutput]); the stored
// message does not change. Exit code 2 displays the original text. In -p
// and SDK runs it fires once per message, with Index 0, Final true and the
// whole text.
type MessageDisplay struct {
	Event
	// TurnID is the current turn's UUID.
	TurnID string `json:"turn_id"`
	// MessageID is the message's UUID, the same for all its batches (not
	// the API's msg_ id).
	MessageID string `json:"message_id"`
	// Index is the batch's 0-based index within the message.
	Index int64 `json:"index"`
	// Final is true on the message's last batch (exactly one per message).
	Final bool `json:"final"`
	// Delta is the batch's text: whole lines, except possibly in the final
	// batch, which may be empty.
	Delta string `json:"delta"`
}

// MessageDisplayOutput is the answer to a [MessageDisplay] event. Claude
// Code discards Halt, StopReason and SystemMessage for this event.
type MessageDisplayOutput struct {
	Common

	// DisplayContent is displayed in place of the batch's Delta; empty
	// displays the original.
	DisplayContent string
}

func (o *MessageDisplayOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	a := answer{common: &o.Common}
	if o.DisplayContent != "" {
		a.specific = &messageDisplaySpecific{HookEventName: EventMessageDisplay, DisplayContent: o.DisplayContent}
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines MessageDisplay answers: the
// last displayContent given.
func (a *MessageDisplayOutput) join(n *MessageDisplayOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	if n.DisplayContent != "" {
		a.DisplayContent = n.DisplayContent
	}
	return false, nil
}

// rewrite returns the input member the answer rewrites, delta, and its
// new value, the displayContent (nil: none).
func (o *MessageDisplayOutput) rewrite() (string, jsontext.Value) {
	if o.DisplayContent == "" {
		return "", nil
	}
	s, err := wire.Marshal(o.DisplayContent)
	if err != nil {
		return "", nil // refused by the answer's own check
	}
	return "delta", s
}

// messageDisplaySpecific is the hookSpecificOutput of a MessageDisplay
// answer.
type messageDisplaySpecific struct {
	HookEventName  string `json:"hookEventName"`
	DisplayContent string `json:"displayContent"`
}
