package hook_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
)

// Values whose formatting methods are hostile: each method ends the
// goroutine (runtime.Goexit), panics with a value that panics in turn
// when formatted, or never returns. Formatting a handler's value is
// handler code, so the library must settle the outcome where the
// deadline and the fail-closed rule still apply.
type (
	goexitError     struct{}
	goexitStringer  struct{}
	goexitFormatter struct{}
	goexitGoString  struct{}
	goexitJSON      struct{}
	repanicError    struct{ depth int }
	repanicStringer struct{}
	blockingError   struct{}
)

func (goexitError) Error() string                   { runtime.Goexit(); return "" }
func (goexitStringer) String() string               { runtime.Goexit(); return "" }
func (goexitFormatter) Format(fmt.State, rune)      { runtime.Goexit() }
func (goexitGoString) GoString() string             { runtime.Goexit(); return "" }
func (goexitGoString) Error() string                { runtime.Goexit(); return "" }
func (goexitJSON) MarshalJSON() ([]byte, error)     { runtime.Goexit(); return nil, nil }
func (goexitJSON) Error() string                    { runtime.Goexit(); return "" }
func (e repanicError) Error() string                { panic(repanicError{e.depth + 1}) }
func (repanicStringer) String() string              { panic(repanicStringer{}) }
func (blockingError) Error() string                 { select {} }
func (goexitError) As(any) bool                     { runtime.Goexit(); return false }
func (goexitFormatter) Error() string               { runtime.Goexit(); return "" }
func (goexitStringer) Unwrap() []error              { runtime.Goexit(); return nil }
func (goexitStringer) Error() string                { runtime.Goexit(); return "" }
func (repanicStringer) Error() string               { panic(repanicStringer{}) }
func (goexitJSON) GoString() string                 { runtime.Goexit(); return "" }
func (goexitFormatter) GoString() string            { runtime.Goexit(); return "" }
func (goexitError) GoString() string                { runtime.Goexit(); return "" }
func (repanicError) GoString() string               { panic("GoString") }
func (repanicStringer) Format(fmt.State, rune)      { panic(repanicStringer{}) }
func (repanicStringer) GoString() string            { panic(repanicStringer{}) }
func (e repanicError) MarshalJSON() ([]byte, error) { panic(e) }

// hostileValues are the values the tests panic with and return as errors;
// slow marks the ones that never return, which only the Timeout ends.
var hostileValues = []struct {
	name  string
	value error
	slow  bool
}{
	{"Error-Goexit", goexitError{}, false},
	{"String-Goexit", goexitStringer{}, false},
	{"Format-Goexit", goexitFormatter{}, false},
	{"GoString-Goexit", goexitGoString{}, false},
	{"MarshalJSON-Goexit", goexitJSON{}, false},
	{"Error-repanics", repanicError{}, false},
	{"String-repanics", repanicStringer{}, false},
	{"Error-blocks", blockingError{}, true},
}

// goexitChildEnv makes the test binary act as a hook whose handler panics
// with, or returns, one of hostileValues: "<value>,<panic|error>,<run|serve|http>,<closed|open>".
const goexitChildEnv = "HOOK_GOEXIT_TEST_CHILD"

// goexitChild is the hook process of TestHostileValuesProcess.
func goexitChild(mode string) {
	parts := strings.Split(mode, ",")
	var value error
	slow := false
	for _, v := range hostileValues {
		if v.name == parts[0] {
			value, slow = v.value, v.slow
		}
	}
	h := badAny(func(context.Context) error {
		if parts[1] == "panic" {
			panic(value)
		}
		return value
	})
	// A value that settles without the deadline must not need it: the
	// Timeout is then longer than the test waits.
	srv := hook.Server{Handler: h, Timeout: 10 * time.Minute, FailClosed: parts[3] == "closed"}
	if slow {
		srv.Timeout = 300 * time.Millisecond
	}
	switch parts[2] {
	case "run":
		srv.Run()
	case "serve":
		os.Exit(srv.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr))
	case "http":
		r := srv.ServeHTTPBody(context.Background(), os.Stdin, -1, nil)
		fmt.Fprintf(os.Stdout, "%d %s", r.Status, r.Body)
		os.Exit(0)
	}
	os.Exit(99)
}

// TestHostileValuesProcess runs real hook processes whose handler panics
// with, or returns, a value whose formatting methods call runtime.Goexit,
// panic again or never return, through Server.Run, Server.Serve and
// Server.ServeHTTPBody, failing closed and open. Each process ends on its
// own (the Timeout of the values that settle is longer than the test
// waits), with exit 2 when it fails closed and 1 otherwise, one line on
// stderr that begins with "hook: ", no Go stack trace and nothing on
// stdout; over HTTP, the PreToolUse deny form or a 500.
func TestHostileValuesProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the hook as processes: not with -short")
	}
	if mode := os.Getenv(goexitChildEnv); mode != "" {
		goexitChild(mode)
	}
	for _, v := range hostileValues {
		for _, how := range []string{"panic", "error"} {
			for _, path := range []string{"run", "serve", "http"} {
				for _, closed := range []bool{true, false} {
					policy := map[bool]string{true: "closed", false: "open"}[closed]
					mode := strings.Join([]string{v.name, how, path, policy}, ",")
					t.Run(mode, func(t *testing.T) {
						cmd := exec.Command(os.Args[0], "-test.run=^TestHostileValuesProcess$")
						cmd.Env = append(os.Environ(), goexitChildEnv+"="+mode)
						cmd.Stdin = strings.NewReader(stdinInput)
						var stdout, stderr bytes.Buffer
						cmd.Stdout, cmd.Stderr = &stdout, &stderr
						require.NoError(t, cmd.Start())
						done := make(chan error, 1)
						go func() { done <- cmd.Wait() }()
						select {
						case <-done:
						case <-time.After(2 * time.Minute):
							cmd.Process.Kill()
							<-done
							require.FailNow(t, "the hook hung", "stderr: %s", stderr.String())
						}
						code := cmd.ProcessState.ExitCode()
						assert.NotContains(t, stderr.String(), "goroutine ", "a Go stack trace reached stderr")
						assert.NotContains(t, stderr.String(), "panic:", "a Go crash reached stderr")
						assert.NotContains(t, stderr.String(), "fatal error", "a Go crash reached stderr")
						if path == "http" {
							assert.Equal(t, 0, code, stderr.String())
							assert.Empty(t, stderr.String())
							status, body, _ := strings.Cut(stdout.String(), " ")
							if closed {
								assert.Equal(t, "200", status)
								assert.Contains(t, body, `"permissionDecision":"deny"`)
								assert.Contains(t, body, `"permissionDecisionReason":"hook: `)
							} else {
								assert.Equal(t, "500", status)
								assert.True(t, strings.HasPrefix(body, "hook: "), body)
							}
							return
						}
						want := hook.ExitError
						if closed {
							want = hook.ExitBlock
						}
						assert.Equal(t, want, code, "stderr: %s", stderr.String())
						assert.Empty(t, stdout.String())
						line := stderr.String()
						assert.True(t, strings.HasPrefix(line, "hook: "), line)
						assert.Equal(t, 1, strings.Count(line, "\n"), "one line: %q", line)
					})
				}
			}
		}
	}
}

// TestHostileValuesServe serves the hostile values in process, many times
// on the same workers: each call settles (the worker that ended is
// replaced), with the code of its policy and one stderr line, and a
// value that repanics is named by its type.
func TestHostileValuesServe(t *testing.T) {
	for _, v := range hostileValues {
		if v.slow {
			continue // TestHostileValuesProcess covers it; a worker stays blocked in it
		}
		for _, closed := range []bool{true, false} {
			h := badAny(func(context.Context) error { panic(v.value) })
			srv := hook.Server{Handler: h, FailClosed: closed}
			for range 3 {
				var stdout, stderr bytes.Buffer
				code := srv.Serve(context.Background(), strings.NewReader(stdinInput), &stdout, &stderr)
				want := hook.ExitError
				if closed {
					want = hook.ExitBlock
				}
				assert.Equal(t, want, code, "%s: %s", v.name, stderr.String())
				assert.Empty(t, stdout.String())
				assert.True(t, strings.HasPrefix(stderr.String(), "hook: "), stderr.String())
				if strings.Contains(v.name, "repanics") {
					assert.Contains(t, stderr.String(), "hook: the PreToolUse handler panicked: a hook_test.", v.name)
					assert.Contains(t, stderr.String(), "whose formatting panicked", v.name)
				}
			}
		}
	}
	// An error whose Error method panics is reported as the error's
	// type, not as a crash; the rest of the line is the library's.
	var stdout, stderr bytes.Buffer
	code := hook.Serve(context.Background(), strings.NewReader(stdinInput), &stdout, &stderr,
		badAny(func(context.Context) error { return repanicError{} }))
	assert.Equal(t, hook.ExitError, code)
	assert.Equal(t, "hook: a hook_test.repanicError value, whose formatting panicked\n", stderr.String())
}
