package hook_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestServeKeepsEveryValueByteExact puts each value that broke a real
// plugin, and each value JSON libraries rewrite, into the tool input and
// checks that the answer's updatedInput carries it back byte for byte.
func TestServeKeepsEveryValueByteExact(t *testing.T) {
	values := []struct{ name, json string }{
		{"title", `"Quarterly Planning"`},
		{"id", `"room-7f3a9c21"`},
		{"quote", `"Bob's \"war room\""`},
		{"backslash", `"C:\\rooms\\ops"`},
		{"non-ASCII", `"Zürich Besprechungsraum ☕"`},
		{"tab", `"Ops\tNight"`},
		{"looks like JSON", `"{\"room\":\"lobby\",\"id\":1}"`},
		{"big integer", `12345678901234567890`},
		{"trailing zero", `2.50`},
		{"overflowing float", `1e400`},
		{"escaped ö", `"K\u00f6ln"`},
		{"lone surrogate escape", `"\ud800"`},
		{"nested", `{"b":[1,{"c":"\u00e9"}],"a":null}`},
		{"array", `[2.50,"\t",{"x":12345678901234567890}]`},
	}
	for _, v := range values {
		t.Run(v.name, func(t *testing.T) {
			in := `{"room":` + v.json + `,"n":1}`
			code, stdout, stderr := testutil.Serve(t, testutil.AddFingerprint, testutil.PreToolUse("mcp__probe__listen_here", in))
			require.Equal(t, hook.ExitOK, code, stderr)
			assert.Empty(t, stderr)
			want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"room":` + v.json + `,"n":1,"fingerprint":"6689668a49dc648b"}}}` + "\n"
			assert.Equal(t, want, stdout)
		})
	}
}

func TestServeExitCodes(t *testing.T) {
	bash := testutil.PreToolUse("Bash", `{"command":"rm -rf /","description":"wipe"}`)
	tests := []struct {
		name       string
		h          hook.Handler
		in         []byte
		code       int
		stdout     string
		stderrHas  string
		stderrNone bool
	}{
		{
			name: "no answer", in: bash, code: hook.ExitOK, stderrNone: true,
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) { return nil, nil }),
		},
		{
			name: "deny", in: bash, code: hook.ExitOK, stderrNone: true,
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "rm -rf / is not allowed"}, nil
			}),
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf / is not allowed"}}` + "\n",
		},
		{
			name: "block", in: bash, code: hook.ExitBlock, stderrHas: "no wiping\n",
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{Decision: hook.Allow}, hook.Block("no wiping")
			}),
		},
		{
			name: "wrapped block", in: bash, code: hook.ExitBlock, stderrHas: "wrapped",
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return nil, errors.Join(errors.New("context"), hook.Block("wrapped"))
			}),
		},
		{
			name: "error", in: bash, code: hook.ExitError, stderrHas: "database down",
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return nil, errors.New("database\ndown")
			}),
		},
		{
			name: "error fails closed", in: bash, code: hook.ExitBlock, stderrHas: "database down",
			h: hook.FailClosed(hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return nil, errors.New("database down")
			})),
		},
		{
			name: "panic", in: bash, code: hook.ExitError, stderrHas: "panicked: boom",
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) { panic("boom") }),
		},
		{
			name: "panic fails closed", in: bash, code: hook.ExitBlock, stderrHas: "panicked: boom",
			h: hook.FailClosed(hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) { panic("boom") })),
		},
		{
			name: "partial updatedInput refused", in: bash, code: hook.ExitError, stderrHas: "/command",
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(`{"description":"wipe"}`)}, nil
			}),
		},
		{
			name: "empty updatedInput refused", in: bash, code: hook.ExitError, stderrHas: "empty",
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{UpdatedInput: jsontext.Value(`{}`)}, nil
			}),
		},
		{
			name: "bad decision refused", in: bash, code: hook.ExitError, stderrHas: `"approve"`,
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{Decision: "approve"}, nil
			}),
		},
		{
			name: "other event ignored", code: hook.ExitOK, stderrNone: true,
			in: []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"SessionEnd","reason":"other"}`),
			h: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				panic("must not be called")
			}),
		},
		{
			name: "unknown event ignored", code: hook.ExitOK, stderrNone: true,
			in: []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"SomethingNew","x":1}`),
			h:  hook.NewMux(),
		},
		{
			name: "not JSON", in: []byte("hello"), code: hook.ExitError, stderrHas: "not valid JSON",
			h: testutil.AddFingerprint,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := testutil.Serve(t, tt.h, tt.in)
			assert.Equal(t, tt.code, code)
			assert.Equal(t, tt.stdout, stdout)
			if tt.stderrNone {
				assert.Empty(t, stderr)
			}
			if tt.stderrHas != "" {
				assert.Contains(t, stderr, tt.stderrHas)
				assert.Equal(t, 1, strings.Count(stderr, "\n"), "stderr is one line: %q", stderr)
			}
			assert.NotContains(t, stderr, "goroutine")
			if code == hook.ExitBlock {
				assert.Empty(t, stdout, "exit 2 never comes with stdout")
			}
			if stdout != "" {
				assert.True(t, jsontext.Value(stdout).IsValid(), "stdout is valid JSON: %q", stdout)
			}
		})
	}
}

func TestServeAnswerWithCommonFields(t *testing.T) {
	h := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{
			Common:            hook.Common{Halt: true, StopReason: "release freeze", SystemMessage: "stopping"},
			AdditionalContext: "ctx",
		}, nil
	})
	code, stdout, _ := testutil.Serve(t, h, testutil.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, hook.ExitOK, code)
	assert.Equal(t, `{"continue":false,"stopReason":"release freeze","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx"},"systemMessage":"stopping"}`+"\n", stdout)
}

func TestServeEmptyAnswerPrintsNothing(t *testing.T) {
	h := hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{}, nil
	})
	code, stdout, stderr := testutil.Serve(t, h, testutil.PreToolUse("Bash", `{"command":"ls"}`))
	assert.Equal(t, hook.ExitOK, code)
	assert.Empty(t, stdout)
	assert.Empty(t, stderr)
}

func TestServeRemovalMustBeNamed(t *testing.T) {
	in := testutil.PreToolUse("Read", `{"file_path":"/a","offset":3,"limit":1}`)
	answer := func(removed ...string) hook.Handler {
		return hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Remove(e.ToolInput, "offset", "limit")
			if err != nil {
				return nil, err
			}
			return &hook.PreToolUseOutput{UpdatedInput: upd, Removed: removed}, nil
		})
	}
	code, stdout, stderr := testutil.Serve(t, answer(), in)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "/offset, /limit")

	code, stdout, _ = testutil.Serve(t, answer("offset", "limit"), in)
	assert.Equal(t, hook.ExitOK, code)
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/a"}}}`+"\n", stdout)
}

func TestPreToolUseDecodesEveryField(t *testing.T) {
	var got *hook.PreToolUse
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		got = e
		return nil, nil
	})
	in := testutil.PreToolUse("mcp__probe__listen_here", `{"room":"a\u00f6","n":2.50}`)
	code, _, stderr := testutil.Serve(t, h, in)
	require.Equal(t, hook.ExitOK, code, stderr)
	require.NotNil(t, got)
	assert.Equal(t, "5d3f2c1a-8b7e-4f6a-9c2d-1e0b7a6f4c3d", got.SessionID)
	assert.Equal(t, "/home/dev/acme-api", got.Cwd)
	assert.Equal(t, "9b1e4c7a-2f3d-4e5b-8a6c-0d9f1e2a3b4c", got.PromptID)
	assert.Equal(t, hook.PermissionModeDefault, got.PermissionMode)
	require.NotNil(t, got.Effort)
	assert.Equal(t, "medium", got.Effort.Level)
	assert.Equal(t, "PreToolUse", got.HookEventName)
	assert.Equal(t, "mcp__probe__listen_here", got.ToolName)
	assert.Equal(t, "toolu_01", got.ToolUseID)
	require.NotNil(t, got.MCPServer)
	assert.Equal(t, hook.MCPServer{Name: "probe", Source: "dynamic"}, *got.MCPServer)
	assert.Equal(t, `{"room":"a\u00f6","n":2.50}`, string(got.ToolInput))
	assert.Equal(t, string(bytes.TrimSuffix(in, []byte("\n"))), string(got.Raw()))
	v, ok := got.Field("tool_use_id")
	assert.True(t, ok)
	assert.Equal(t, `"toolu_01"`, string(v))
}

func TestAnswerForAnotherEventIsRefused(t *testing.T) {
	h := hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow}, nil
	})
	code, stdout, stderr := testutil.Serve(t, h, []byte(`{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"Stop","stop_hook_active":false}`))
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "cannot answer a Stop event")
}

// serveWith serves in with srv and returns the exit code, stdout and stderr.
func serveWith(t *testing.T, srv *hook.Server, in []byte) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := srv.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}
