package e2e_test

// End-to-end tests of http hooks: the real Claude Code posts each event to
// a server on 127.0.0.1 that the test starts, built with hook.HTTPHandler.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	gohook "github.com/gohooks/hook"
	"github.com/gohooks/hook/e2e"
	"github.com/gohooks/hook/hooktest"
)

// httpCall is one request an http hook server got, and its answer.
type httpCall struct {
	Method, ContentType, Auth string
	Body                      []byte
	Status                    int
	Answer                    []byte
}

// hookRecorder serves next and records every call, in arrival order.
type hookRecorder struct {
	next  http.Handler
	mu    sync.Mutex
	calls []httpCall
}

func (rec *hookRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	cw := &captureWriter{ResponseWriter: w}
	rec.next.ServeHTTP(cw, r)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.calls = append(rec.calls, httpCall{Method: r.Method, ContentType: r.Header.Get("Content-Type"), Auth: r.Header.Get("Authorization"), Body: body, Status: cw.status, Answer: cw.body.Bytes()})
}

func (rec *hookRecorder) Calls() []httpCall {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]httpCall(nil), rec.calls...)
}

type captureWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (c *captureWriter) WriteHeader(s int) { c.status = s; c.ResponseWriter.WriteHeader(s) }
func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body.Write(b)
	return c.ResponseWriter.Write(b)
}

// startHookServer serves h on a loopback port for the test's lifetime,
// recording the calls.
func startHookServer(t *testing.T, h http.Handler) (string, *hookRecorder) {
	t.Helper()
	rec := &hookRecorder{next: h}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	return srv.URL + "/hook", rec
}

// startExampleServer runs the built examples/httpserver with token on a
// free loopback port and returns its URL. At the end of the test it sends
// SIGTERM and checks that the server shut down cleanly.
func startExampleServer(t *testing.T, token string) string {
	t.Helper()
	cmd := exec.Command(harness.Path("httpserver"), "-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "HOOK_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	var (
		log  bytes.Buffer
		mu   sync.Mutex
		addr = make(chan string, 1)
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			log.WriteString(line + "\n")
			mu.Unlock()
			if _, rest, ok := strings.Cut(line, " url="); ok && strings.Contains(line, `msg="serving hooks"`) {
				addr <- strings.Fields(rest)[0]
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		<-done
		mu.Lock()
		defer mu.Unlock()
		assert.NoError(t, err, "httpserver's exit after SIGTERM; log:\n%s", log.String())
		assert.Contains(t, log.String(), `msg="shutting down"`)
		if t.Failed() {
			t.Logf("httpserver log:\n%s", log.String())
		}
	})
	select {
	case u := <-addr:
		return u
	case <-done:
		t.Fatalf("httpserver did not start:\n%s", log.String())
	case <-time.After(30 * time.Second):
		t.Fatal("httpserver did not say where it listens")
	}
	return ""
}

// httpHookEntry is one http hook in the settings.
type httpHookEntry struct {
	Event, Matcher, URL string
	Headers             map[string]string
	AllowedEnvVars      []string
	OnFailure           string
}

// httpSettings returns a Setup that replaces the project's settings with
// http hooks; env is the settings' env block (nil for none).
func httpSettings(entries []httpHookEntry, env map[string]string) func(r *e2e.Run) error {
	return func(r *e2e.Run) error {
		type handler struct {
			Type           string            `json:"type"`
			URL            string            `json:"url"`
			Timeout        int               `json:"timeout"`
			Headers        map[string]string `json:"headers,omitempty"`
			AllowedEnvVars []string          `json:"allowedEnvVars,omitempty"`
			OnFailure      string            `json:"onFailure,omitempty"`
		}
		type group struct {
			Matcher string    `json:"matcher,omitempty"`
			Hooks   []handler `json:"hooks"`
		}
		hooks := map[string][]group{}
		for _, e := range entries {
			hooks[e.Event] = append(hooks[e.Event], group{Matcher: e.Matcher, Hooks: []handler{{"http", e.URL, 30, e.Headers, e.AllowedEnvVars, e.OnFailure}}})
		}
		settings := map[string]any{"permissions": map[string]any{"allow": e2e.DefaultAllow}, "hooks": hooks}
		if env != nil {
			settings["env"] = env
		}
		b, err := json.Marshal(settings, json.Deterministic(true))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(r.Project, ".claude", "settings.json"), b, 0o644)
	}
}

// TestHTTPHookFingerprintTrickyRooms is TestFingerprintTrickyRooms with the
// fingerprint served by examples/httpserver over HTTP, behind a bearer
// token that the settings fill from their env block through
// allowedEnvVars. Every room reaches the MCP server byte for byte, with
// the fingerprint of the project folder.
func TestHTTPHookFingerprintTrickyRooms(t *testing.T) {
	needE2E(t)
	rooms := trickyRooms()
	require.GreaterOrEqual(t, len(rooms), 20, "string values in hooktest.TrickyValues")
	const perRun = 10
	for start := 0; start < len(rooms); start += perRun {
		batch := rooms[start:min(start+perRun, len(rooms))]
		t.Run(fmt.Sprintf("rooms%d-%d", start+1, start+len(batch)), func(t *testing.T) {
			t.Parallel()
			checkHTTPFingerprintRooms(t, batch)
		})
	}
}

func checkHTTPFingerprintRooms(t *testing.T, rooms []hooktest.Tricky) {
	const token = "e2e-token-7f3a"
	backend, err := url.Parse(startExampleServer(t, token))
	require.NoError(t, err)
	hookURL, rec := startHookServer(t, httputil.NewSingleHostReverseProxy(backend))
	var script e2e.Script
	for _, room := range rooms {
		script.Turns = append(script.Turns, e2e.Turn{{Tool: e2e.ProbeTool, Input: `{"room":` + string(room.JSON) + `}`}})
	}
	r := run(t, e2e.Case{
		Script: script,
		Setup: httpSettings([]httpHookEntry{{
			Event: "PreToolUse", Matcher: e2e.ProbeTool, URL: hookURL,
			Headers:        map[string]string{"Authorization": "Bearer $HOOK_TOKEN"},
			AllowedEnvVars: []string{"HOOK_TOKEN"},
		}}, map[string]string{"HOOK_TOKEN": token}),
	})
	calls, err := r.Probe()
	require.NoError(t, err)
	pre := rec.Calls()
	require.Len(t, pre, len(rooms), "http hook calls")
	require.Len(t, calls, len(rooms), "calls the MCP server received")
	wantPrint := fingerprintOf(r.Project)
	for i, room := range rooms {
		t.Run(room.Name, func(t *testing.T) {
			want, err := e2e.ParseJSString(room.JSON)
			require.NoError(t, err)
			wantBytes := want.Stringify()

			// What the hook server got and answered.
			h := pre[i]
			assert.Equal(t, http.MethodPost, h.Method)
			assert.Equal(t, "application/json", h.ContentType)
			assert.Equal(t, "Bearer "+token, h.Auth, "the token from the settings' env through allowedEnvVars")
			assert.Equal(t, http.StatusOK, h.Status, "answer %s", h.Answer)
			in, ok := e2e.Member(h.Body, "tool_input")
			require.True(t, ok, "tool_input in the request %s", h.Body)
			inRoom, ok := e2e.Member(in, "room")
			require.True(t, ok)
			assert.Equal(t, string(wantBytes), string(inRoom), "room bytes in the request")
			upd, ok := e2e.Path(h.Answer, "hookSpecificOutput", "updatedInput")
			require.True(t, ok, "updatedInput in the answer %s", h.Answer)
			assert.NoError(t, hooktest.CheckPreserved(in, upd, "fingerprint"))

			// What the MCP server got.
			c := calls[i]
			gotRoom, ok := e2e.Member(c.Arguments, "room")
			require.True(t, ok, "room in the server's arguments %s", c.Arguments)
			got, err := e2e.ParseJSString(gotRoom)
			require.NoError(t, err)
			assert.True(t, want.Equal(got), "room the server got: %q, want %q", got.String(), want.String())
			assert.Equal(t, string(wantBytes), string(gotRoom), "room bytes the server got")
			fp, ok := e2e.Member(c.Arguments, "fingerprint")
			require.True(t, ok, "fingerprint in the server's arguments %s", c.Arguments)
			assert.Equal(t, `"`+wantPrint+`"`, string(fp))
			assert.NoError(t, hooktest.CheckPreserved(upd, c.Arguments), "the server got the hook's updatedInput")

			res, ok := r.API.ToolResult(e2e.CallID(i + 1))
			require.True(t, ok, "tool_result for call %d", i+1)
			assert.False(t, res.IsError, "tool_result: %s", res.ContentText())
			assert.Equal(t, "listening", res.ContentText())
		})
	}
}

// TestHTTPHookBashguard: examples/httpserver's guard denies over HTTP, the
// model gets its reason, the command never runs; an ordinary command,
// rewritten under `timeout 600`, runs; a request without the token is
// refused with 401, which Claude Code lets through unless the hook says
// "onFailure": "block".
func TestHTTPHookBashguard(t *testing.T) {
	needE2E(t)
	t.Parallel()
	const token = "e2e-guard-token"
	srvURL := startExampleServer(t, token)
	hookURL, rec := startHookServer(t, httputil.NewSingleHostReverseProxy(mustParse(t, srvURL)))
	cmds := []string{
		`echo ran > marker1.txt && rm -rf "$PWD"`,
		`echo ran > marker2.txt; git push --force origin main`,
		`echo ran > allowed.txt && rm -rf ./build`,
	}
	var script e2e.Script
	for _, c := range cmds {
		script.Turns = append(script.Turns, e2e.Turn{bash(t, c)})
	}
	r := run(t, e2e.Case{
		Script: script,
		Setup: func(r *e2e.Run) error {
			if err := os.MkdirAll(filepath.Join(r.Project, "build", "obj"), 0o755); err != nil {
				return err
			}
			return httpSettings([]httpHookEntry{{
				Event: "PreToolUse", Matcher: "Bash", URL: hookURL,
				Headers: map[string]string{"Authorization": "Bearer " + token},
			}}, nil)(r)
		},
	})
	pre := rec.Calls()
	require.Len(t, pre, 3, "http hook calls")
	wants := []string{
		"bashguard blocked `rm -rf \"$PWD\"`: it would delete the session's working folder (" + r.Project + ").",
		"bashguard blocked `git push --force origin main`: a force push to main rewrites the shared history",
	}
	for i, want := range wants {
		h := pre[i]
		assert.Equal(t, http.StatusOK, h.Status)
		assert.Equal(t, `"deny"`, string(field(t, h.Answer, "hookSpecificOutput", "permissionDecision")))
		reason := str(t, field(t, h.Answer, "hookSpecificOutput", "permissionDecisionReason"))
		assert.Contains(t, reason, want)
		res, ok := r.API.ToolResult(e2e.CallID(i + 1))
		require.True(t, ok, "tool_result %d", i+1)
		assert.True(t, res.IsError)
		assert.Equal(t, "PreToolUse:Bash hook error: "+reason, res.ContentText(), "the model is told the guard's reason")
		_, ran := r.File("marker" + string(rune('1'+i)) + ".txt")
		assert.False(t, ran, "the blocked command ran")
	}
	assert.Empty(t, pre[2].Answer, "no answer for an ordinary command")
	out, ok := r.File("allowed.txt")
	assert.True(t, ok, "the allowed command did not run")
	assert.Equal(t, "ran\n", out)
	_, err := os.Stat(filepath.Join(r.Project, "build"))
	assert.True(t, os.IsNotExist(err), "rm -rf ./build ran")
	res, ok := r.API.ToolResult(e2e.CallID(3))
	require.True(t, ok)
	assert.False(t, res.IsError, res.ContentText())
}

// TestHTTPHookFailures: a fail-closed handler that panics blocks the call
// (200 with a deny); the same panic failing open is a 500, and the call
// goes on; an empty answer lets the call go on; a Block on PostToolUse
// and on Stop reaches the model as decision "block"; a UserPromptSubmit
// Text answer reaches it as additionalContext.
func TestHTTPHookFailures(t *testing.T) {
	needE2E(t)
	t.Parallel()
	// panicsOn panics on the Bash commands that hold word.
	panicsOn := func(word string) gohook.Handler {
		return gohook.PreToolUseFunc(func(ctx context.Context, e *gohook.PreToolUse) (*gohook.PreToolUseOutput, error) {
			in, err := gohook.DecodeView[gohook.BashInput](e.ToolInput)
			if err != nil {
				return nil, err
			}
			if strings.Contains(in.Command, word) {
				panic("the guard's rules are corrupt")
			}
			return nil, nil
		})
	}
	quiet := gohook.HTTPLogger(nil)
	closedURL, closedRec := startHookServer(t, gohook.HTTPHandler(gohook.FailClosed(panicsOn("closed-panic")), quiet))
	openURL, openRec := startHookServer(t, gohook.HTTPHandler(panicsOn("open-panic"), quiet))
	stopped := false
	var mu sync.Mutex
	post := gohook.NewMux()
	post.Handle("PostToolUse Bash", gohook.PostToolUseFunc(func(ctx context.Context, e *gohook.PostToolUse) (*gohook.PostToolUseOutput, error) {
		return nil, gohook.Block("post-check: the output needs review")
	}))
	post.Handle("Stop", gohook.StopFunc(func(ctx context.Context, e *gohook.Stop) (*gohook.StopOutput, error) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return nil, nil
		}
		stopped = true
		return nil, gohook.Block("stop-check: write done.txt first")
	}))
	post.Handle("UserPromptSubmit", gohook.UserPromptSubmitFunc(func(ctx context.Context, e *gohook.UserPromptSubmit) (*gohook.UserPromptSubmitOutput, error) {
		return &gohook.UserPromptSubmitOutput{Text: "prompt-note: the plain text went as additionalContext"}, nil
	}))
	postURL, postRec := startHookServer(t, gohook.HTTPHandler(post, quiet))

	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{
			{bash(t, "echo ran > closed.txt # closed-panic")},
			{bash(t, "echo ran > open.txt # open-panic")},
			{bash(t, "echo ran > plain.txt")},
		}},
		Setup: httpSettings([]httpHookEntry{
			{Event: "PreToolUse", Matcher: "Bash", URL: closedURL},
			{Event: "PreToolUse", Matcher: "Bash", URL: openURL},
			{Event: "PostToolUse", Matcher: "Bash", URL: postURL},
			{Event: "Stop", URL: postURL},
			{Event: "UserPromptSubmit", URL: postURL},
		}, nil),
	})
	// Both PreToolUse servers get all three calls.
	closed, open := closedRec.Calls(), openRec.Calls()
	require.Len(t, closed, 3)
	require.Len(t, open, 3)
	assert.Equal(t, http.StatusOK, closed[0].Status)
	reason := str(t, field(t, closed[0].Answer, "hookSpecificOutput", "permissionDecisionReason"))
	assert.Contains(t, reason, "the PreToolUse handler panicked: the guard's rules are corrupt")
	assert.Equal(t, http.StatusOK, open[0].Status)
	res, ok := r.API.ToolResult(e2e.CallID(1))
	require.True(t, ok)
	assert.True(t, res.IsError)
	assert.Contains(t, res.ContentText(), reason, "the model is told why")
	_, ran := r.File("closed.txt")
	assert.False(t, ran, "a fail-closed panic let the command run")

	// Failing open: a 500 from one hook, an empty 200 from the other.
	assert.Equal(t, http.StatusInternalServerError, open[1].Status)
	assert.Contains(t, string(open[1].Answer), "panicked")
	assert.Equal(t, http.StatusOK, closed[1].Status)
	assert.Empty(t, closed[1].Answer)
	out, ok := r.File("open.txt")
	assert.True(t, ok, "a 500 blocked the command")
	assert.Equal(t, "ran\n", out)

	// Empty answers from both: the command runs.
	assert.Empty(t, closed[2].Answer)
	assert.Empty(t, open[2].Answer)
	assert.Equal(t, http.StatusOK, open[2].Status)
	_, ran = r.File("plain.txt")
	assert.True(t, ran, "an empty answer blocked the command")
	res, ok = r.API.ToolResult(e2e.CallID(3))
	require.True(t, ok)
	assert.False(t, res.IsError, res.ContentText())

	// PostToolUse and Stop blocks.
	var posts, stops, prompts int
	for _, c := range postRec.Calls() {
		assert.Equal(t, http.StatusOK, c.Status)
		switch {
		case strings.Contains(string(c.Body), `"hook_event_name":"Stop"`):
			stops++
		case strings.Contains(string(c.Body), `"hook_event_name":"UserPromptSubmit"`):
			prompts++
			assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"prompt-note: the plain text went as additionalContext"}}`, string(c.Answer))
		default:
			posts++
		}
	}
	assert.Equal(t, 1, prompts, "UserPromptSubmit calls")
	assert.True(t, r.API.ModelSaw("prompt-note: the plain text went as additionalContext"), "a Text answer reached the model as context")
	assert.Equal(t, 2, posts, "PostToolUse calls (the two commands that ran)")
	assert.True(t, r.API.ModelSaw("post-check: the output needs review"), "the PostToolUse block's reason reached the model")
	assert.True(t, r.API.ModelSaw("stop-check: write done.txt first"), "the Stop block's reason reached the model")
	assert.Equal(t, 2, stops, "Stop calls: the block made Claude go on once")
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}
