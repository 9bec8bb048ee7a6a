package hookhttp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hookhttp"
	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/internal/testutil"
)

// postHook sends body to h as Claude Code does (POST, application/json)
// and returns the response.
func postHook(t *testing.T, h http.Handler, body []byte) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/plain, */*")
	return do(h, req)
}

func do(h http.Handler, req *http.Request) *http.Response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func bodyOf(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// wire returns the fixture name of hooktest/fixtures as Claude Code sends
// it: compact, without the newline.
func wire(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "hooktest", "fixtures", name))
	require.NoError(t, err)
	v := jsontext.Value(b)
	require.NoError(t, v.Compact())
	return v
}

func fixtureNames(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("..", "hooktest", "fixtures", "*.json"))
	require.NoError(t, err)
	require.Greater(t, len(names), 70)
	for i, n := range names {
		names[i] = filepath.Base(n)
	}
	return names
}

func eventNameOf(t *testing.T, b []byte) string {
	t.Helper()
	v, ok := testutil.MemberOf(b, "hook_event_name")
	require.True(t, ok)
	return strings.Trim(v, `"`)
}

// TestHTTPAnswerIsTheCommandHooksStdout serves the same handler as a
// command hook and as an http hook on the same input: the body is the
// command hook's stdout without its newline, byte for byte.
func TestHTTPAnswerIsTheCommandHooksStdout(t *testing.T) {
	in := testutil.PreToolUse("mcp__probe__listen_here", `{"room":"\ud800 K\u00f6ln","n":1.0e+2,"deep":{"a":[1,{"b":"\u2028"}]}}`)
	code, stdout, stderr := testutil.Serve(t, testutil.AddFingerprint, in)
	require.Equal(t, 0, code, stderr)
	resp := postHook(t, hookhttp.Handler(testutil.AddFingerprint, nil), bytes.TrimSuffix(in, []byte("\n")))
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	assert.Equal(t, strings.TrimSuffix(stdout, "\n"), bodyOf(t, resp))
}

// TestHTTPMuxAndChainUnchanged serves a Mux of a fail-closed guard and a
// Chain of two rewriters, for every tool, over both transports.
func TestHTTPMuxAndChainUnchanged(t *testing.T) {
	m := hook.NewMux()
	m.Handle("PreToolUse Bash", hook.FailClosed(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		if strings.Contains(in.Command, "rm -rf /") {
			return nil, hook.Block("no rm -rf /")
		}
		if strings.Contains(in.Command, "panic") {
			panic("guard broke")
		}
		return nil, nil
	})))
	m.Handle("PreToolUse mcp__.*", hook.Chain(
		testutil.AddFingerprint,
		hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]int{"second": 2})
			if err != nil {
				return nil, err
			}
			return &hook.PreToolUseOutput{UpdatedInput: upd, AdditionalContext: "chained"}, nil
		}),
	))
	h := hookhttp.Handler(m, nil)
	cases := []struct {
		name, tool, input string
		want              func(t *testing.T, stdout, body string)
	}{
		{"rewrite", "mcp__probe__listen_here", `{"room":"a\"b"}`, func(t *testing.T, stdout, body string) {
			assert.Equal(t, strings.TrimSuffix(stdout, "\n"), body)
			assert.Contains(t, body, `"second":2`)
			assert.Contains(t, body, `"fingerprint":"6689668a49dc648b"`)
		}},
		{"allowed", "Bash", `{"command":"ls"}`, func(t *testing.T, stdout, body string) {
			assert.Empty(t, stdout)
			assert.Empty(t, body)
		}},
		{"denied", "Bash", `{"command":"rm -rf /"}`, func(t *testing.T, _, body string) {
			assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf /"}}`, body)
		}},
		{"panic fails closed", "Bash", `{"command":"panic"}`, func(t *testing.T, _, body string) {
			reason, ok := testutil.PathOf([]byte(body), "hookSpecificOutput", "permissionDecisionReason")
			require.True(t, ok, body)
			assert.Contains(t, reason, "the PreToolUse handler panicked: guard broke")
			dec, _ := testutil.PathOf([]byte(body), "hookSpecificOutput", "permissionDecision")
			assert.Equal(t, `"deny"`, dec)
		}},
		{"other tool", "Read", `{"file_path":"/x"}`, func(t *testing.T, stdout, body string) {
			assert.Empty(t, stdout)
			assert.Empty(t, body)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := testutil.PreToolUse(tc.tool, tc.input)
			_, stdout, _ := testutil.Serve(t, m, in)
			resp := postHook(t, h, in)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			tc.want(t, stdout, bodyOf(t, resp))
		})
	}
}

// TestHTTPBlockFormOfEveryEvent blocks every fixture's event and checks
// the JSON block form written with a 200.
func TestHTTPBlockFormOfEveryEvent(t *testing.T) {
	h := hookhttp.Handler(hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		return nil, hook.Block("stop \"here\"\nnow")
	}), nil)
	for _, name := range fixtureNames(t) {
		t.Run(name, func(t *testing.T) {
			in := wire(t, name)
			event := eventNameOf(t, in)
			resp := postHook(t, h, in)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			body := bodyOf(t, resp)
			switch event {
			case hook.EventPermissionRequest:
				assert.Empty(t, body, "PermissionRequest ignores a block, as it ignores exit code 2")
			case hook.EventPreToolUse, hook.EventPreSkillShellCommand, hook.EventPreModelSwitch:
				assert.JSONEq(t, `{"hookSpecificOutput":{"hookEventName":"`+event+`","permissionDecision":"deny","permissionDecisionReason":"stop \"here\" now"}}`, body)
			default:
				assert.JSONEq(t, `{"decision":"block","reason":"stop \"here\" now"}`, body)
			}
		})
	}
}

// TestHTTPNilAnswerIsAnEmpty200 answers every event with nothing.
func TestHTTPNilAnswerIsAnEmpty200(t *testing.T) {
	for _, h := range []hook.Handler{
		nil,
		hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil }),
		hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			return (*hook.PreToolUseOutput)(nil), nil
		}),
		hook.NewMux(),
	} {
		hh := hookhttp.Handler(h, nil)
		for _, name := range fixtureNames(t) {
			resp := postHook(t, hh, wire(t, name))
			assert.Equal(t, http.StatusOK, resp.StatusCode, name)
			assert.Empty(t, bodyOf(t, resp), name)
			assert.Equal(t, "0", resp.Header.Get("Content-Length"))
		}
	}
}

// TestHTTPPlainTextAnswers sends the command hook's plain-text answers as
// their JSON forms.
func TestHTTPPlainTextAnswers(t *testing.T) {
	cases := []struct {
		fixture string
		out     hook.Output
		want    string
	}{
		{"userpromptsubmit.json", &hook.UserPromptSubmitOutput{Text: "  the build is red \n"},
			`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"the build is red"}}`},
		{"userpromptexpansion.json", &hook.UserPromptExpansionOutput{Text: "ctx"},
			`{"hookSpecificOutput":{"hookEventName":"UserPromptExpansion","additionalContext":"ctx"}}`},
		{"sessionstart-startup.json", &hook.SessionStartOutput{Text: "hello"},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"hello"}}`},
		{"postmodelswitch.json", &hook.PostModelSwitchOutput{Text: "new model"},
			`{"hookSpecificOutput":{"hookEventName":"PostModelSwitch","additionalContext":"new model"}}`},
		{"worktreecreate.json", &hook.WorktreeCreateOutput{WorktreePath: "/tmp/wt/feature"},
			`{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/tmp/wt/feature"}}`},
		{"worktreecreate.json", &hook.WorktreeCreateOutput{WorktreePath: "/tmp/wt/feature", JSONForm: true},
			`{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/tmp/wt/feature"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			out := tc.out
			resp := postHook(t, hookhttp.Handler(hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return out, nil }), nil), wire(t, tc.fixture))
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.JSONEq(t, tc.want, bodyOf(t, resp))
		})
	}
}

// TestHTTPAnswersWithoutAnHTTPForm refuses the answers an http hook cannot
// carry, and the answers a command hook refuses, with the command hook's
// messages: a 500 when failing open, a block when failing closed.
func TestHTTPAnswersWithoutAnHTTPForm(t *testing.T) {
	cases := []struct {
		fixture string
		out     hook.Output
		msg     string
	}{
		{"precompact-auto.json", &hook.PreCompactOutput{Text: "keep the plan"}, "JSON has no field for the text"},
		{"postcompact.json", &hook.PostCompactOutput{Text: "done"}, "JSON has no field for the text"},
		{"pretooluse-bash.json", hook.Async{}, "Async detaches a command hook's process"},
		{"stop.json", &hook.Async{}, "Async detaches a command hook's process"},
		{"userpromptsubmit.json", &hook.UserPromptSubmitOutput{Text: "x", Block: true}, "Text is a plain-text answer and must be the whole answer"},
		{"userpromptsubmit.json", &hook.UserPromptSubmitOutput{Text: "{\"a\":1}"}, "Text starts with"},
		{"pretooluse-bash.json", &hook.StopOutput{Block: true}, "cannot answer a PreToolUse event"},
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			out := tc.out
			h := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return out, nil })
			resp := postHook(t, hookhttp.Handler(h, quiet), wire(t, tc.fixture))
			assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
			assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
			body := bodyOf(t, resp)
			assert.True(t, strings.HasPrefix(body, "hook: invalid answer to "), body)
			assert.Contains(t, body, tc.msg)
			assert.Equal(t, 1, strings.Count(body, "\n"))

			in := wire(t, tc.fixture)
			resp = postHook(t, hookhttp.Handler(hook.FailClosed(h), quiet), in)
			body = bodyOf(t, resp)
			if !protocol.CanBlockEvent(eventNameOf(t, in)) {
				assert.Equal(t, http.StatusInternalServerError, resp.StatusCode, "an event that cannot block fails open")
				return
			}
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Contains(t, body, tc.msg)
			assert.True(t, strings.Contains(body, `"permissionDecision":"deny"`) || strings.Contains(body, `"decision":"block"`), body)
		})
	}
}

// TestHTTPFailures covers the handler's failures, open and closed.
func TestHTTPFailures(t *testing.T) {
	failures := map[string]hook.Handler{
		"error": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			return nil, errors.New("database down")
		}),
		"panic": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			panic("database down")
		}),
		"panic in Error": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			return nil, panicError{}
		}),
		"invalid answer": hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
			return &hook.PreToolUseOutput{Reason: "database down"}, nil
		}),
	}
	in := testutil.PreToolUse("Bash", `{"command":"ls"}`)
	for name, h := range failures {
		t.Run(name, func(t *testing.T) {
			var log bytes.Buffer
			logger := slog.New(slog.NewJSONHandler(&log, nil))
			resp := postHook(t, hookhttp.Handler(h, &hookhttp.Options{Logger: logger}), in)
			assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
			body := bodyOf(t, resp)
			assert.True(t, strings.HasPrefix(body, "hook: "), body)
			assert.NotContains(t, body, "goroutine ", "no stack trace")
			assert.Contains(t, log.String(), `"level":"ERROR"`)
			assert.Contains(t, log.String(), `"decision":"error"`)

			for _, hh := range []http.Handler{
				hookhttp.Handler(hook.FailClosed(h), nil),
				hookhttp.ServerHandler(&hook.Server{FailClosed: true}, h, nil),
			} {
				resp = postHook(t, hh, in)
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				body := bodyOf(t, resp)
				dec, _ := testutil.PathOf([]byte(body), "hookSpecificOutput", "permissionDecision")
				assert.Equal(t, `"deny"`, dec, body)
				reason, _ := testutil.PathOf([]byte(body), "hookSpecificOutput", "permissionDecisionReason")
				assert.True(t, strings.HasPrefix(reason, `"hook: `), reason)
			}
		})
	}
}

type panicError struct{}

func (panicError) Error() string { panic("Error broke") }

// TestHTTPBadRequests sends what Claude Code never sends.
func TestHTTPBadRequests(t *testing.T) {
	good := testutil.PreToolUse("Bash", `{"command":"ls"}`)
	h := hookhttp.ServerHandler(&hook.Server{MaxInputBytes: 1000}, testutil.AddFingerprint, quiet)
	closed := hookhttp.ServerHandler(&hook.Server{MaxInputBytes: 1000, FailClosed: true}, testutil.AddFingerprint, quiet)

	req := httptest.NewRequest(http.MethodGet, "/", nil)
	resp := do(h, req)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))
	assert.Equal(t, "hook: an http hook is called with POST, not GET\n", bodyOf(t, resp))

	for _, ct := range []string{"", "text/plain", "application/jsonx", "multipart/form-data; boundary=x", "application/json; charset"} {
		req = httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(good))
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp = do(closed, req)
		assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode, ct)
		assert.Contains(t, bodyOf(t, resp), "the body must be application/json", ct)
	}
	req = httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(good))
	req.Header.Set("Content-Type", "Application/JSON; charset=utf-8")
	assert.Equal(t, http.StatusOK, do(h, req).StatusCode, "media type parameters and case are fine")

	big := testutil.PreToolUse("Bash", `{"command":"`+strings.Repeat("x", 1000)+`"}`)
	resp = postHook(t, h, big)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.Contains(t, bodyOf(t, resp), "larger than the 1000-byte limit")
	// Without a Content-Length (chunked), the cap holds while reading.
	req = httptest.NewRequest(http.MethodPost, "/", io.MultiReader(bytes.NewReader(big)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	resp = do(h, req)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.Contains(t, bodyOf(t, resp), "larger than the 1000-byte limit")
	resp = postHook(t, closed, big)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"decision":"block","reason":"hook: the input is larger than the 1000-byte limit (raise Server.MaxInputBytes)"}`, bodyOf(t, resp))

	for _, bad := range []string{"", "   ", "not json", "[1,2]", `{"a":1`, `{"a":1}{"b":2}`, `{"a":1,"a":2}`, "{\"hook_event_name\":\"Stop\",\"x\":\"\xff\"}", `{"cwd":"/x"}`} {
		resp = postHook(t, h, []byte(bad))
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, bad)
		body := bodyOf(t, resp)
		assert.True(t, strings.HasPrefix(body, "hook: "), body)
		resp = postHook(t, closed, []byte(bad))
		assert.Equal(t, http.StatusOK, resp.StatusCode, bad)
		assert.Contains(t, bodyOf(t, resp), `"decision":"block"`, bad)
	}
}

// TestHTTPAuth checks the shared secret.
func TestHTTPAuth(t *testing.T) {
	h := hookhttp.Handler(testutil.AddFingerprint, &hookhttp.Options{BearerToken: "s3cret", Logger: slog.New(slog.DiscardHandler)})
	in := testutil.PreToolUse("mcp__p__listen_here", `{"room":"r"}`)
	for _, tc := range []struct {
		auth []string
		ok   bool
	}{
		{nil, false},
		{[]string{""}, false},
		{[]string{"Bearer "}, false},
		{[]string{"Bearer s3cre"}, false},
		{[]string{"Bearer s3cret "}, false},
		{[]string{"bearer s3cret"}, false},
		{[]string{"Bearer s3cret", "Bearer s3cret"}, false},
		{[]string{"Bearer s3cret"}, true},
	} {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(in))
		req.Header.Set("Content-Type", "application/json")
		for _, a := range tc.auth {
			req.Header.Add("Authorization", a)
		}
		resp := do(h, req)
		if tc.ok {
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Contains(t, bodyOf(t, resp), "fingerprint")
			continue
		}
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, tc.auth)
		assert.Equal(t, "hook: missing or wrong Authorization header\n", bodyOf(t, resp))
		assert.NotEmpty(t, resp.Header.Get("WWW-Authenticate"))
	}

	// A header of its own, alone and beside the bearer token.
	post := func(h http.Handler, headers map[string]string) int {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(in))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		return do(h, req).StatusCode
	}
	h = hookhttp.Handler(testutil.AddFingerprint, &hookhttp.Options{Header: "x-hook-key", HeaderValue: "k"})
	assert.Equal(t, http.StatusOK, post(h, map[string]string{"X-Hook-Key": "k"}))
	assert.Equal(t, http.StatusUnauthorized, post(h, map[string]string{"X-Hook-Key": "K"}))
	assert.Equal(t, http.StatusUnauthorized, post(h, nil))
	both := hookhttp.Handler(testutil.AddFingerprint, &hookhttp.Options{BearerToken: "s3cret", Header: "X-Hook-Key", HeaderValue: "k", Logger: slog.New(slog.DiscardHandler)})
	assert.Equal(t, http.StatusOK, post(both, map[string]string{"X-Hook-Key": "k", "Authorization": "Bearer s3cret"}))
	assert.Equal(t, http.StatusUnauthorized, post(both, map[string]string{"X-Hook-Key": "k"}))
	assert.Equal(t, http.StatusUnauthorized, post(both, map[string]string{"Authorization": "Bearer s3cret"}))

	// The zero Options, and nil, require nothing.
	assert.Equal(t, http.StatusOK, post(hookhttp.Handler(testutil.AddFingerprint, &hookhttp.Options{}), nil))
	assert.Equal(t, http.StatusOK, post(hookhttp.Handler(testutil.AddFingerprint, nil), nil))

	assert.Panics(t, func() { hookhttp.Handler(testutil.AddFingerprint, &hookhttp.Options{Header: "X"}) })
	assert.Panics(t, func() { hookhttp.Handler(testutil.AddFingerprint, &hookhttp.Options{HeaderValue: "x"}) })
}

// TestHTTPOptionsCopied checks that changing the Options after the
// handler was made changes nothing.
func TestHTTPOptionsCopied(t *testing.T) {
	opts := &hookhttp.Options{BearerToken: "s3cret", Logger: slog.New(slog.DiscardHandler)}
	h := hookhttp.Handler(testutil.AddFingerprint, opts)
	opts.BearerToken = ""
	resp := postHook(t, h, testutil.PreToolUse("mcp__p__listen_here", `{"room":"r"}`))
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

// TestHTTPLogLine checks the one line per request.
func TestHTTPLogLine(t *testing.T) {
	var log bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&log, nil))
	h := hookhttp.Handler(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if e.ToolName == "Bash" {
			return nil, hook.Block("no shell")
		}
		return nil, nil
	}), &hookhttp.Options{Logger: logger})
	postHook(t, h, testutil.PreToolUse("Bash", `{"command":"ls"}`))
	postHook(t, h, testutil.PreToolUse("Read", `{"file_path":"/x"}`))
	postHook(t, hookhttp.Handler(testutil.AddFingerprint, &hookhttp.Options{Logger: logger}), testutil.PreToolUse("mcp__p__listen_here", `{"room":"r"}`))
	postHook(t, hookhttp.Handler(hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		return &hook.PermissionRequestOutput{Decision: hook.Deny, Message: "no"}, nil
	}), &hookhttp.Options{Logger: logger}), wire(t, "permissionrequest-bash.json"))
	postHook(t, hookhttp.Handler(hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		return &hook.PostToolUseOutput{AdditionalContext: "note"}, nil
	}), &hookhttp.Options{Logger: logger}), wire(t, "posttooluse-bash.json"))
	postHook(t, h, wire(t, "stop.json"))
	postHook(t, hookhttp.Handler(hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return nil, hook.Block("no")
	}), &hookhttp.Options{Logger: logger}), wire(t, "permissionrequest-bash.json"))
	do(h, httptest.NewRequest(http.MethodGet, "/", nil))
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	require.Len(t, lines, 8, log.String())
	want := []struct{ level, event, tool, decision, status, extra string }{
		{"INFO", "PreToolUse", "Bash", "block", "200", `"reason":"no shell"`},
		{"INFO", "PreToolUse", "Read", "none", "200", ""},
		{"INFO", "PreToolUse", "mcp__p__listen_here", "allow", "200", ""},
		{"INFO", "PermissionRequest", "Bash", "deny", "200", ""},
		{"INFO", "PostToolUse", "Bash", "answer", "200", ""},
		{"INFO", "Stop", "", "none", "200", ""},
		{"INFO", "PermissionRequest", "Bash", "ignored", "200", `"reason":"no"`},
		{"WARN", "", "", "refused", "405", ""},
	}
	for i, w := range want {
		l := []byte(lines[i])
		lv, _ := testutil.MemberOf(l, "level")
		assert.Equal(t, `"`+w.level+`"`, lv, lines[i])
		ev, ok := testutil.MemberOf(l, "event")
		assert.Equal(t, w.event != "", ok, lines[i])
		if ok {
			assert.Equal(t, `"`+w.event+`"`, ev)
		}
		tool, ok := testutil.MemberOf(l, "tool")
		assert.Equal(t, w.tool != "", ok, lines[i])
		if ok {
			assert.Equal(t, `"`+w.tool+`"`, tool)
		}
		dec, _ := testutil.MemberOf(l, "decision")
		assert.Equal(t, `"`+w.decision+`"`, dec)
		st, _ := testutil.MemberOf(l, "status")
		assert.Equal(t, w.status, st)
		_, ok = testutil.MemberOf(l, "duration")
		assert.True(t, ok)
		assert.Contains(t, lines[i], w.extra)
	}
}

// TestHTTPServerHandlerSettings checks that ServerHandler takes the
// Server's handler when given none, and copies the settings.
func TestHTTPServerHandlerSettings(t *testing.T) {
	s := &hook.Server{Handler: testutil.AddFingerprint, MaxInputBytes: 100}
	h := hookhttp.ServerHandler(s, nil, quiet)
	s.MaxInputBytes = 0
	s.Handler = nil
	in := testutil.PreToolUse("mcp__p__listen_here", `{"room":"r"}`)
	resp := postHook(t, h, in)
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, "the cap was copied")
	h = hookhttp.ServerHandler(&hook.Server{Handler: testutil.AddFingerprint}, nil, nil)
	resp = postHook(t, h, in)
	assert.Contains(t, bodyOf(t, resp), "fingerprint")
}
