package hook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
)

// stdinInput is the event of the stdin tests: its tool_input has escapes,
// a surrogate pair escape, a lone surrogate escape and multi-byte UTF-8,
// so that a read split anywhere lands inside one of them.
var (
	stdinToolInput = `{"command":"echo \"Zürich ☕\" \\ \u00f6 \ud83d\ude00 \udc00","timeout":2.50}`
	stdinInput     = badBash(stdinToolInput)
	stdinOutput    = badEchoOut(stdinToolInput)
)

// serveAsync runs srv on r on its own goroutine.
func serveAsync(srv *hook.Server, r io.Reader) (result func(t *testing.T) (int, string, string)) {
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- srv.Serve(context.Background(), r, &stdout, &stderr) }()
	return func(t *testing.T) (int, string, string) {
		t.Helper()
		select {
		case code := <-done:
			checkPromises(t, code, stdout.Bytes(), stderr.String())
			return code, stdout.String(), stderr.String()
		case <-time.After(time.Minute):
			require.FailNow(t, "Serve is still waiting for stdin")
			return 0, "", ""
		}
	}
}

// openPipe returns a pipe of the kind: an io.Pipe or an operating-system
// pipe (what a hook's stdin is). The writer is closed when the test ends,
// not before.
func openPipe(t *testing.T, kind string) (io.Reader, io.Writer) {
	t.Helper()
	if kind == "io.Pipe" {
		r, w := io.Pipe()
		t.Cleanup(func() { w.Close() })
		return r, w
	}
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { w.Close(); r.Close() })
	return r, w
}

// TestServeStdinNeverClosed: Serve answers as soon as the object is
// complete, with or without the newline after it, while the writer keeps
// stdin open.
func TestServeStdinNeverClosed(t *testing.T) {
	for _, kind := range []string{"io.Pipe", "os.Pipe"} {
		for _, tail := range []string{"\n", ""} {
			t.Run(kind+"/"+strings.ReplaceAll(tail, "\n", "newline"), func(t *testing.T) {
				r, w := openPipe(t, kind)
				result := serveAsync(&hook.Server{Handler: badEcho}, r)
				go w.Write([]byte(stdinInput + tail))
				code, stdout, stderr := result(t)
				assert.Equal(t, hook.ExitOK, code, stderr)
				assert.Equal(t, stdinOutput, stdout)
			})
		}
	}
}

// TestServeNonObjectOnOpenStdin: input that cannot become a valid object
// is refused as soon as it arrives, without waiting for more: a top-level
// number (which, to be complete, would need the byte after it), a string
// or array that never ends, and garbage inside an object.
func TestServeNonObjectOnOpenStdin(t *testing.T) {
	tests := []struct{ in, stderr string }{
		{"42", `hook: the input is a number, not a JSON object: it begins with "42"`},
		{"-", `hook: the input is a number, not a JSON object: it begins with "-"`},
		{`"PreToolUse`, `hook: the input is a string, not a JSON object`},
		{`[{"hook_event_name":"PreToolUse"`, `hook: the input is an array, not a JSON object`},
		{"tr", `hook: the input is a boolean, not a JSON object`},
		{`{"hook_event_name":"PreToolUse","tool_input":{"n":1 x`, `hook: the input is not valid JSON: jsontext: invalid character 'x' after object value`},
		{"{\"hook_event_name\":\"Pre\x00", `hook: the input is not valid JSON: jsontext: invalid character '\x00' in string`},
		{`{"a":[1]]`, `hook: the input is not valid JSON: jsontext: invalid character ']' after object value`},
		{`{"a":1}{"b"`, `hook: the input goes on after its JSON object (with "{\"b\"")`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, w := openPipe(t, "os.Pipe")
			_, err := w.Write([]byte(tt.in))
			require.NoError(t, err)
			for _, closed := range []bool{false, true} {
				code, stdout, stderr := serveAsync(&hook.Server{Handler: badEcho, FailClosed: closed}, strings.NewReader(tt.in))(t)
				assert.Equal(t, map[bool]int{false: 1, true: 2}[closed], code)
				assert.Empty(t, stdout)
				assert.Contains(t, stderr, tt.stderr)
			}
			code, stdout, stderr := serveAsync(&hook.Server{Handler: badEcho}, r)(t)
			assert.Equal(t, hook.ExitError, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.stderr)
		})
	}
}

// TestServeSlowWriter: a writer that sends the event a few bytes at a
// time, pausing in the middle of a string, an escape and a multi-byte
// character, is waited for; the answer is the same as for a fast writer.
func TestServeSlowWriter(t *testing.T) {
	in := "\xEF\xBB\xBF" + stdinInput + "\n" // a BOM too, split over three writes
	for _, step := range []int{1, 3, 7, 64} {
		t.Run(fmt.Sprintf("%d-byte writes", step), func(t *testing.T) {
			r, w := openPipe(t, "os.Pipe")
			result := serveAsync(&hook.Server{Handler: badEcho}, r)
			go func() {
				for i := 0; i < len(in); i += step {
					w.Write([]byte(in[i:min(i+step, len(in))]))
					time.Sleep(200 * time.Microsecond)
					if i == len(in)/2 {
						time.Sleep(20 * time.Millisecond) // a long pause mid-way
					}
				}
			}()
			code, stdout, stderr := result(t)
			assert.Equal(t, hook.ExitOK, code, stderr)
			assert.Equal(t, stdinOutput, stdout)
		})
	}
}

// TestServeReaderQuirks: readers that return one byte at a time, half of
// what is asked, data together with io.EOF, or an error.
func TestServeReaderQuirks(t *testing.T) {
	readers := map[string]func(io.Reader) io.Reader{
		"OneByteReader": iotest.OneByteReader,
		"HalfReader":    iotest.HalfReader,
		"DataErrReader": iotest.DataErrReader,
		"no Len method": func(r io.Reader) io.Reader { return pipeReader{r} },
	}
	for name, wrap := range readers {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := serveAsync(&hook.Server{Handler: badEcho}, wrap(strings.NewReader(stdinInput)))(t)
			assert.Equal(t, hook.ExitOK, code, stderr)
			assert.Equal(t, stdinOutput, stdout)

			code, stdout, stderr = serveAsync(&hook.Server{Handler: badEcho}, wrap(strings.NewReader(stdinInput[:100])))(t)
			assert.Equal(t, hook.ExitError, code)
			assert.Empty(t, stdout)
			assert.Equal(t, "hook: the input ends before its JSON object does (truncated after 100 bytes)\n", stderr)
		})
	}
	t.Run("error", func(t *testing.T) {
		r := io.MultiReader(strings.NewReader(stdinInput[:100]), iotest.ErrReader(errors.New("device gone")))
		code, stdout, stderr := serveAsync(&hook.Server{Handler: badEcho}, r)(t)
		assert.Equal(t, hook.ExitError, code)
		assert.Empty(t, stdout)
		assert.Equal(t, "hook: reading stdin: device gone\n", stderr)
	})
	t.Run("no progress", func(t *testing.T) {
		code, stdout, stderr := serveAsync(&hook.Server{Handler: badEcho}, emptyReader{})(t)
		assert.Equal(t, hook.ExitError, code)
		assert.Empty(t, stdout)
		assert.Equal(t, "hook: reading stdin: multiple Read calls return no data or error\n", stderr)
	})
}

// emptyReader returns no data and no error, forever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// TestServeStdinRegularFile: stdin redirected from a file (hook <
// event.json), whose size Serve knows in advance.
func TestServeStdinRegularFile(t *testing.T) {
	open := func(content string) *os.File {
		path := filepath.Join(t.TempDir(), "event.json")
		require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
		f, err := os.Open(path)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return f
	}
	code, stdout, stderr := serveAsync(&hook.Server{Handler: badEcho}, open(stdinInput+"\n"))(t)
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, stdinOutput, stdout)

	f := open("[1]\n" + stdinInput + "\n") // read from an offset
	_, err := f.Seek(4, io.SeekStart)
	require.NoError(t, err)
	code, stdout, stderr = serveAsync(&hook.Server{Handler: badEcho}, f)(t)
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, stdinOutput, stdout)

	code, stdout, stderr = serveAsync(&hook.Server{Handler: badEcho}, open(stdinInput+"\n"+stdinInput+"\n"))(t)
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "hook: the input goes on after its JSON object")
}

// TestServeGivesUpOnOpenStdin: an object that never completes on a stdin
// that stays open is waited for only until the Server's Timeout passes or
// the context is cancelled.
func TestServeGivesUpOnOpenStdin(t *testing.T) {
	for _, closed := range []bool{false, true} {
		r, w := openPipe(t, "os.Pipe")
		_, err := w.Write([]byte(stdinInput[:50]))
		require.NoError(t, err)
		code, stdout, stderr := serveAsync(&hook.Server{Handler: badEcho, Timeout: 30 * time.Millisecond, FailClosed: closed}, r)(t)
		assert.Equal(t, map[bool]int{false: 1, true: 2}[closed], code)
		assert.Empty(t, stdout)
		assert.Equal(t, "hook: gave up waiting for a complete JSON object on stdin: context deadline exceeded\n", stderr)
	}

	r, w := openPipe(t, "io.Pipe")
	go w.Write([]byte(stdinInput[:50]))
	ctx, cancel := context.WithCancelCause(context.Background())
	var stdout, stderr bytes.Buffer
	done := make(chan int)
	go func() { done <- hook.Serve(ctx, r, &stdout, &stderr, badEcho) }()
	time.Sleep(10 * time.Millisecond)
	cancel(errors.New("the session ended"))
	assert.Equal(t, hook.ExitError, <-done)
	assert.Empty(t, stdout.String())
	assert.Equal(t, "hook: interrupted while waiting for a complete JSON object on stdin: the session ended\n", stderr.String())

	stdout.Reset()
	stderr.Reset()
	assert.Equal(t, hook.ExitError, hook.Serve(ctx, strings.NewReader(stdinInput), &stdout, &stderr, badEcho), "a context done before Serve")
	assert.Empty(t, stdout.String())
	assert.Equal(t, "hook: gave up before reading stdin: the session ended\n", stderr.String())
}

// stdinChildEnv makes the test binary act as a hook built with hook.Run;
// stdinReadyEnv names the file the hook's handler creates when it runs.
const (
	stdinChildEnv = "HOOK_STDIN_TEST_CHILD"
	stdinReadyEnv = "HOOK_STDIN_TEST_READY"
)

// prefilledPipe returns a pipe that holds input (at most a pipe's buffer)
// for a child process's stdin: the read end to pass as the child's
// *os.File, so that no goroutine of the test copies it late, and the
// write end, which the test closes when it is done; both are closed at
// the end of the test.
func prefilledPipe(t *testing.T, input string) (r, w *os.File) {
	t.Helper()
	pr, pw := openPipe(t, "os.Pipe")
	r, w = pr.(*os.File), pw.(*os.File)
	_, err := io.WriteString(w, input)
	require.NoError(t, err)
	return r, w
}

// signalsTakenFile is the file a child hook (see childTakesSignals)
// creates once Run has taken over SIGINT and SIGTERM, next to the ready
// file named by stdinReadyEnv.
func signalsTakenFile(ready string) string { return ready + "-signals" }

// childTakesSignals makes a child hook process create its
// signalsTakenFile once Run has taken over SIGINT and SIGTERM: a test
// that sends SIGTERM waits for it, not for a pause that a loaded machine
// may outlast.
func childTakesSignals() {
	if ready := os.Getenv(stdinReadyEnv); ready != "" {
		hook.OnSignalsTaken(func() { os.WriteFile(signalsTakenFile(ready), nil, 0o600) })
	}
}

// TestRunProcess runs a real hook process (this test binary calling
// hook.Run) whose stdin is a pipe that the test never closes: the hook
// answers and exits. A second hook, whose handler hangs ignoring its
// context, exits with one line on stderr when it gets SIGTERM.
func TestRunProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the hook as processes: not with -short")
	}
	hang := badAny(func(context.Context) error {
		os.WriteFile(os.Getenv(stdinReadyEnv), nil, 0o600)
		select {} // ignores its context
	})
	if os.Getenv(stdinChildEnv) != "" {
		childTakesSignals()
	}
	switch os.Getenv(stdinChildEnv) {
	case "echo":
		hook.Run(badEcho)
	case "hang":
		hook.Run(hang)
	case "timeout":
		(&hook.Server{Handler: hang, Timeout: 300 * time.Millisecond}).Run()
	case "timeout-closed":
		(&hook.Server{Handler: hang, Timeout: 300 * time.Millisecond, FailClosed: true}).Run()
	case "timeout-reading": // stdin never completes
		(&hook.Server{Handler: badEcho, Timeout: 300 * time.Millisecond}).Run()
	case "timeout-met":
		(&hook.Server{Handler: badEcho, Timeout: time.Minute}).Run()
	case "goexit":
		hook.Run(badAny(func(context.Context) error { runtime.Goexit(); return nil }))
	case "goexit-closed":
		hook.Run(hook.FailClosed(badAny(func(context.Context) error { runtime.Goexit(); return nil })))
	case "panic":
		hook.Run(badAny(func(context.Context) error { panic("boom") }))
	case "block":
		hook.Run(badAny(func(context.Context) error { return hook.Block("no, because") }))
	}
	// start starts the hook with input already waiting on its stdin, a
	// pipe the test keeps open: the hook's Timeout runs from its start,
	// so the input must not arrive late on a loaded machine.
	start := func(t *testing.T, mode, input string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer, string) {
		ready := filepath.Join(t.TempDir(), "ready")
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunProcess$")
		cmd.Env = append(os.Environ(), stdinChildEnv+"="+mode, stdinReadyEnv+"="+ready)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		r, _ := prefilledPipe(t, input) // the write end stays open until the test ends
		cmd.Stdin = r
		require.NoError(t, cmd.Start())
		return cmd, &stdout, &stderr, ready
	}
	exitCode := func(t *testing.T, cmd *exec.Cmd) int {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			require.FailNow(t, "the hook did not exit")
		}
		return cmd.ProcessState.ExitCode()
	}

	t.Run("stdin left open", func(t *testing.T) {
		cmd, stdout, stderr, _ := start(t, "echo", stdinInput+"\n")
		assert.Equal(t, hook.ExitOK, exitCode(t, cmd), stderr.String())
		assert.Equal(t, stdinOutput, stdout.String())
		assert.Empty(t, stderr.String())
	})
	// Server.Run runs the handler on the calling goroutine: a deadline, a
	// panic and runtime.Goexit still end the process with one line and the
	// right code, never a Go crash.
	for _, tc := range []struct {
		mode, input string
		code        int
		stdout      string
		stderr      string // a prefix when it ends with "…"
	}{
		{"timeout-met", stdinInput + "\n", hook.ExitOK, stdinOutput, ""},
		{"timeout", stdinInput + "\n", hook.ExitError, "", "hook: the PreToolUse handler did not answer in time: context deadline exceeded\n"},
		{"timeout-closed", stdinInput + "\n", hook.ExitBlock, "", "hook: the PreToolUse handler did not answer in time: context deadline exceeded\n"},
		{"timeout-reading", stdinInput[:20], hook.ExitError, "", "hook: gave up waiting for a complete JSON object on stdin: context deadline exceeded\n"},
		{"goexit", stdinInput, hook.ExitError, "", "hook: the PreToolUse handler called runtime.Goexit instead of answering\n"},
		{"goexit-closed", stdinInput, hook.ExitBlock, "", "hook: the PreToolUse handler called runtime.Goexit instead of answering\n"},
		{"panic", stdinInput, hook.ExitError, "", "hook: the PreToolUse handler panicked: boom (at …"},
		{"block", stdinInput, hook.ExitBlock, "", "no, because\n"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cmd, stdout, stderr, _ := start(t, tc.mode, tc.input)
			assert.Equal(t, tc.code, exitCode(t, cmd), stderr.String())
			assert.Equal(t, tc.stdout, stdout.String())
			if prefix, ok := strings.CutSuffix(tc.stderr, "…"); ok {
				assert.True(t, strings.HasPrefix(stderr.String(), prefix), stderr.String())
				assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
			} else {
				assert.Equal(t, tc.stderr, stderr.String())
			}
		})
	}
	if runtime.GOOS == "windows" {
		return // no SIGTERM to send
	}
	t.Run("SIGTERM while the handler hangs", func(t *testing.T) {
		cmd, stdout, stderr, ready := start(t, "hang", stdinInput+"\n")
		require.Eventually(t, func() bool { _, err := os.Stat(ready); return err == nil }, time.Minute, 5*time.Millisecond)
		// Run takes over SIGTERM 20 ms after the start: wait until it has.
		require.Eventually(t, func() bool { _, err := os.Stat(signalsTakenFile(ready)); return err == nil }, time.Minute, 5*time.Millisecond)
		require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		assert.Equal(t, hook.ExitError, exitCode(t, cmd))
		assert.Empty(t, stdout.String())
		assert.Equal(t, "hook: the PreToolUse handler was interrupted: terminated signal received\n", stderr.String())
	})
}
