package hook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/testutil"
)

// permitFor returns an answer to event that lets its action go on and
// says something, as the neighbour of a failing guard: what must not be
// written when the guard fails under a fail-closed scope.
func permitFor(event string) hook.Output {
	note := hook.Common{SystemMessage: "permitted"}
	switch event {
	case hook.EventPreToolUse:
		return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: "permitted"}
	case hook.EventPreSkillShellCommand:
		return &hook.PreSkillShellCommandOutput{Decision: hook.Allow, Reason: "permitted"}
	case hook.EventPreModelSwitch:
		return &hook.PreModelSwitchOutput{Decision: hook.Allow, Reason: "permitted"}
	case hook.EventPostToolBatch:
		return &hook.PostToolBatchOutput{AdditionalContext: "permitted"}
	case hook.EventUserPromptSubmit:
		return &hook.UserPromptSubmitOutput{AdditionalContext: "permitted"}
	case hook.EventUserPromptExpansion:
		return &hook.UserPromptExpansionOutput{AdditionalContext: "permitted"}
	case hook.EventStop:
		return &hook.StopOutput{AdditionalContext: "permitted"}
	case hook.EventSubagentStop:
		return &hook.SubagentStopOutput{AdditionalContext: "permitted"}
	case hook.EventPreCompact:
		return &hook.PreCompactOutput{Common: note}
	case hook.EventTeammateIdle:
		return &hook.TeammateIdleOutput{Common: note}
	case hook.EventTaskCreated:
		return &hook.TaskCreatedOutput{Common: note}
	case hook.EventTaskCompleted:
		return &hook.TaskCompletedOutput{Common: note}
	case hook.EventElicitation:
		return &hook.ElicitationOutput{Action: hook.ElicitationAccept, Content: jsontext.Value(`{}`)}
	case hook.EventElicitationResult:
		return &hook.ElicitationResultOutput{Action: hook.ElicitationAccept, Content: jsontext.Value(`{}`)}
	case hook.EventConfigChange:
		return &hook.ConfigChangeOutput{Common: note}
	case hook.EventWorktreeCreate:
		return &hook.WorktreeCreateOutput{Common: note}
	}
	return nil
}

// guardFailures are the ways a guard in a composition fails, as handlers
// for any event; release ends the handlers that outlive a deadline.
func guardFailures(release <-chan struct{}) map[string]hook.Handler {
	return map[string]hook.Handler{
		"error": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			return nil, errors.New("the policy file is unreadable")
		}),
		"panic": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			panic("boom")
		}),
		"invalid answer": hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
			if ev.HookEventName == hook.EventStop {
				return &hook.PreToolUseOutput{Decision: hook.Deny}, nil
			}
			return &hook.StopOutput{Block: true}, nil
		}),
		// A rewrite that lacks members of the input: only PreToolUse,
		// among the events that can block, takes one.
		"partial updatedInput": hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(`{"description":"only this"}`)}, nil
		}),
		"goexit": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			runtime.Goexit()
			return nil, nil
		}),
		// Ignores its context past the deadline, which passes while it
		// runs (see testutil.DeadlineContext).
		"timeout": hook.HandlerFunc(func(ctx context.Context, _ *hook.Event) (hook.Output, error) {
			testutil.PassDeadline(ctx)
			<-ctx.Done()
			<-release
			return permitFor(hook.EventPreToolUse), nil
		}),
	}
}

// shapes are the compositions a guard runs in: first and second are the
// two handlers in order, for event.
var shapes = map[string]func(event string, first, second hook.Handler) hook.Handler{
	"Chain": func(_ string, first, second hook.Handler) hook.Handler { return hook.Chain(first, second) },
	"Mux of Chains": func(event string, first, second hook.Handler) hook.Handler {
		return muxOf(event, hook.Chain(first), hook.Chain(second))
	},
	"Chain of Muxes": func(event string, first, second hook.Handler) hook.Handler {
		return hook.Chain(muxOf(event, first), muxOf(event, second))
	},
	"Chain under middleware in a Mux": func(event string, first, second hook.Handler) hook.Handler {
		return muxOf(event, unwrapping{hook.Chain(middleware(first), unwrapping{second})}, middleware(hook.Chain()))
	},
}

// TestFailClosedAroundCompositions: a guard that fails next to a handler
// that permits, in a Chain, a Mux of Chains, a Chain of Muxes or a Chain
// under middleware, blocks every event that can block when the whole
// composition is fail-closed, by the FailClosed wrapper or by the Server
// field, over stdio and over HTTP; fail-open, the hook fails (exit 1,
// status 500) and the neighbour's answer is not written either.
func TestFailClosedAroundCompositions(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	failing := guardFailures(release)
	for _, event := range allEvents {
		if !hook.CanBlock(event) {
			continue
		}
		t.Run(event, func(t *testing.T) {
			t.Parallel()
			failClosedAround(t, event, failing)
		})
	}
}

// failClosedAround is TestFailClosedAroundCompositions for one event.
func failClosedAround(t *testing.T, event string, failing map[string]hook.Handler) {
	in := hooktest.NewEvent(event)
	var permit hook.Handler = hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return permitFor(event), nil })
	for fname, guard := range failing {
		if fname == "partial updatedInput" && event != hook.EventPreToolUse {
			continue
		}
		for _, guardFirst := range []bool{false, true} {
			if !guardFirst && event == hook.EventWorktreeCreate {
				continue // the first path creates the worktree and stops the chain
			}
			first, second := permit, guard
			if guardFirst {
				first, second = guard, permit
			}
			for sname, shape := range shapes {
				for _, scope := range []string{"FailClosed wrapper", "Server.FailClosed", "fail-open"} {
					h := shape(event, first, second)
					srv := hook.Server{Handler: h}
					switch scope {
					case "FailClosed wrapper":
						srv.Handler = hook.FailClosed(h)
					case "Server.FailClosed":
						srv.FailClosed = true
					}
					// The timeout guard's deadline passes while it runs,
					// not at a time that may come before the read.
					ctx := func() context.Context {
						if fname == "timeout" {
							return testutil.DeadlineContext()
						}
						return context.Background()
					}
					name := fmt.Sprintf("%s, %s (guard first: %v), %s, %s", event, fname, guardFirst, sname, scope)
					closed := scope != "fail-open"

					var out, errOut bytes.Buffer
					code := srv.Serve(ctx(), bytes.NewReader(in), &out, &errOut)
					stdout, stderr := out.String(), errOut.String()
					want := hook.ExitBlock
					if !closed {
						want = hook.ExitError
					}
					assert.Equal(t, want, code, "%s: %s%s", name, stdout, stderr)
					assert.Empty(t, stdout, name)
					assert.True(t, strings.HasPrefix(stderr, "hook: "), "%s: %q", name, stderr)
					assert.Equal(t, 1, strings.Count(stderr, "\n"), "%s: %q", name, stderr)

					rep := srv.ServeHTTPBody(ctx(), bytes.NewReader(in), int64(len(in)), nil)
					if fname == "timeout" {
						assert.Contains(t, stderr, "handler did not answer in time: context deadline exceeded", name)
						assert.Contains(t, rep.Message, "handler did not answer in time: context deadline exceeded", name)
					}
					if closed {
						assert.Equal(t, 200, rep.Status, name)
						assert.Equal(t, "block", rep.Decision, "%s: %s", name, rep.Body)
						assert.True(t, jsontext.Value(rep.Body).IsValid(), "%s: %s", name, rep.Body)
					} else {
						assert.Equal(t, 500, rep.Status, "%s: %s", name, rep.Body)
						assert.Equal(t, "error", rep.Decision, name)
					}
					assert.NotContains(t, string(rep.Body), "permitted", name)
				}
			}
		}
	}
}
