package hook

import (
	"github.com/go-json-experiment/json/jsontext"
	"github.com/gohooks/hook/internal/wire"
)

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
