package hook

import (
	"context"
	"fmt"
)

// Mux is a [Handler] that dispatches each event to the handler registered
// for its hook_event_name. An event with no handler gets no answer (exit 0,
// nothing written), so a hook keeps working when Claude Code adds events.
// The zero value is an empty Mux ready to use. Register every handler
// before serving; a Mux is not safe for registration while it serves.
type Mux struct {
	handlers map[string]Handler
}

// NewMux returns an empty Mux.
func NewMux() *Mux { return &Mux{} }

// Handle registers h for the event name. It panics if name is not one of
// the events of Claude Code 2.1.332 (see [KnownEvent]), if h is nil (or a
// nil function such as a nil [PreToolUseFunc]), if h is a typed adapter
// of another event (it would never answer: PreToolUseFunc under "Stop"),
// or if a handler is already registered for name; misuse at set-up
// panics, trouble with an event is returned as a value.
func (m *Mux) Handle(name string, h Handler) {
	if !KnownEvent(name) {
		panic(fmt.Sprintf("hook: Mux.Handle: %q is not a hook event of Claude Code 2.1.332", name))
	}
	if isNil(h) {
		panic("hook: Mux.Handle: nil handler for " + name)
	}
	if !handlesEvent(h, name) {
		panic(fmt.Sprintf("hook: Mux.Handle: the handler registered for %s answers only other events (%T); it would never run", name, h))
	}
	if _, dup := m.handlers[name]; dup {
		panic(fmt.Sprintf("hook: Mux.Handle: a handler for %s is already registered", name))
	}
	if m.handlers == nil {
		m.handlers = make(map[string]Handler)
	}
	m.handlers[name] = h
}

// HandleFunc registers the function f for the event name, as Handle does.
func (m *Mux) HandleFunc(name string, f func(ctx context.Context, ev *Event) (Output, error)) {
	if f == nil {
		panic("hook: Mux.HandleFunc: nil function for " + name)
	}
	m.Handle(name, HandlerFunc(f))
}

// Handler returns the handler registered for the event name, or nil.
func (m *Mux) Handler(name string) Handler {
	return m.handlers[name]
}

// handles reports whether a handler is registered for event.
func (m *Mux) handles(event string) bool { return m.handlers[event] != nil }

// failsClosed reports whether the handler for event fails closed; for an
// unknown event (""), whether any handler does.
func (m *Mux) failsClosed(event string) bool {
	if event != "" {
		return handlerFailsClosed(m.handlers[event], event)
	}
	for name, h := range m.handlers {
		if handlerFailsClosed(h, name) {
			return true
		}
	}
	return false
}

// ServeHook passes ev to the handler registered for its event, if any.
func (m *Mux) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	h := m.handlers[ev.HookEventName]
	if h == nil {
		return nil, nil
	}
	return h.ServeHook(ctx, ev)
}
