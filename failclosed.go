package hook

import (
	"context"
	"errors"
	"fmt"
	"reflect"
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
	// The count goes down only when this wrapper has its outcome
	// (returned or recovered a panic): a handler that ends its goroutine
	// with runtime.Goexit, or is still running — or still inside its
	// error's Error method — when the deadline passes, leaves the
	// invocation failing closed.
	inv.closed.Add(1)
	done := false
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, closedFailure(ev, fmt.Errorf("hook: the %s handler panicked: %v%s", ev.HookEventName, p, panicSite()))
			done = true
		}
		if done {
			inv.closed.Add(-1)
		}
	}()
	out, err = f.h.ServeHook(ctx, ev)
	out, err = f.wrapOutcome(ev, out, err)
	done = true
	return out, err
}

// wrapOutcome turns the outcome of the wrapped handler into the
// wrapper's.
func (f failClosedHandler) wrapOutcome(ev *Event, out Output, err error) (Output, error) {
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
	if ev.canBlock() {
		ev.invocation().root().closedAnswer.Store(true)
	}
	return out, nil
}

// closedFailure is the error a fail-closed handler returns for the
// failure err: a block on the events that can block, err on the others.
func closedFailure(ev *Event, err error) error {
	if !ev.canBlock() {
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
	return seeThrough(h, false, false, func(h Handler) (bool, bool) {
		if x, ok := h.(failCloser); ok {
			return x.failsClosed(event), true
		}
		return false, false
	})
}

// outermostFailsClosed reports whether h, seen through middleware, is a
// [FailClosed] handler that answers event: then every failure of h fails
// closed, whether or not the wrapper had the event yet.
func outermostFailsClosed(h Handler, event string) bool {
	return seeThrough(h, true, false, func(h Handler) (bool, bool) {
		if x, ok := h.(failClosedHandler); ok {
			return x.failsClosed(event), true
		}
		return false, false
	})
}

// seeThrough asks decide of h and then of each handler h wraps, through
// [Wrapper] middleware (and the HTTP answer form when viaHTTP), outermost
// first, and returns the first answer decide gives; when none does, or
// the middleware wraps nothing, it returns otherwise. It stops after 100
// layers, against a Wrapper that wraps itself.
func seeThrough(h Handler, viaHTTP, otherwise bool, decide func(Handler) (bool, bool)) bool {
	for range 100 {
		if v, ok := decide(h); ok {
			return v
		}
		switch x := h.(type) {
		case httpAnswers:
			if !viaHTTP {
				return otherwise
			}
			h = x.h
		case Wrapper:
			if h = x.Unwrap(); h == nil {
				return otherwise
			}
		default:
			return otherwise
		}
	}
	return otherwise
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
	return seeThrough(h, false, true, func(h Handler) (bool, bool) {
		switch a := h.(type) {
		case eventAdapter:
			return a.adapterEvent() == event, true
		case eventRouter:
			return a.handles(event), true
		}
		return false, false
	})
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
