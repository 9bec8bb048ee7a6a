package hook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestMuxRefusesPatternsThatNeverMatch checks that Handle panics, with a
// message that says what to write, for every pattern shape it would
// accept and never run: the client would never send a value it matches.
func TestMuxRefusesPatternsThatNeverMatch(t *testing.T) {
	h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil })
	for pattern, says := range map[string]string{
		"PreToolUse bash":               `Claude Code sends "Bash"`,
		"PreToolUse BASH":               `"Bash"`,
		"PostToolUse read|Write":        `"Read"`,
		"PermissionRequest edit, Write": `"Edit"`,
		"PermissionDenied webfetch":     `"WebFetch"`,
		"PostToolUseFailure task":       `"Task"`,
		"PreToolUse ^bash$":             `"Bash"`,
		"PreToolUse ^(Read|bash)$":      `"Bash"`,
		"PreToolUse ^read$|^Write$":     `"Read"`,
		"PreToolUse Bash Read":          "separate names with | or ,",
		"PreToolUse Bash, Read Write":   "holds a blank",
		"PreToolUse mcp__memory":        `"mcp__memory__.*"`,
		"PreToolUse mcp__memory__":      "mcp__<server>__<tool>",
		"PreToolUse |":                  "names nothing",
		"PreToolUse , |":                "names nothing",
		"SessionStart Startup":          `"startup"`,
		"PreCompact Manual":             `"manual"`,
		"SubagentStart general purpose": "holds a blank",
		"pretooluse Bash":               `the event is "PreToolUse"`,
		"PreToolUse\tBash":              "one space",
		" PreToolUse Bash":              "no blank before it",
		"Stop Bash":                     "Stop has no matcher",
		"UserPromptSubmit *.go":         "has no matcher",
		"PreToolUse Bash|Read(":         "invalid",
	} {
		got := panicText(func() { hook.NewMux().Handle(pattern, h) })
		if assert.NotEmpty(t, got, "%q was accepted", pattern) {
			assert.Contains(t, got, says, pattern)
		}
	}
	for _, pattern := range []string{
		"PreToolUse Bash", "PreToolUse Bash|Read", "PreToolUse Edit, Write", "PreToolUse  Bash",
		"PreToolUse Bash ", "PreToolUse mcp__memory__store", "PreToolUse mcp__memory__.*", "PreToolUse mcp__.*",
		"PreToolUse ^Bash$", "PreToolUse ^(Bash|Read)$", "PreToolUse Task", "PreToolUse my_future_tool",
		"PreToolUse (?:bash)", "PreToolUse .*bash.*", "SessionStart startup|resume", "SessionStart fork",
		"PreCompact auto", "Notification permission_prompt", "SubagentStart general-purpose",
		"FileChanged .env|.envrc", "Stop", "Stop *", "PreToolUse", "PreToolUse *",
	} {
		assert.Empty(t, panicText(func() { hook.NewMux().Handle(pattern, h) }), pattern)
	}
}

func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func TestMux(t *testing.T) {
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, testutil.AddFingerprint)
	m.HandleFunc(hook.EventSessionEnd, func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		return nil, hook.Block("session end seen")
	})
	assert.Panics(t, func() { m.Handle("PreToolUse Bash|(", testutil.AddFingerprint) }, "a bad matcher panics")
	assert.Panics(t, func() { m.Handle("", testutil.AddFingerprint) })
	assert.Panics(t, func() { m.Handle("Stop", nil) })

	code, stdout, _ := testutil.Serve(t, m, testutil.PreToolUse("mcp__probe__listen_here", `{"room":"x"}`))
	assert.Equal(t, hook.ExitOK, code)
	assert.Contains(t, stdout, `"updatedInput":{"room":"x","fingerprint":"6689668a49dc648b"}`)

	code, stdout, stderr := testutil.Serve(t, m, []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"SessionEnd","reason":"other"}`))
	assert.Equal(t, hook.ExitBlock, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "session end seen\n", stderr)

	code, stdout, stderr = testutil.Serve(t, m, []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"Stop","stop_hook_active":false}`))
	assert.Equal(t, hook.ExitOK, code)
	assert.Empty(t, stdout)
	assert.Empty(t, stderr)
}

// TestMuxPatterns: every matching registration runs, in registration
// order, routed by the client's matcher rules.
func TestMuxPatterns(t *testing.T) {
	var ran []string
	tag := func(name string) hook.Handler {
		return pre(nil, func(*hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			ran = append(ran, name)
			return &hook.PreToolUseOutput{AdditionalContext: name}, nil
		})
	}
	m := hook.NewMux()
	m.Handle("PreToolUse Bash", tag("bash"))
	m.Handle("PreToolUse", tag("all"))
	m.Handle("PreToolUse Edit.*", tag("edit-re"))
	m.Handle("PreToolUse Task", tag("task"))
	m.Handle("PreToolUse mcp__.*", tag("mcp"))
	m.Handle("PreToolUse Edit, Write", tag("list"))
	m.Handle("PreToolUse *", tag("star"))
	m.Handle("Stop", hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) { return nil, nil }))
	for _, c := range []struct {
		tool string
		want []string
	}{
		{"Bash", []string{"bash", "all", "star"}},
		{"NotebookEdit", []string{"all", "edit-re", "star"}},
		{"Edit", []string{"all", "edit-re", "list", "star"}},
		{"Agent", []string{"all", "task", "star"}},
		{"mcp__memory__store", []string{"all", "mcp", "star"}},
	} {
		ran = nil
		code, stdout, stderr := testutil.Serve(t, m, testutil.PreToolUse(c.tool, `{}`))
		require.Equal(t, hook.ExitOK, code, stderr)
		assert.Equal(t, c.want, ran, c.tool)
		assert.Contains(t, stdout, fmt.Sprintf(`"additionalContext":%q`, strings.Join(c.want, "\n")), c.tool)
	}

	// One match is called directly: its answer is the answer.
	one := hook.NewMux()
	one.Handle("PreToolUse Bash", testutil.AddFingerprint)
	_, stdout, _ := testutil.Serve(t, one, testutil.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Contains(t, stdout, `"updatedInput":{"command":"ls","fingerprint":"6689668a49dc648b"}`)
	_, stdout, _ = testutil.Serve(t, one, testutil.PreToolUse("Read", `{"file_path":"/x"}`))
	assert.Empty(t, stdout, "no registration matches Read")

	for _, bad := range []string{"PreToolUse Bash|Read(", "PreToolUse (?i)bash", "PreToolUse ^(?!Bash)", `PreToolUse Bash\z`, "Stop Bash", "Pretooluse Bash", " PreToolUse"} {
		assert.Panics(t, func() { hook.NewMux().Handle(bad, testutil.AddFingerprint) }, bad)
	}
	for _, ok := range []string{"Stop *", "Stop", "PreToolUse ", "FileChanged .env|.envrc"} {
		h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil })
		assert.NotPanics(t, func() { hook.NewMux().Handle(ok, h) }, ok)
	}
}

// TestMuxRefusesMisuse: registering an adapter under another event's
// name, an unknown name or a nil function panics at set-up.
func TestMuxRefusesMisuse(t *testing.T) {
	guard := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no"}, nil
	})
	for name, f := range map[string]func(m *hook.Mux){
		"adapter of another event":             func(m *hook.Mux) { m.Handle(hook.EventStop, guard) },
		"fail-closed adapter of another event": func(m *hook.Mux) { m.Handle(hook.EventStop, hook.FailClosed(guard)) },
		"a Mux without a handler for the event": func(m *hook.Mux) {
			inner := hook.NewMux()
			inner.Handle(hook.EventPreToolUse, guard)
			m.Handle(hook.EventStop, inner)
		},
		"unknown event":   func(m *hook.Mux) { m.Handle("PreToolUsee", guard) },
		"empty name":      func(m *hook.Mux) { m.Handle("", guard) },
		"nil handler":     func(m *hook.Mux) { m.Handle(hook.EventPreToolUse, nil) },
		"nil adapter":     func(m *hook.Mux) { m.Handle(hook.EventPreToolUse, hook.PreToolUseFunc(nil)) },
		"nil HandlerFunc": func(m *hook.Mux) { m.Handle(hook.EventPreToolUse, hook.HandlerFunc(nil)) },
		"bad matcher":     func(m *hook.Mux) { m.Handle("PreToolUse Bash|(", guard) },
		"StopFunc under SubagentStop": func(m *hook.Mux) {
			m.Handle(hook.EventSubagentStop, hook.StopFunc(func(context.Context, *hook.Stop) (*hook.StopOutput, error) { return nil, nil }))
		},
	} {
		assert.Panics(t, func() { f(hook.NewMux()) }, name)
	}
	// Every adapter is accepted under its own event, and the Mux then
	// routes that event to it.
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, hook.FailClosed(guard))
	m.Handle(hook.EventStop, middleware(guard)) // unknown to the Mux: accepted
	code, stdout, _ := testutil.Serve(t, m, []byte(badBash(`{"command":"ls"}`)))
	assert.Equal(t, hook.ExitOK, code)
	assert.Equal(t, badDenyOut, stdout)
}
