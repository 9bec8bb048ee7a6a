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

// Handle registers h for the event name. It panics if name is empty, h is
// nil, or a handler is already registered for name; misuse at set-up
// panics, trouble with an event is returned as a value.
func (m *Mux) Handle(name string, h Handler) {
	if name == "" {
		panic("hook: Mux.Handle: empty event name")
	}
	if h == nil {
		panic("hook: Mux.Handle: nil handler for " + name)
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

// ServeHook passes ev to the handler registered for its event, if any.
func (m *Mux) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	h := m.handlers[ev.HookEventName]
	if h == nil {
		return nil, nil
	}
	return h.ServeHook(ctx, ev)
}
