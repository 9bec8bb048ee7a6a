package hook

import (
	"sync/atomic"

	"github.com/gohooks/hook/internal/inputedit"
	"github.com/gohooks/hook/internal/wire"
)

// The state of one call: what Serve shares with every handler it calls
// for one event, through the Event they all receive. A chain's view of
// the event (see withMember) has an invocation of its own whose parent
// is the one of the event it was made from.

// invocation is the state of one hook invocation that Serve shares with
// the handlers it calls, through the Event they all receive.
type invocation struct {
	// parent is the invocation of the event that a [Chain] made this
	// event's view from, nil for the event Serve read. A view's
	// invocation keeps no fail-closed state of its own (root has it for
	// every view) and vouches for nothing: its tool_input is the one
	// the view was given, so an answer to the view is checked against
	// that input, not the one Serve read.
	parent *invocation
	// origin is, for a view, the event the outermost chain was given:
	// a rewrite in a chain, however deeply nested, may not undo what
	// was done to origin's input before it.
	origin *Event
	// closed counts the fail-closed handlers that have the event and
	// have not returned.
	closed atomic.Int32
	// closedAnswer is set when a fail-closed handler's answer is part of
	// what is to be written.
	closedAnswer atomic.Bool
	// Vouching holds the incoming tool_input, read before any handler
	// had the event, for the partial-answer check (its members' keys
	// are a copy: a handler that writes into the raw tool_input it was
	// given cannot change them), and the values vouched for.
	inputedit.Vouching
}

// init makes inv the state of the invocation of ev, read as o, with the
// tool_input the answer checks need.
func (inv *invocation) init(ev *Event, o wire.Object) {
	switch ev.HookEventName {
	case EventPreToolUse, EventPermissionRequest:
		if in, ok := ev.Field("tool_input"); ok && len(in) > 0 && in[0] == '{' {
			// The read split the tool_input, unless it has very many
			// members: those are split when an answer needs them.
			inv.SetInput(in, o.Sub, o.HasSub, o.Compact)
			inv.SetKnown(o.Raw, o.Long)
		}
	}
}

// root returns the invocation of the event Serve read, which holds the
// fail-closed state of every view of it.
func (inv *invocation) root() *invocation {
	for inv.parent != nil {
		inv = inv.parent
	}
	return inv
}

// failingClosed reports whether a failure now must block: a fail-closed
// handler is running, or its answer is waiting to be written.
func (inv *invocation) failingClosed() bool {
	if inv == nil {
		return false
	}
	inv = inv.root()
	return inv.closed.Load() > 0 || inv.closedAnswer.Load()
}

// invocation returns the state of e's invocation, creating it for an
// Event that was built outside Serve.
func (e *Event) invocation() *invocation {
	if e.inv == nil {
		e.inv = new(invocation)
	}
	return e.inv
}

// origin returns the event that the outermost chain of e was given: e
// itself unless e is a chain's view.
func (e *Event) origin() *Event {
	if e.inv != nil && e.inv.origin != nil {
		return e.inv.origin
	}
	return e
}

// vouched returns inv's vouching, or nil when inv is nil.
func (inv *invocation) vouched() *inputedit.Vouching {
	if inv == nil {
		return nil
	}
	return &inv.Vouching
}

//END
