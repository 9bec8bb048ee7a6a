package hooktest_test

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func TestRecordGoodAnswer(t *testing.T) {
	in := hooktest.NewPreToolUse("mcp__probe__listen_here", `{"room":"Bob's \"war room\"","n":2.50}`)
	before := time.Now()
	r := hooktest.Record(tick(goodHook()), in)
	took := time.Since(before)
	require.Empty(t, r.Problems, "%v", r.Err())
	assert.NoError(t, r.Err())
	assert.Equal(t, 0, r.Code)
	assert.Empty(t, r.Stderr)
	assert.Equal(t, "PreToolUse", r.Event)
	assert.Equal(t, string(in), string(r.Payload))
	assert.Equal(t, hook.Allow, r.PermissionDecision)
	cwd, _ := hooktest.Field(in, "cwd")
	var dir string
	require.NoError(t, jsonUnquote(cwd, &dir))
	assert.Equal(t, `{"room":"Bob's \"war room\"","n":2.50,"fingerprint":"`+fingerprint(dir)+`"}`, string(r.UpdatedInput))
	assert.Equal(t, `"PreToolUse"`, string(r.HookSpecificOutput["hookEventName"]))
	assert.Contains(t, r.Answer, "hookSpecificOutput")
	assert.Positive(t, r.Duration, "the handler saw the clock tick")
	assert.LessOrEqual(t, r.Duration, took)
	ti, _ := hooktest.Field(in, "tool_input")
	assert.NoError(t, hooktest.CheckPreserved(ti, r.UpdatedInput))
}

// tick returns h run after the clock ticked once, so that the run takes a
// measurable time even on a clock as coarse as Windows' (15.6 ms): it
// waits for the tick, not for a set time.
func tick(h hook.Handler) hook.Handler {
	return hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		for start := time.Now(); time.Since(start) <= 0; {
			runtime.Gosched()
		}
		return h.ServeHook(ctx, ev)
	})
}

func jsonUnquote(v jsontext.Value, s *string) error {
	b, err := jsontext.AppendUnquote(nil, v)
	*s = string(b)
	return err
}

func TestRecordPermissionRequest(t *testing.T) {
	in := hooktest.NewPermissionRequest("Bash", bashInput)
	r := hooktest.Record(goodHook(), in)
	require.NoError(t, r.Err())
	assert.Equal(t, hook.Allow, r.PermissionDecision)
	assert.Contains(t, string(r.UpdatedInput), `"timeout":120000,"fingerprint":`)

	deny := hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		return &hook.PermissionRequestOutput{Decision: hook.Deny, Message: "no rm"}, nil
	})
	r = hooktest.Record(deny, in)
	require.NoError(t, r.Err())
	assert.Equal(t, hook.Deny, r.PermissionDecision)
	assert.Equal(t, "no rm", r.Reason)
	assert.Nil(t, r.UpdatedInput)
}

func TestRecordBlock(t *testing.T) {
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return nil, hook.Block("rm is not allowed")
	})
	r := hooktest.Record(h, hooktest.Payload("pretooluse-bash"))
	assert.NoError(t, r.Err())
	assert.Equal(t, hook.ExitBlock, r.Code)
	assert.Equal(t, "rm is not allowed\n", string(r.Stderr))
	assert.Empty(t, r.Stdout)
	assert.Nil(t, r.Answer)
}

func TestRecordPanickingHandler(t *testing.T) {
	h := hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		var m map[string]int
		//lint:ignore SA5000 the handler must panic with a runtime error
		m["x"] = 1
		return nil, nil
	})
	r := hooktest.Record(h, hooktest.Payload("pretooluse-bash"))
	assert.Equal(t, hook.ExitError, r.Code, "Serve recovers the panic")
	assert.NoError(t, r.Err(), "one line on stderr is no crash")
	assert.Contains(t, string(r.Stderr), "panic")
}

func TestRecordPartialAnswerIsRefused(t *testing.T) {
	// The library refuses the seed bug before a byte is written.
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(`{"fingerprint":"abc"}`)}, nil
	})
	r := hooktest.Record(h, hooktest.Payload("captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1"))
	assert.Equal(t, hook.ExitError, r.Code)
	assert.Empty(t, r.Stdout)
	assert.Contains(t, string(r.Stderr), "/room")
}

func TestRecordMapRoundTrip(t *testing.T) {
	in := hooktest.NewPreToolUse("mcp__probe__listen_here", `{"room":"K\u00f6ln","seats":12345678901234567890,"price":2.50}`)
	r := hooktest.Record(mapHook(), in)
	assert.Equal(t, 0, r.Code)
	var vs []string
	for _, p := range r.Problems {
		var v *hooktest.Violation
		require.True(t, errors.As(p, &v))
		assert.Equal(t, hooktest.RuleKeep, v.Rule)
		vs = append(vs, v.Pointer+": "+v.Detail)
	}
	assert.Equal(t, []string{
		`/hookSpecificOutput/updatedInput/room: member rewritten from "K\u00f6ln" to "Köln"`,
		`/hookSpecificOutput/updatedInput/seats: member rewritten from 12345678901234567890 to 12345678901234567000`,
		`/hookSpecificOutput/updatedInput/price: member rewritten from 2.50 to 2.5`,
		`/hookSpecificOutput/updatedInput/price: member moved`, // encoding/json sorts the members
	}, vs)
}

// TestRecordContextDeadline: a handler that never returns is given up at
// the deadline. The deadline is short, since it is what is tested: the
// handler never finishes, however fast the machine.
func TestRecordContextDeadline(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		<-release // ignores ctx
		return nil, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	r := hooktest.RecordContext(ctx, stuck, hooktest.Payload("stop"))
	assert.Equal(t, hook.ExitError, r.Code)
	assert.NotEmpty(t, r.Stderr)
}

func TestRecordBadPayload(t *testing.T) {
	r := hooktest.Record(goodHook(), []byte(`not json`))
	assert.Equal(t, hook.ExitError, r.Code)
	require.Len(t, r.Problems, 1)
	var v *hooktest.Violation
	assert.False(t, errors.As(r.Problems[0], &v), "the payload is at fault, not the hook")
}

func TestCheckAnswerAsync(t *testing.T) {
	in := hooktest.Payload("pretooluse-bash")
	err := hooktest.CheckAnswer(in, 0, []byte(`{"async":true}`+"\n"), nil)
	assert.NoError(t, err)
	err = hooktest.CheckAnswer(in, 0, []byte("{\n  \"async\": true\n}\n"), nil)
	assert.ErrorContains(t, err, "/async: unknown field; Claude Code drops it; an async announcement must be the first line of stdout, compact")
	err = hooktest.CheckAnswer(in, 0, []byte(`{"async":true,"asyncTimeout":"5s"}`+"\n"), nil)
	assert.ErrorContains(t, err, "/asyncTimeout: must be a number, not a string")
}
