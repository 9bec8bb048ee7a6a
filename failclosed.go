package hook

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/gohooks/hook/internal/wire"
)

// FailClosed returns a handler that behaves as h, except that it fails
// closed: on an event that can block (each event type says what exit 2 does there), any failure of h —
// an error other than [Block], a panic, a runtime.Goexit, an answer the
// library refuses, a missed [Server] Timeout or signal while h runs, an
// answer of h that cannot be written — blocks the action (exit 2) with
// the failure as the reason, as if h had returned [Block]. On the other
// events failures stay non-blocking (exit 1).
//
// FailClosed composes: it holds wherever it wraps a handler, inside a
// [Mux], under middleware or as the outermost handler, whatever the
// handlers around it do. Around a composition it holds for every handler
// inside: a [Chain] (or a [Mux] with several matches) whose handler fails
// fails itself, however deeply it is nested, so FailClosed([Chain](allow,
// guard)) blocks when the guard fails; see [Chain]. When it is the outermost handler (or a [Mux]
// routes the event to it), unreadable input fails closed too. Guards that
// must not let an action through because they broke want this.
func FailClosed(h Handler) Handler { return failClosedHandler{h} }

type failClosedHandler struct{ h Handler }

// ServeHook calls the wrapped handler and turns its failures into blocks.
func (f failClosedHandler) ServeHook(ctx context.Context, ev *Event) (out Output, err error) {
	if isNil(f.h) {
		return nil, nil
	}
	inv := ev.invocation().root()
	// The count goes down only when this wrapper has settled its outcome
	// (returned or recovered a panic): a handler that ends its goroutine
	// with runtime.Goexit, or is still running — or still inside its
	// error's Error method — when the deadline passes, leaves the
	// invocation failing closed.
	inv.closed.Add(1)
	settled := false
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, closedFailure(ev, fmt.Errorf("hook: the %s handler panicked: %v%s", ev.HookEventName, p, panicSite()))
			settled = true
		}
		if settled {
			inv.closed.Add(-1)
		}
	}()
	out, err = f.h.ServeHook(ctx, ev)
	out, err = f.settle(ev, out, err)
	settled = true
	return out, err
}

// settle turns the outcome of the wrapped handler into the wrapper's.
func (f failClosedHandler) settle(ev *Event, out Output, err error) (Output, error) {
	if err != nil {
		var be *BlockError
		if errors.As(err, &be) {
			return nil, err
		}
		return nil, closedFailure(ev, err)
	}
	if noAnswer(out) {
		return nil, nil
	}
	// Validate the answer here, where the failure is still this handler's.
	if _, verr := out.appendAnswer(nil, ev); verr != nil {
		return nil, closedFailure(ev, fmt.Errorf("hook: invalid answer to %s: %w", ev.HookEventName, verr))
	}
	if canBlock(ev.HookEventName) {
		ev.invocation().root().closedAnswer.Store(true)
	}
	return out, nil
}

// closedFailure is the error a fail-closed handler returns for the
// failure err: a block on the events that can block, err on the others.
func closedFailure(ev *Event, err error) error {
	if !canBlock(ev.HookEventName) {
		return err
	}
	return &BlockError{Reason: failLine(err)}
}

// failsClosed reports that f fails closed for the events it answers.
func (f failClosedHandler) failsClosed(event string) bool {
	return !isNil(f.h) && (event == "" || handlesEvent(f.h, event))
}

// handles reports whether the wrapped handler answers event.
func (f failClosedHandler) handles(event string) bool { return handlesEvent(f.h, event) }

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
	// vouching holds the incoming tool_input, read before any handler
	// had the event, for the partial-answer check (its members' keys
	// are a copy: a handler that writes into the raw tool_input it was
	// given cannot change them), and the values vouched for.
	vouching
}

// init makes inv the state of the invocation of ev, read as o, with the
// tool_input the answer checks need.
func (inv *invocation) init(ev *Event, o wire.Object) {
	switch ev.HookEventName {
	case EventPreToolUse, EventPermissionRequest:
		if in, ok := ev.Field("tool_input"); ok && len(in) > 0 && in[0] == '{' {
			// The read split the tool_input, unless it has very many
			// members: those are split when an answer needs them.
			inv.setInput(in, o.Sub, o.HasSub, o.Compact)
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

// failCloser is implemented by the handlers that know whether they fail
// closed for an event ("" when the event is not known): FailClosed and
// the handlers that route or combine others.
type failCloser interface {
	failsClosed(event string) bool
}

// Wrapper is implemented by middleware: a [Handler] that wraps another
// and calls it. Unwrap returns the wrapped handler, so that the library
// sees through the middleware, as errors.Unwrap sees through a wrapped
// error: a [FailClosed] handler inside it still makes unreadable input
// fail closed, and [Mux.Handle] still refuses a typed adapter of another
// event inside it. Middleware that does not implement Wrapper works too;
// only those two checks cannot see into it.
type Wrapper interface {
	Handler
	Unwrap() Handler
}

// handlerFailsClosed reports whether h fails closed for event.
func handlerFailsClosed(h Handler, event string) bool {
	for range 100 { // a bound against a Wrapper that wraps itself
		switch x := h.(type) {
		case failCloser:
			return x.failsClosed(event)
		case Wrapper:
			h = x.Unwrap()
			continue
		}
		return false
	}
	return false
}

// eventAdapter is implemented by the typed adapters ([PreToolUseFunc] and
// the others): adapterEvent is the one event they answer.
type eventAdapter interface {
	adapterEvent() string
}

// eventRouter is implemented by handlers that wrap or route others and
// know which events they answer.
type eventRouter interface {
	handles(event string) bool
}

// handlesEvent reports whether h may answer event: false only when h is
// known to ignore it (a typed adapter of another event, or a wrapper of
// such handlers).
func handlesEvent(h Handler, event string) bool {
	for range 100 { // a bound against a Wrapper that wraps itself
		switch a := h.(type) {
		case eventAdapter:
			return a.adapterEvent() == event
		case eventRouter:
			return a.handles(event)
		case Wrapper:
			if h = a.Unwrap(); h == nil {
				return true
			}
			continue
		}
		return true
	}
	return true
}

// isNil reports whether h is nil or holds a nil pointer, func, map or
// other nil value of a type with one.
func isNil(h Handler) bool {
	if h == nil {
		return true
	}
	return nilValue(h)
}

// noAnswer reports whether out means "no answer": nil, or a typed nil
// such as a nil *PreToolUseOutput.
func noAnswer(out Output) bool {
	return out == nil || nilValue(out)
}

// nilValue reports whether v holds a nil value of a nilable kind.
func nilValue(v any) bool {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Interface, reflect.Chan:
		return rv.IsNil()
	}
	return false
}
