package hook

import (
	"context"
	"fmt"
	"strings"

	"github.com/gohooks/hook/internal/protocol"
)

// Mux is a [Handler] that routes each event to the handlers registered for
// its hook_event_name and, optionally, a matcher, as Claude Code routes
// hooks by event and matcher. Every registration that matches an event
// runs, in registration order, and their answers are combined as [Chain]
// combines them. An event that matches no registration gets no answer
// (exit 0, nothing written), so a hook keeps working when Claude Code adds
// events. The zero value is an empty Mux ready to use. Register every
// handler before serving; a Mux is not safe for registration while it
// serves.
type Mux struct {
	routes []route
}

// route is one registration.
type route struct {
	event   string
	matcher Matcher
	h       Handler
}

// NewMux returns an empty Mux.
func NewMux() *Mux { return &Mux{} }

// Handle registers h for pattern, which is an event name ("PreToolUse")
// or an event name, one space and a matcher ("PreToolUse Bash|mcp__.*",
// "PreToolUse Edit, Write"), split at the first space as net/http splits
// "GET /path". The matcher is read exactly as Claude Code reads the
// matcher of a settings entry (see [CompileMatcher]): "Edit.*" also
// matches NotebookEdit, "Task" matches Agent. No matcher, "" or "*"
// matches every occurrence of the event.
//
// Handle panics if the event is not one of Claude Code 2.1.336 (the
// Event constants); if the matcher does not compile cleanly
// ([CompileMatcher] returns an error: an invalid regular expression, one
// RE2 cannot express, Go-only syntax); if the event has no matcher
// support (its type's documentation says so) and the matcher is anything
// but "" or "*", since Claude Code would ignore it; if the matcher can
// never match what Claude Code sends (a list that names nothing, a name
// with a blank inside such as "Bash Read", a tool name in another case
// such as "bash" or "^bash$", an MCP name without its tool such as
// "mcp__memory", a SessionStart source or compaction trigger in another
// case); if h is nil (or a nil function such
// as a nil [PreToolUseFunc]); or if h is a typed adapter of another event
// (it would never answer: PreToolUseFunc under "Stop"). Misuse at set-up
// panics, trouble with an event is returned as a value. Registering
// several handlers for one event is how several policies share one hook.
func (m *Mux) Handle(pattern string, h Handler) {
	name, matcher, _ := strings.Cut(pattern, " ")
	if !knownEvent(name) {
		panic(fmt.Sprintf("hook: Mux.Handle(%q): %q is not a hook event of Claude Code %s%s", pattern, name, protocol.ClaudeCode, eventHint(name)))
	}
	if !hasMatcher(name) && matcher != "" && matcher != "*" {
		panic(fmt.Sprintf("hook: Mux.Handle(%q): %s has no matcher; Claude Code ignores it and runs every %s hook (register %q)", pattern, name, name, name))
	}
	mt, err := CompileMatcher(name, matcher)
	if err != nil {
		panic(fmt.Sprintf("hook: Mux.Handle(%q): %v", pattern, err))
	}
	if why := deadMatcher(name, mt); why != "" {
		panic(fmt.Sprintf("hook: Mux.Handle(%q): the handler would never run: %s", pattern, why))
	}
	if isNil(h) {
		panic(fmt.Sprintf("hook: Mux.Handle(%q): nil handler", pattern))
	}
	if !handlesEvent(h, name) {
		panic(fmt.Sprintf("hook: Mux.Handle(%q): the handler answers only other events (%T); it would never run", pattern, h))
	}
	m.routes = append(m.routes, route{event: name, matcher: mt, h: h})
}

// eventHint suggests the event a pattern's first word was meant to be.
func eventHint(name string) string {
	if i := strings.IndexAny(name, "\t\n\r\v\f"); i >= 0 {
		return "; separate the event and the matcher with one space"
	}
	if name == "" {
		return "; the pattern starts with the event name, with no blank before it"
	}
	for _, e := range events {
		if strings.EqualFold(name, e) {
			return fmt.Sprintf("; the event is %q", e)
		}
	}
	return ""
}

// HandleFunc registers the function f for pattern, as Handle does.
func (m *Mux) HandleFunc(pattern string, f func(ctx context.Context, ev *Event) (Output, error)) {
	if f == nil {
		panic(fmt.Sprintf("hook: Mux.HandleFunc(%q): nil function", pattern))
	}
	m.Handle(pattern, HandlerFunc(f))
}

// handles reports whether a handler is registered for event.
func (m *Mux) handles(event string) bool {
	for _, r := range m.routes {
		if r.event == event {
			return true
		}
	}
	return false
}

// failsClosed reports whether a handler registered for event fails
// closed, whatever its matcher; for an unknown event (""), whether any
// handler does.
func (m *Mux) failsClosed(event string) bool {
	for _, r := range m.routes {
		if (event == "" || r.event == event) && handlerFailsClosed(r.h, r.event) {
			return true
		}
	}
	return false
}

// ServeHook passes ev to every handler whose registration matches it, in
// registration order, and combines their answers as [Chain] does; a
// single match is called directly.
func (m *Mux) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	var (
		first Handler
		more  []Handler
	)
	for _, r := range m.routes {
		if r.event != ev.HookEventName || !r.matcher.MatchEvent(ev) {
			continue
		}
		switch {
		case first == nil:
			first = r.h
		case more == nil:
			more = []Handler{first, r.h}
		default:
			more = append(more, r.h)
		}
	}
	switch {
	case first == nil:
		return nil, nil
	case more == nil:
		return first.ServeHook(ctx, ev)
	}
	return serveAll(ctx, ev, more)
}
