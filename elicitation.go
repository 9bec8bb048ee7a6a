package hook

import (
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// ElicitationMode is how an MCP server asks for input.
type ElicitationMode string

// The values of ElicitationMode.
const (
	// ElicitationModeForm: a form described by a JSON Schema.
	ElicitationModeForm ElicitationMode = "form"
	// ElicitationModeURL: a page to open in the browser.
	ElicitationModeURL ElicitationMode = "url"
)

// ElicitationAction is the response to an elicitation.
type ElicitationAction string

// The elicitation responses.
const (
	// ElicitationAccept answers with Content.
	ElicitationAccept ElicitationAction = "accept"
	// ElicitationDecline refuses to answer.
	ElicitationDecline ElicitationAction = "decline"
	// ElicitationCancel dismisses the request.
	ElicitationCancel ElicitationAction = "cancel"
)

func (o *ElicitationOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	return appendElicitation(dst, EventElicitation, &o.Common, o.Action, o.Content, o.Block, o.Reason)
}

// join merges n into a as [Chain] combines Elicitation answers: the first block
// wins and stops the chain; a cancel wins over later actions; otherwise
// the last action, with its content.
func (a *ElicitationOutput) join(n *ElicitationOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return joinElicitation(
		elicitationFields{&a.Block, &a.Reason, &a.Action, &a.Content},
		elicitationFields{&n.Block, &n.Reason, &n.Action, &n.Content}), nil
}

// refuses reports whether the answer refuses the elicitation: a block, a
// decline or a cancel.
func (o *ElicitationOutput) refuses() bool {
	return o.Block || o.Action == ElicitationDecline || o.Action == ElicitationCancel
}

// appendElicitation writes the answer of an Elicitation or
// ElicitationResult event.
func appendElicitation(dst []byte, name string, c *Common, action ElicitationAction, content jsontext.Value, block bool, reason string) ([]byte, error) {
	decision, reason, err := blockFields(block, reason)
	if err != nil {
		return dst, err
	}
	if block && (action != "" || content != nil) {
		return dst, errors.New("a block declines the request; it cannot be combined with an Action or Content")
	}
	switch action {
	case "", ElicitationAccept, ElicitationDecline, ElicitationCancel:
	default:
		return dst, fmt.Errorf("elicitation action %q is not one of accept, decline, cancel", action)
	}
	if content != nil {
		ms, err := rawjson.Members(content)
		if err != nil {
			return dst, fmt.Errorf("elicitation Content must be one JSON object: %w", err)
		}
		if action != ElicitationAccept && len(ms) > 0 {
			return dst, fmt.Errorf("elicitation Content is only used with accept; Claude Code would drop it with action %q", action)
		}
	}
	a := answer{common: c, decision: decision, reason: reason}
	if action != "" || content != nil {
		a.specific = &elicitationSpecific{HookEventName: name, Action: action, Content: content}
	}
	return appendWire(dst, a)
}

func (o *ElicitationResultOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	return appendElicitation(dst, EventElicitationResult, &o.Common, o.Action, o.Content, o.Block, o.Reason)
}

// join merges n into a as [Chain] combines ElicitationResult answers: the first block
// wins and stops the chain; a cancel wins over later actions; otherwise
// the last action, with its content.
func (a *ElicitationResultOutput) join(n *ElicitationResultOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return joinElicitation(
		elicitationFields{&a.Block, &a.Reason, &a.Action, &a.Content},
		elicitationFields{&n.Block, &n.Reason, &n.Action, &n.Content}), nil
}

// refuses reports whether the answer refuses the elicitation: a block, a
// decline or a cancel.
func (o *ElicitationResultOutput) refuses() bool {
	return o.Block || o.Action == ElicitationDecline || o.Action == ElicitationCancel
}

// rewrite returns the input member the answer rewrites, content, and its
// new value (nil: none).
func (o *ElicitationResultOutput) rewrite() (string, jsontext.Value) {
	return "content", o.Content
}

// nextView returns the event the next handler of a chain sees: its
// action and content are the ones given.
func (o *ElicitationResultOutput) nextView(view *Event) (*Event, error) {
	if o.Action != "" {
		s, err := wire.Marshal(o.Action)
		if err != nil {
			return nil, err
		}
		if view, err = view.withMember("action", s); err != nil {
			return nil, err
		}
	}
	return advanceRewrite(view, o)
}
