package hook_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/agent"
)

// interruptPayload is the Interrupt payload captured from the real Claude
// Code 2.1.336 (hooktest/fixtures/interrupt.json), in its wire form.
func interruptPayload(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("hooktest", "fixtures", "interrupt.json"))
	require.NoError(t, err)
	v := jsontext.Value(b)
	require.NoError(t, v.Compact())
	return append(v, '\n')
}

// TestInterruptDecodesTheCapture: every member of the captured payload
// reaches its field, the raw input is kept byte for byte, and the
// payload is told to be Claude Code's.
func TestInterruptDecodesTheCapture(t *testing.T) {
	in := interruptPayload(t)
	var got *hook.Interrupt
	var raw []byte
	h := hook.InterruptFunc(func(_ context.Context, e *hook.Interrupt) (*hook.InterruptOutput, error) {
		got, raw = e, append([]byte(nil), e.Raw()...)
		return nil, nil
	})
	code, stdout, stderr := serveWith(t, &hook.Server{Handler: h}, in)
	require.Equal(t, hook.ExitOK, code, stderr)
	assert.Empty(t, stdout)
	require.NotNil(t, got)
	assert.Equal(t, hook.EventInterrupt, got.HookEventName)
	assert.Equal(t, hook.InterruptSourceUser, got.Source)
	assert.Equal(t, hook.InterruptReasonStop, got.Reason)
	assert.Equal(t, hook.InterruptViaClient, got.Via)
	assert.Equal(t, "dfba01e8-8e0c-413e-aa38-7abf79ac9252", got.PromptID)
	assert.Equal(t, hook.PermissionMode("default"), got.PermissionMode)
	require.NotNil(t, got.Effort)
	assert.Equal(t, "medium", got.Effort.Level)
	assert.Equal(t, hook.AgentClaudeCode, got.Agent())
	assert.Equal(t, strings.TrimSuffix(string(in), "\n"), string(raw))
}

// TestInterruptMuxRoutesBySource: Interrupt's matcher is tested against
// source, as Claude Code tests it, with the wide name lists ("user, system").
func TestInterruptMuxRoutesBySource(t *testing.T) {
	var ran []string
	record := func(name string) hook.Handler {
		return hook.InterruptFunc(func(_ context.Context, e *hook.Interrupt) (*hook.InterruptOutput, error) {
			ran = append(ran, name+":"+string(e.Source))
			return nil, nil
		})
	}
	m := hook.NewMux()
	m.Handle("Interrupt user", record("user"))
	m.Handle("Interrupt session, system", record("others"))
	m.Handle("Interrupt", record("all"))
	m.Handle("Stop", hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) {
		ran = append(ran, "stop")
		return nil, nil
	}))
	in := interruptPayload(t)
	for _, c := range []struct {
		source string
		want   []string
	}{
		{"user", []string{"user:user", "all:user"}},
		{"system", []string{"others:system", "all:system"}},
		{"session", []string{"others:session", "all:session"}},
		{"future", []string{"all:future"}},
	} {
		ran = nil
		payload := bytes.Replace(in, []byte(`"source":"user"`), []byte(`"source":"`+c.source+`"`), 1)
		code, stdout, stderr := serveWith(t, &hook.Server{Handler: m}, payload)
		assert.Equal(t, hook.ExitOK, code, stderr)
		assert.Empty(t, stdout)
		assert.Equal(t, c.want, ran, c.source)
	}
	mt, err := hook.CompileMatcher(hook.EventInterrupt, "user|system")
	require.NoError(t, err)
	assert.True(t, mt.MatchEvent(mustEvent(t, in)))
}

// mustEvent reads payload as Serve does and returns its Event.
func mustEvent(t *testing.T, payload []byte) *hook.Event {
	t.Helper()
	var got *hook.Event
	code, _, stderr := serveWith(t, &hook.Server{Handler: hook.HandlerFunc(func(_ context.Context, e *hook.Event) (hook.Output, error) {
		got = e
		return nil, nil
	})}, payload)
	require.Equal(t, hook.ExitOK, code, stderr)
	require.NotNil(t, got)
	return got
}

// TestInterruptAnswers: Claude Code ignores the answer and the exit code
// of an Interrupt hook, so a block cannot refuse anything: a Block exits
// 2 as asked (stderr only shows), a failure stays exit 1 even fail-closed,
// and an answer is still written whole for the launchers that read it.
func TestInterruptAnswers(t *testing.T) {
	in := interruptPayload(t)

	answer := hook.InterruptFunc(func(context.Context, *hook.Interrupt) (*hook.InterruptOutput, error) {
		return &hook.InterruptOutput{Common: hook.Common{SystemMessage: "stopped"}}, nil
	})
	code, stdout, stderr := serveWith(t, &hook.Server{Handler: answer}, in)
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, `{"systemMessage":"stopped"}`+"\n", stdout)

	blocking := hook.InterruptFunc(func(context.Context, *hook.Interrupt) (*hook.InterruptOutput, error) {
		return nil, hook.Block("not now")
	})
	code, stdout, stderr = serveWith(t, &hook.Server{Handler: blocking}, in)
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "not now\n", stderr)

	failing := hook.InterruptFunc(func(context.Context, *hook.Interrupt) (*hook.InterruptOutput, error) {
		return nil, errors.New("log unreachable")
	})
	code, stdout, stderr = serveWith(t, &hook.Server{Handler: failing, FailClosed: true}, in)
	assert.Equal(t, hook.ExitError, code, "an Interrupt cannot be blocked: fail-closed does not exit 2")
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "log unreachable")
}

// TestInterruptFromCodex: Codex's Interrupt payload (turn_id and model, no
// source, reason or via) decodes into the same type, and its answer is
// held to Codex's rule for Interrupt: systemMessage only.
func TestInterruptFromCodex(t *testing.T) {
	payload, ok := agent.CodexFixtures()["interrupt"]
	require.True(t, ok)
	var got *hook.Interrupt
	var turn jsontext.Value
	h := func(out *hook.InterruptOutput) hook.Handler {
		return hook.InterruptFunc(func(_ context.Context, e *hook.Interrupt) (*hook.InterruptOutput, error) {
			got = e
			turn, _ = e.Field("turn_id")
			return out, nil
		})
	}
	code, stdout, stderr := serveWith(t, &hook.Server{Handler: h(&hook.InterruptOutput{Common: hook.Common{SystemMessage: "noted"}})}, payload)
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, `{"systemMessage":"noted"}`+"\n", stdout)
	require.NotNil(t, got)
	assert.Equal(t, hook.AgentCodex, got.Agent())
	assert.Empty(t, got.Source)
	assert.Empty(t, got.Reason)
	assert.Equal(t, `"019a8c2e-5000-7000-8000-000000000001"`, string(turn))

	// Codex refuses every other member of an Interrupt answer.
	code, stdout, stderr = serveWith(t, &hook.Server{Handler: h(&hook.InterruptOutput{Common: hook.Common{SuppressOutput: true}})}, payload)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "suppressOutput")
}
