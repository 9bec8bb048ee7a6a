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

// EventElicitation fires when an MCP server asks for user input.
const EventElicitation = "Elicitation"

// Elicitation fires when an MCP server asks the user for input, before the
// dialog is shown. The matcher is tested against MCPServerName. The answer
// can respond in the user's place (accept with content, decline, cancel)
// or decline with a block (see [ElicitationOutput]); exit code 2
// ([Block]) declines too (stderr is not shown).
type Elicitation struct {
	Event
	// MCPServerName is the asking server's name.
	MCPServerName string `json:"mcp_server_name"`
	// Message is the server's question.
	Message string `json:"message"`
	// Mode is "form" or "url"; empty when absent.
	Mode ElicitationMode `json:"mode,omitempty"`
	// URL is the page to open (url mode).
	URL string `json:"url,omitempty"`
	// ElicitationID identifies the request (url mode).
	ElicitationID string `json:"elicitation_id,omitempty"`
	// RequestedSchema is the JSON Schema of the requested input (form
	// mode), kept raw; nil when absent.
	RequestedSchema jsontext.Value `json:"requested_schema,omitzero"`
}

// ElicitationOutput is the answer to an [Elicitation] event. Claude Code
// discards Halt, StopReason and SystemMessage for this event. With several
// hooks, roughly the last response wins and a cancel can override it.
type ElicitationOutput struct {
	Common

	// Action responds in the user's place; empty shows the dialog.
	Action ElicitationAction
	// Content is the answer of an accept: a JSON object matching the
	// requested schema (build it with [Merge] or encode a struct).
	// Claude Code only reads it with [ElicitationAccept]; with another
	// action only an empty object is allowed.
	Content jsontext.Value
	// Block writes "decision": "block": the request is declined. It
	// cannot be combined with Action or Content.
	Block bool
	// Reason is the decline's message; it needs Block.
	Reason string
}

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

// elicitationSpecific is the hookSpecificOutput of an Elicitation or
// ElicitationResult answer.
type elicitationSpecific struct {
	HookEventName string            `json:"hookEventName"`
	Action        ElicitationAction `json:"action,omitempty"`
	Content       jsontext.Value    `json:"content,omitzero"`
}

// EventElicitationResult fires when the user answered an elicitation.
const EventElicitationResult = "ElicitationResult"

// ElicitationResult fires after the user answered an MCP elicitation,
// before the answer is sent to the server. The matcher is tested against
// MCPServerName. The answer can override the user's response (see
// [ElicitationResultOutput]); exit code 2 ([Block]) turns it into a
// decline.
type ElicitationResult struct {
	Event
	// MCPServerName is the asking server's name.
	MCPServerName string `json:"mcp_server_name"`
	// ElicitationID identifies the request (url mode).
	ElicitationID string `json:"elicitation_id,omitempty"`
	// Mode is "form" or "url"; empty when absent.
	Mode ElicitationMode `json:"mode,omitempty"`
	// Action is the user's response.
	Action ElicitationAction `json:"action"`
	// Content is the user's answer (accept), kept raw; nil when absent.
	Content jsontext.Value `json:"content,omitzero"`
}

// ElicitationResultOutput is the answer to an [ElicitationResult] event;
// its fields work as in [ElicitationOutput], overriding the user's
// response. Claude Code discards Halt, StopReason and SystemMessage for
// this event.
type ElicitationResultOutput struct {
	Common

	// Action overrides the user's response; empty keeps it.
	Action ElicitationAction
	// Content overrides the answer of an accept; see
	// [ElicitationOutput.Content].
	Content jsontext.Value
	// Block writes "decision": "block": the response becomes a decline.
	// It cannot be combined with Action or Content.
	Block bool
	// Reason is the decline's message; it needs Block.
	Reason string
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
