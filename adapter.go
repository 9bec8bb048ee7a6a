package hook

import (
	"context"
	"errors"
)

// eventPtr is satisfied by pointers to the typed events, which embed Event.
type eventPtr[T any] interface {
	*T
	event() *Event
}

// serveTyped is the body of every typed adapter's ServeHook: events other
// than name get no answer; the input is decoded into a new T; a nil answer
// writes nothing; an [Async] returned as the error is the answer.
func serveTyped[T any, PT eventPtr[T], O any, PO interface {
	*O
	Output
}](ctx context.Context, ev *Event, name string, f func(context.Context, PT) (PO, error)) (Output, error) {
	if ev.HookEventName != name || f == nil {
		return nil, nil
	}
	in := PT(new(T))
	if err := decodeNew(ev, in, in.event()); err != nil {
		return nil, err
	}
	out, err := f(ctx, in)
	if a, ok := asyncError(err); ok {
		return a, nil
	}
	if out == nil {
		return nil, err
	}
	return out, err
}

// asyncError returns the [Async] that err is or wraps: a handler whose
// answer type cannot hold one returns it as its error.
func asyncError(err error) (Async, bool) {
	if err == nil {
		return Async{}, false
	}
	var a Async
	if errors.As(err, &a) {
		return a, true
	}
	var p *Async
	if errors.As(err, &p) && p != nil {
		return *p, true
	}
	return Async{}, false
}
