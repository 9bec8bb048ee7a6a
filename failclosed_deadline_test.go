package hook_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// waitingMiddleware is middleware (a Wrapper) that waits for the deadline
// and then for release before it calls the handler it wraps: the deadline
// passes after the read and before that handler has the event, however
// loaded the machine, and the handler cannot answer before the deadline's
// outcome is settled.
type waitingMiddleware struct {
	h       hook.Handler
	release <-chan struct{}
}

func (m waitingMiddleware) ServeHook(ctx context.Context, ev *hook.Event) (hook.Output, error) {
	<-ctx.Done()
	<-m.release
	return m.h.ServeHook(ctx, ev)
}

func (m waitingMiddleware) Unwrap() hook.Handler { return m.h }

// TestFailClosedBeforeTheWrapperHasTheEvent: a handler that is fail-closed
// as a whole (FailClosed outermost, seen through middleware) blocks when
// its deadline passes before the FailClosed wrapper was called, over stdio
// and HTTP; without FailClosed the same hook fails open (exit 1, 500).
func TestFailClosedBeforeTheWrapperHasTheEvent(t *testing.T) {
	permit := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return permitFor(hook.EventPreToolUse), nil
	})
	in := hooktest.NewEvent(hook.EventPreToolUse)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	for _, closed := range []bool{true, false} {
		var h hook.Handler = permit
		if closed {
			h = hook.FailClosed(permit)
		}
		// Long enough that reading 300 bytes never takes it, even under
		// emulation: the deadline must pass after the read.
		srv := hook.Server{Handler: waitingMiddleware{h, release}, Timeout: time.Second}
		var stdout, stderr bytes.Buffer
		code := srv.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr)
		rep := srv.ServeHTTPBody(context.Background(), bytes.NewReader(in), int64(len(in)), nil)
		assert.Empty(t, stdout.String())
		assert.True(t, strings.HasPrefix(stderr.String(), "hook: "), "%q", stderr.String())
		assert.NotContains(t, string(rep.Body), "permitted")
		if closed {
			assert.Equal(t, hook.ExitBlock, code, "fail-closed: %s", stderr.String())
			assert.Equal(t, 200, rep.Status)
			assert.Equal(t, "block", rep.Decision, "%s", rep.Body)
		} else {
			assert.Equal(t, hook.ExitError, code, "fail-open: %s", stderr.String())
			assert.Equal(t, 500, rep.Status)
		}
	}
}
