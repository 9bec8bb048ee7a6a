package hook_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestServeWorkersAfterTrouble serves events one after another, and from
// many goroutines, where every kind of trouble a handler can make for
// the goroutine it runs on comes between good calls: a panic, a
// runtime.Goexit, a deadline passing while the handler ignores it, a
// handler that answers just as the deadline passes. Each call gets its
// own outcome, never another call's, and the goroutines Serve ran
// handlers on end once the handlers have returned and their workers are
// dropped.
func TestServeWorkersAfterTrouble(t *testing.T) {
	in := testutil.PreToolUse("Bash", `{"command":"ls"}`)
	release := make(chan struct{})
	var released sync.WaitGroup
	h := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		cmd := string(e.ToolInput)
		switch {
		case strings.Contains(cmd, "panic"):
			panic("boom")
		case strings.Contains(cmd, "goexit"):
			runtime.Goexit()
		case strings.Contains(cmd, "stall"):
			testutil.PassDeadline(ctx) // the deadline passes while it runs
			<-release                  // ignores ctx
			released.Done()
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, Reason: cmd}, nil
	})
	before := runtime.NumGoroutine()
	serveCmd := func(cmd string) (int, string, string) {
		t.Helper()
		in := testutil.PreToolUse("Bash", `{"command":"`+cmd+`"}`)
		var stdout, stderr strings.Builder
		s := hook.Server{Handler: h}
		code := s.Serve(testutil.DeadlineContext(), strings.NewReader(string(in)), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	allowed := func(cmd string) string {
		return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"{\"command\":\"` + cmd + `\"}"}}` + "\n"
	}
	check := func(i int, cmd string) {
		t.Helper()
		switch cmd {
		case "panic":
			code, out, errOut := serveCmd(cmd)
			assert.Equal(t, hook.ExitError, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "hook: the PreToolUse handler panicked: boom")
		case "goexit":
			code, out, errOut := serveCmd(cmd)
			assert.Equal(t, hook.ExitError, code)
			assert.Empty(t, out)
			assert.Equal(t, "hook: the PreToolUse handler called runtime.Goexit instead of answering\n", errOut)
		case "stall":
			code, out, errOut := serveCmd(cmd)
			assert.Equal(t, hook.ExitError, code)
			assert.Empty(t, out)
			assert.Equal(t, "hook: the PreToolUse handler did not answer in time: context deadline exceeded\n", errOut)
		default:
			c := cmd + "-" + string(rune('a'+i%26))
			code, out, errOut := serveCmd(c)
			assert.Equal(t, hook.ExitOK, code, errOut)
			assert.Equal(t, allowed(c), out)
			assert.Empty(t, errOut)
		}
	}
	cmds := []string{"ok", "panic", "ok", "goexit", "ok", "stall", "ok", "ok"}
	for i := range 3 * len(cmds) {
		if cmds[i%len(cmds)] == "stall" {
			released.Add(1)
		}
		check(i, cmds[i%len(cmds)])
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				cmd := cmds[(g+i)%len(cmds)]
				if cmd == "stall" {
					cmd = "ok" // stalls are counted above
				}
				check(i, cmd)
			}
		}()
	}
	wg.Wait()
	code, out, _ := testutil.Serve(t, h, in)
	require.Equal(t, hook.ExitOK, code)
	require.Equal(t, allowed("ls"), out)

	// The stalled handlers return now; their workers were given up and
	// end, and the idle ones end when the pool drops them.
	close(release)
	released.Wait()
	deadline := time.Now().Add(5 * time.Minute)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines left behind by Serve")
}
