package hook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestChainStopsAHandlerThatWritesIntoItsEvent: a handler that writes
// into the bytes it was given (read-only, see hook.Handler) would hand
// the handlers after it a change no answer carries: a later rewrite
// with an allow would approve "Ls -L" for "ls -l" unseen. The chain
// stops with a failure naming the handler, on every event and in every
// composition that shares the bytes; a clean chain is unchanged.
func TestChainStopsAHandlerThatWritesIntoItsEvent(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"ls -l","timeout":5}`)
	mutate := pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		i := strings.Index(string(e.ToolInput), "ls -l")
		copy(e.ToolInput[i:], "Ls -L")
		return nil, nil
	})
	mutateAndAnswer := pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		i := strings.Index(string(e.ToolInput), "ls -l")
		copy(e.ToolInput[i:], "Ls -L")
		upd, err := e.Merge(map[string]int{"timeout": 9})
		return &hook.PreToolUseOutput{UpdatedInput: upd}, err
	})
	mutateRaw := hook.HandlerFunc(func(_ context.Context, e *hook.Event) (hook.Output, error) {
		raw := e.Raw()
		i := strings.Index(string(raw), "ls -l")
		copy(raw[i:], "Ls -L")
		return nil, nil
	})
	allow := pre(nil, func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"description": "checked"})
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
	})
	mux := hook.NewMux()
	mux.Handle("PreToolUse Bash", mutate)
	mux.Handle("PreToolUse", allow)
	for name, h := range map[string]hook.Handler{
		"no answer":               hook.Chain(mutate, allow),
		"with its own rewrite":    hook.Chain(mutateAndAnswer, allow),
		"through Raw":             hook.Chain(mutateRaw, allow),
		"a sub-chain that writes": hook.Chain(hook.Chain(allow, mutate), mutate, allow),
		"seen by the outer chain": hook.Chain(hook.Chain(mutate), allow),
		"Mux":                     mux,
		"after another's rewrite": hook.Chain(allow, mutate, allow),
	} {
		t.Run(name, func(t *testing.T) {
			b := append([]byte(nil), in...)
			code, stdout, stderr := testutil.Serve(t, h, b)
			assert.Equal(t, hook.ExitError, code, stderr)
			assert.Empty(t, stdout, "no answer carries the change")
			assert.Contains(t, stderr, "wrote into the event it was given, whose raw values are read-only")

			b = append([]byte(nil), in...)
			code, stdout, stderr = testutil.Serve(t, hook.FailClosed(h), b)
			assert.Equal(t, hook.ExitBlock, code, "fails closed: %s", stderr)
			assert.Empty(t, stdout)
		})
	}

	// Without a writer the same chains answer, with the command intact.
	code, stdout, stderr := testutil.Serve(t, hook.Chain(allow, allow), append([]byte(nil), in...))
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Contains(t, stdout, `"command":"ls -l"`)
}
