package e2e_test

// End-to-end tests of package hookhttp: the real Claude Code posts each
// event to a server on 127.0.0.1 built with the library, either
// examples/httpserver as its own process or a handler in the test.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	gohook "github.com/gohooks/hook"
	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hookhttp"
	"github.com/gohooks/hook/hooktest"
)

// startExampleServer builds and runs examples/httpserver with token on a
// free loopback port and returns a handler that forwards to it. At the end
// of the test it sends SIGTERM and checks that the server shut down
// cleanly.
func startExampleServer(t *testing.T, token string) http.Handler {
	t.Helper()
	bin := hooktest.BuildGo(t, "../examples/httpserver")
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
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
		if err := sc.Err(); err != nil {
			mu.Lock()
			fmt.Fprintf(&log, "(reading the log: %v)\n", err)
			mu.Unlock()
			io.Copy(io.Discard, stderr) // keep the server from blocking on a full pipe
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		// Read the log to its end before Wait: Wait closes the pipe once
		// the process has exited, which can drop the last lines (the
		// "shutting down" one) still unread in the pipe.
		<-done
		err := cmd.Wait()
		mu.Lock()
		defer mu.Unlock()
		assert.NoError(t, err, "httpserver's exit after SIGTERM")
		assert.Contains(t, log.String(), `msg="shutting down"`)
		if t.Failed() {
			t.Logf("httpserver log:\n%s", log.String())
		}
	})
	select {
	case u := <-addr:
		target, err := url.Parse(u)
		require.NoError(t, err)
		return httputil.NewSingleHostReverseProxy(target)
	case <-done:
		t.Fatalf("httpserver did not start:\n%s", log.String())
	case <-time.After(30 * time.Second):
		t.Fatal("httpserver did not say where it listens")
	}
	return nil
}

// TestHTTPHandlerFingerprintTrickyRooms is TestFingerprintTrickyRooms with
// the fingerprint served by examples/httpserver over HTTP, behind a bearer
// token that the settings fill from their env block through
// allowedEnvVars (the server refuses a request without it with 401). Every
// room reaches the MCP server byte for byte, with the fingerprint of the
// project folder.
func TestHTTPHandlerFingerprintTrickyRooms(t *testing.T) {
	claudetest.Need(t)
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
	s := claudetest.Session{
		MCP: []claudetest.MCPServer{listenServer},
		Hooks: []claudetest.Hook{{
			Event: "PreToolUse", Matcher: "mcp__probe__listen_here", Name: "httpserver",
			Handler: startExampleServer(t, token),
			Options: map[string]any{
				"headers":        map[string]string{"Authorization": "Bearer $HOOK_TOKEN"},
				"allowedEnvVars": []string{"HOOK_TOKEN"},
			},
		}},
		Settings: map[string]any{"env": map[string]string{"HOOK_TOKEN": token}},
	}
	for _, room := range rooms {
		s.Turns = append(s.Turns, claudetest.Turn{claudetest.MCP("probe", "listen_here", `{"room":`+string(room.JSON)+`}`)})
	}
	r := claudetest.Run(t, s)
	checkRoomCalls(t, r, "httpserver", rooms, func(t *testing.T, h claudetest.HookRun) {
		assert.True(t, h.HTTP)
		assert.Equal(t, http.StatusOK, h.Code, "status (401: the token did not arrive); answer %s", h.Out)
	})
}

// TestHTTPHandlerBashguard: examples/httpserver's guard denies over HTTP,
// the model gets its reason, the command never runs; an ordinary command
// runs.
func TestHTTPHandlerBashguard(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	const token = "e2e-guard-token"
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{"build/obj/x.o": "obj"},
		Hooks: []claudetest.Hook{{
			Event: "PreToolUse", Matcher: "Bash", Name: "httpserver",
			Handler: startExampleServer(t, token),
			Options: map[string]any{"headers": map[string]string{"Authorization": "Bearer " + token}},
		}},
		Turns: []claudetest.Turn{
			{claudetest.Bash(`echo ran > marker1.txt && rm -rf "$PWD"`)},
			{claudetest.Bash(`echo ran > marker2.txt; git push --force origin main`)},
			{claudetest.Bash(`echo ran > allowed.txt && rm -rf ./build`)},
		},
	})
	hookRuns(t, r, "httpserver", "PreToolUse", 3)
	wants := []string{
		"bashguard blocked `rm -rf \"$PWD\"`: it would delete the session's working folder (" + r.Project + ").",
		"bashguard blocked `git push --force origin main`: a force push to main rewrites the shared history",
	}
	for i, want := range wants {
		h, ok := r.Call(i+1).Hook("httpserver", "PreToolUse")
		require.True(t, ok, "call %d: no PreToolUse run", i+1)
		assert.Equal(t, http.StatusOK, h.Code, "answer %s", h.Out)
		assert.Equal(t, `"deny"`, string(output(t, h, "hookSpecificOutput", "permissionDecision")))
		reason := str(t, output(t, h, "hookSpecificOutput", "permissionDecisionReason"))
		assert.Contains(t, reason, want)
		res := told(t, r, i+1)
		assert.True(t, res.IsError)
		assert.Equal(t, "PreToolUse:Bash hook error: "+reason, res.Text, "the model is told the guard's reason")
		_, ran := r.File("marker" + string(rune('1'+i)) + ".txt")
		assert.False(t, ran, "the blocked command ran")
	}
	h, _ := r.Call(3).Hook("httpserver", "PreToolUse")
	assert.Equal(t, http.StatusOK, h.Code)
	assert.Empty(t, h.Out, "no answer for an ordinary command")
	out, ok := r.File("allowed.txt")
	assert.True(t, ok, "the allowed command did not run")
	assert.Equal(t, "ran\n", out)
	_, ok = r.File("build/obj/x.o")
	assert.False(t, ok, "rm -rf ./build did not run")
	assert.False(t, told(t, r, 3).IsError)
}

// TestHTTPHandlerFailures: a fail-closed handler that panics blocks the
// call (200 with a deny); the same panic failing open is a 500, and the
// call goes on; an empty answer lets the call go on; a Block on
// PostToolUse and on Stop reaches the model as decision "block"; a
// UserPromptSubmit Text answer reaches it as additionalContext.
func TestHTTPHandlerFailures(t *testing.T) {
	claudetest.Need(t)
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
	quiet := &hookhttp.Options{Logger: slog.New(slog.DiscardHandler)}
	var (
		mu      sync.Mutex
		stopped bool
	)
	m := gohook.NewMux()
	m.Handle("PostToolUse Bash", gohook.PostToolUseFunc(func(ctx context.Context, e *gohook.PostToolUse) (*gohook.PostToolUseOutput, error) {
		return nil, gohook.Block("post-check: the output needs review")
	}))
	m.Handle("Stop", gohook.StopFunc(func(ctx context.Context, e *gohook.Stop) (*gohook.StopOutput, error) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return nil, nil
		}
		stopped = true
		return nil, gohook.Block("stop-check: write done.txt first")
	}))
	const note = "prompt-note: the plain text went as additionalContext"
	m.Handle("UserPromptSubmit", gohook.UserPromptSubmitFunc(func(ctx context.Context, e *gohook.UserPromptSubmit) (*gohook.UserPromptSubmitOutput, error) {
		return &gohook.UserPromptSubmitOutput{Text: note}, nil
	}))
	events := hookhttp.Handler(m, quiet)

	r := claudetest.Run(t, claudetest.Session{
		Hooks: []claudetest.Hook{
			{Event: "PreToolUse", Matcher: "Bash", Name: "closed", Handler: hookhttp.Handler(gohook.FailClosed(panicsOn("closed-panic")), quiet)},
			{Event: "PreToolUse", Matcher: "Bash", Name: "open", Handler: hookhttp.Handler(panicsOn("open-panic"), quiet)},
			{Event: "PostToolUse", Matcher: "Bash", Name: "events", Handler: events},
			{Event: "Stop", Name: "events", Handler: events},
			{Event: "UserPromptSubmit", Name: "events", Handler: events},
		},
		Turns: []claudetest.Turn{
			{claudetest.Bash("echo ran > closed.txt # closed-panic")},
			{claudetest.Bash("echo ran > open.txt # open-panic")},
			{claudetest.Bash("echo ran > plain.txt")},
		},
	})
	closed := hookRuns(t, r, "closed", "PreToolUse", 3)
	open := hookRuns(t, r, "open", "PreToolUse", 3)

	// Failing closed: a 200 with a deny.
	assert.Equal(t, http.StatusOK, closed[0].Code)
	reason := str(t, output(t, closed[0], "hookSpecificOutput", "permissionDecisionReason"))
	assert.Contains(t, reason, "the PreToolUse handler panicked: the guard's rules are corrupt")
	res := told(t, r, 1)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, reason, "the model is told why")
	_, ran := r.File("closed.txt")
	assert.False(t, ran, "a fail-closed panic let the command run")

	// Failing open: a 500 from one hook, an empty 200 from the other.
	assert.Equal(t, http.StatusInternalServerError, open[1].Code)
	assert.Contains(t, string(open[1].Out), "panicked")
	assert.Equal(t, http.StatusOK, closed[1].Code)
	assert.Empty(t, closed[1].Out)
	out, ok := r.File("open.txt")
	assert.True(t, ok, "a 500 blocked the command")
	assert.Equal(t, "ran\n", out)

	// Empty answers from both: the command runs.
	for _, h := range []claudetest.HookRun{closed[2], open[2]} {
		assert.Equal(t, http.StatusOK, h.Code)
		assert.Empty(t, h.Out)
	}
	_, ran = r.File("plain.txt")
	assert.True(t, ran, "an empty answer blocked the command")
	assert.False(t, told(t, r, 3).IsError)

	// PostToolUse and Stop blocks, UserPromptSubmit context.
	posts := hookRuns(t, r, "events", "PostToolUse", 2)
	for _, h := range posts {
		assert.Equal(t, http.StatusOK, h.Code)
		assert.JSONEq(t, `{"decision":"block","reason":"post-check: the output needs review"}`, string(h.Out))
	}
	assert.True(t, r.Told("post-check: the output needs review"), "the PostToolUse block's reason reached the model")
	hookRuns(t, r, "events", "Stop", 2)
	assert.True(t, r.Told("stop-check: write done.txt first"), "the Stop block's reason reached the model")
	prompt := hookRuns(t, r, "events", "UserPromptSubmit", 1)[0]
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"`+note+`"}}`, string(prompt.Out))
	assert.True(t, r.Told(note), "a Text answer reached the model as context")
}
