package hook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// allEvents are the 35 events of Claude Code 2.1.336, from the protocol
// table.
var allEvents = hook.Events()

func TestAllEventsListIsComplete(t *testing.T) {
	require.Len(t, allEvents, 35)
	for _, e := range allEvents {
		assert.True(t, hook.KnownEvent(e), e)
	}
	allEvents[0] = "changed"
	assert.Equal(t, hook.EventPreToolUse, hook.Events()[0], "Events returns a new slice")
	allEvents[0] = hook.EventPreToolUse
}

// failures are the ways a handler can fail, each as a handler for any
// event.
var failures = map[string]hook.Handler{
	"error": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return nil, errors.New("the policy file is unreadable")
	}),
	"panic": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		panic("boom")
	}),
	"goexit": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		runtime.Goexit()
		return nil, nil
	}),
	// An answer of another event is invalid for every event (and a
	// PreToolUse answer is invalid there because of its Decision).
	"invalid answer": hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
		if ev.HookEventName == hook.EventStop {
			return &hook.PreToolUseOutput{Decision: hook.Deny}, nil
		}
		return &hook.StopOutput{Block: true}, nil
	}),
}

// middleware is what a user's logging wrapper looks like: it hides the
// handler inside a HandlerFunc.
func middleware(h hook.Handler) hook.Handler {
	return hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		return h.ServeHook(ctx, ev)
	})
}

// TestFailClosedComposes: wherever FailClosed wraps a handler — outermost,
// inside a Mux, under middleware, a Mux inside middleware — that handler's
// errors, panics, Goexit and invalid answers block on every event that can
// block, and stay exit 1 on the others.
func TestFailClosedComposes(t *testing.T) {
	compositions := map[string]func(event string, h hook.Handler) hook.Handler{
		"outermost": func(_ string, h hook.Handler) hook.Handler { return hook.FailClosed(h) },
		"in a Mux": func(event string, h hook.Handler) hook.Handler {
			m := hook.NewMux()
			m.Handle(event, hook.FailClosed(h))
			return m
		},
		"under middleware": func(_ string, h hook.Handler) hook.Handler { return middleware(hook.FailClosed(h)) },
		"Mux under middleware": func(event string, h hook.Handler) hook.Handler {
			m := hook.NewMux()
			m.Handle(event, middleware(hook.FailClosed(h)))
			return middleware(m)
		},
	}
	for cname, compose := range compositions {
		for fname, f := range failures {
			for _, event := range allEvents {
				code, stdout, stderr := testutil.Serve(t, compose(event, f), []byte(badEvent(event, "")))
				want := hook.ExitError
				if hook.CanBlock(event) {
					want = hook.ExitBlock
				}
				assert.Equal(t, want, code, "%s, %s, %s: %s", cname, fname, event, stderr)
				assert.Empty(t, stdout, "%s, %s, %s", cname, fname, event)
				assert.True(t, strings.HasPrefix(stderr, "hook: "), "%s, %s, %s: %q", cname, fname, event, stderr)
				assert.Equal(t, 1, strings.Count(stderr, "\n"), "%s, %s, %s: %q", cname, fname, event, stderr)
			}
		}
	}
}

// TestFailClosedNeighbours: a fail-open handler's failure next to a
// fail-closed one stays exit 1; the fail-closed guard's own answer goes out.
func TestFailClosedNeighbours(t *testing.T) {
	m := hook.NewMux()
	m.Handle(hook.EventStop, failures["error"])
	m.Handle(hook.EventPreToolUse, hook.FailClosed(badDeny))
	code, _, stderr := testutil.Serve(t, m, []byte(badEvent(hook.EventStop, "")))
	assert.Equal(t, hook.ExitError, code, stderr)
	code, stdout, _ := testutil.Serve(t, m, []byte(badBash(`{"command":"ls"}`)))
	assert.Equal(t, hook.ExitOK, code)
	assert.Equal(t, badDenyOut, stdout)
}

// TestFailClosedUnreadableInput: input that cannot be read blocks when
// the handler that would have had it fails closed, wherever FailClosed is.
func TestFailClosedUnreadableInput(t *testing.T) {
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, hook.FailClosed(badDeny))
	m.Handle(hook.EventStop, badAny(func(context.Context) error { return nil }))
	for _, tc := range []struct {
		name, input string
		code        int
	}{
		{"not JSON", `{"hook_event_name":`, hook.ExitBlock},
		{"no event name", `{"session_id":"s"}`, hook.ExitBlock},
		{"fail-closed event, bad common field", `{"hook_event_name":"PreToolUse","cwd":7}`, hook.ExitBlock},
		{"fail-open event, bad common field", `{"hook_event_name":"Stop","cwd":7}`, hook.ExitError},
	} {
		code, stdout, stderr := testutil.Serve(t, m, []byte(tc.input))
		assert.Equal(t, tc.code, code, "%s: %s", tc.name, stderr)
		assert.Empty(t, stdout, tc.name)
	}
}

// TestFailClosedTimeoutInsideMux: a deadline that passes while a
// fail-closed handler inside a Mux runs blocks, at once.
func TestFailClosedTimeoutInsideMux(t *testing.T) {
	hang := badAny(func(ctx context.Context) error {
		testutil.PassDeadline(ctx) // the deadline passes while it runs
		select {}
	})
	for _, closed := range []bool{false, true} {
		h := hang
		if closed {
			h = hook.FailClosed(hang)
		}
		m := hook.NewMux()
		m.Handle(hook.EventPreToolUse, middleware(h))
		srv := hook.Server{Handler: m}
		start := time.Now()
		var out, errOut bytes.Buffer
		code := srv.Serve(testutil.DeadlineContext(), strings.NewReader(badBash(`{"command":"ls"}`)), &out, &errOut)
		stdout, stderr := out.String(), errOut.String()
		want := hook.ExitError
		if closed {
			want = hook.ExitBlock
		}
		assert.Equal(t, want, code, stderr)
		assert.Empty(t, stdout)
		assert.Equal(t, "hook: the PreToolUse handler did not answer in time: context deadline exceeded\n", stderr)
		assert.Less(t, time.Since(start), 30*time.Second, "Serve must give up at the deadline")
	}
}

// TestTimeoutBoundsWorkAfterTheHandler: an error whose Error method
// blocks, and an answer the handler keeps changing, cannot hold Serve past
// its Timeout.
func TestTimeoutBoundsWorkAfterTheHandler(t *testing.T) {
	for _, closed := range []bool{false, true} {
		var h hook.Handler = hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			return nil, slowError{}
		})
		want := hook.ExitError
		if closed {
			h, want = hook.FailClosed(h), hook.ExitBlock
		}
		srv := hook.Server{Handler: h, Timeout: 100 * time.Millisecond}
		code, stdout, stderr := serveWith(t, &srv, []byte(badBash(`{"command":"ls"}`)))
		assert.Equal(t, want, code, stderr)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "context deadline exceeded")
	}
}

// slowError is an error whose Error method never returns.
type slowError struct{}

func (slowError) Error() string { select {} }

// TestTypedNilAnswers: a typed nil answer means no answer, through every
// way of returning one; a nil or empty *BlockError blocks with the default
// reason.
func TestTypedNilAnswers(t *testing.T) {
	in := []byte(badBash(`{"command":"ls"}`))
	nilAnswer := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return (*hook.PreToolUseOutput)(nil), nil
	})
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, nilAnswer)
	for name, h := range map[string]hook.Handler{
		"HandlerFunc":             nilAnswer,
		"Mux":                     m,
		"FailClosed":              hook.FailClosed(nilAnswer),
		"typed adapter":           hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, nil }),
		"nil adapter":             hook.PreToolUseFunc(nil),
		"FailClosed(nil)":         hook.FailClosed(nil),
		"FailClosed(nil adapter)": hook.FailClosed(hook.PreToolUseFunc(nil)),
	} {
		code, stdout, stderr := testutil.Serve(t, h, in)
		assert.Equal(t, hook.ExitOK, code, "%s: %s", name, stderr)
		assert.Empty(t, stdout, name)
		assert.Empty(t, stderr, name)
	}
	for name, err := range map[string]error{
		"nil *BlockError":   (*hook.BlockError)(nil),
		"empty BlockError":  &hook.BlockError{},
		"wrapped nil block": fmt.Errorf("guard: %w", (*hook.BlockError)(nil)),
		"Block(\"\")":       hook.Block(""),
	} {
		h := badAny(func(context.Context) error { return err })
		for _, wrap := range []func(hook.Handler) hook.Handler{func(h hook.Handler) hook.Handler { return h }, hook.FailClosed} {
			code, stdout, stderr := testutil.Serve(t, wrap(h), in)
			assert.Equal(t, hook.ExitBlock, code, "%s: %s", name, stderr)
			assert.Empty(t, stdout, name)
			assert.Equal(t, "blocked by hook\n", stderr, name)
		}
	}
	assert.Equal(t, "blocked by hook", (*hook.BlockError)(nil).Error())
}

// unwrapping is middleware that implements hook.Wrapper.
type unwrapping struct{ h hook.Handler }

func (u unwrapping) ServeHook(ctx context.Context, ev *hook.Event) (hook.Output, error) {
	return u.h.ServeHook(ctx, ev)
}

func (u unwrapping) Unwrap() hook.Handler { return u.h }

// TestWrapperIsSeenThrough: middleware that implements Wrapper keeps
// unreadable input failing closed and adapters checked at registration.
func TestWrapperIsSeenThrough(t *testing.T) {
	h := unwrapping{hook.FailClosed(badDeny)}
	code, stdout, _ := testutil.Serve(t, h, []byte(`{"hook_event_name":`))
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	code, _, _ = testutil.Serve(t, middleware(hook.FailClosed(badDeny)), []byte(`{"hook_event_name":`))
	assert.Equal(t, hook.ExitError, code, "plain middleware hides FailClosed from the read")
	assert.Panics(t, func() { hook.NewMux().Handle(hook.EventStop, unwrapping{badDeny}) })
	assert.NotPanics(t, func() { hook.NewMux().Handle(hook.EventPreToolUse, unwrapping{badDeny}) })
	code, stdout, _ = testutil.Serve(t, h, []byte(badBash(`{"command":"ls"}`)))
	assert.Equal(t, hook.ExitOK, code)
	assert.Equal(t, badDenyOut, stdout)
}
