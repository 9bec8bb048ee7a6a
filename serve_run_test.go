package hook_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
)

// deliverChildEnv selects the hook that TestRunDelivers runs in its child
// process.
const deliverChildEnv = "HOOK_DELIVER_TEST_CHILD"

// readyError is an error whose Error method tells the test it was called
// (through the file named by stdinReadyEnv) and then never returns.
type readyError struct{}

func (readyError) Error() string {
	os.WriteFile(os.Getenv(stdinReadyEnv), nil, 0o600)
	select {}
}

// TestRunDelivers runs real hook processes (this test binary calling
// hook.Run): a fail-closed guard that cannot write its answer (stdout is
// /dev/full, or a pipe nobody reads) blocks with the reason on stderr
// instead of exiting 1 or dying of SIGPIPE; a fail-open one exits 1. The
// deadline and SIGTERM also bound the work done after the handler
// returned (here an error whose Error method never returns).
func TestRunDelivers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the hook as processes: not with -short")
	}
	slow := badAny(func(context.Context) error { return readyError{} })
	if os.Getenv(deliverChildEnv) != "" {
		childTakesSignals()
	}
	switch os.Getenv(deliverChildEnv) {
	case "deny":
		hook.Run(badDeny)
	case "deny-closed":
		hook.Run(hook.FailClosed(badDeny))
	case "deny-closed-in-mux":
		m := hook.NewMux()
		m.Handle(hook.EventPreToolUse, hook.FailClosed(badDeny))
		hook.Run(m)
	case "slow-error":
		(&hook.Server{Handler: slow, Timeout: 300 * time.Millisecond}).Run()
	case "slow-error-closed":
		(&hook.Server{Handler: hook.FailClosed(slow), Timeout: 300 * time.Millisecond}).Run()
	case "slow-error-no-timeout":
		hook.Run(slow)
	}
	if runtime.GOOS == "windows" {
		t.Skip("no /dev/full, SIGPIPE or SIGTERM on Windows")
	}
	run := func(t *testing.T, mode string, stdout *os.File, signal bool) (int, string) {
		t.Helper()
		ready := filepath.Join(t.TempDir(), "ready")
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunDelivers$")
		cmd.Env = append(os.Environ(), deliverChildEnv+"="+mode, stdinReadyEnv+"="+ready)
		// The input waits on stdin when the hook starts: its Timeout
		// runs from then.
		in, inw := prefilledPipe(t, badBash(`{"command":"rm -rf /"}`))
		inw.Close()
		cmd.Stdin = in
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = stdout, &stderr
		require.NoError(t, cmd.Start())
		if signal {
			require.Eventually(t, func() bool { _, err := os.Stat(ready); return err == nil }, time.Minute, 5*time.Millisecond)
			// Run takes over SIGTERM 20 ms after the start: wait until it has.
			require.Eventually(t, func() bool { _, err := os.Stat(signalsTakenFile(ready)); return err == nil }, time.Minute, 5*time.Millisecond)
			require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			require.FailNow(t, "the hook did not exit")
		}
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		require.False(t, ws.Signaled(), "the hook died of %v; stderr: %s", ws.Signal(), stderr.String())
		return cmd.ProcessState.ExitCode(), stderr.String()
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	closedPipe := func(t *testing.T) *os.File {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		r.Close()
		t.Cleanup(func() { w.Close() })
		return w
	}
	for _, tc := range []struct {
		mode string
		code int
	}{
		{"deny", hook.ExitError},
		{"deny-closed", hook.ExitBlock},
		{"deny-closed-in-mux", hook.ExitBlock},
	} {
		t.Run(tc.mode+" to /dev/full", func(t *testing.T) {
			code, stderr := run(t, tc.mode, full, false)
			assert.Equal(t, tc.code, code, stderr)
			assert.Contains(t, stderr, "no space left on device")
		})
		t.Run(tc.mode+" to a closed pipe", func(t *testing.T) {
			code, stderr := run(t, tc.mode, closedPipe(t), false)
			assert.Equal(t, tc.code, code, stderr)
			assert.Contains(t, stderr, "broken pipe")
		})
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer devnull.Close()
	for _, tc := range []struct {
		mode   string
		signal bool
		code   int
		stderr string
	}{
		{"slow-error", false, hook.ExitError, "hook: the PreToolUse handler did not answer in time: context deadline exceeded\n"},
		{"slow-error-closed", false, hook.ExitBlock, "hook: the PreToolUse handler did not answer in time: context deadline exceeded\n"},
		{"slow-error-no-timeout", true, hook.ExitError, "hook: the PreToolUse handler was interrupted: terminated signal received\n"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			start := time.Now()
			code, stderr := run(t, tc.mode, devnull, tc.signal)
			assert.Equal(t, tc.code, code, stderr)
			assert.Equal(t, tc.stderr, stderr)
			assert.Less(t, time.Since(start), 30*time.Second)
		})
	}
}
