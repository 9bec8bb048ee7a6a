package hook_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/testutil"
)

// This file is the bad-input matrix: every kind of bad input (and bad
// handler) gets one defined outcome, failing open and failing closed. The
// table in docs/reliability.md is this table in prose; keep them
// together.

// badEvent returns a compact event named name with the common fields, then
// extra (members, each with a leading comma).
func badEvent(name, extra string) string {
	return `{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/w","hook_event_name":"` + name + `"` + extra + `}`
}

// badBash returns a PreToolUse event for Bash with the raw tool_input.
func badBash(toolInput string) string {
	return badEvent("PreToolUse", `,"tool_name":"Bash","tool_input":`+toolInput+`,"tool_use_id":"toolu_1"`)
}

// badEcho answers every PreToolUse with its tool_input plus "checked":
// true, so that the answer shows byte for byte what Serve read.
var badEcho = hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	upd, err := e.Merge(map[string]bool{"checked": true})
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
})

// badEchoOut is badEcho's answer (with the final newline) to a tool_input.
func badEchoOut(toolInput string) string {
	return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` +
		toolInput[:len(toolInput)-1] + `,"checked":true}}}` + "\n"
}

// badDenyOut is the answer of a handler that denies with reason "no".
const badDenyOut = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n"

var badDeny = hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "no"}, nil
})

// badAny is a handler for any event that calls f.
func badAny(f func(ctx context.Context) error) hook.Handler {
	return hook.HandlerFunc(func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		return nil, f(ctx)
	})
}

// badCase is one row of the matrix.
type badCase struct {
	name string
	in   string
	// srv is the server to run; its Handler defaults to badEcho.
	srv hook.Server
	// code is the exit code; closed the exit code when failing closed.
	code, closed int
	// stdout is the exact stdout.
	stdout string
	// stderr is all of stderr when exact is set; otherwise it is parts
	// separated by "…" that stderr holds in this order. An empty stderr
	// means stderr must be empty.
	stderr string
	exact  bool
	// endless replaces in with an input that never ends.
	endless bool
}

func badCases(t *testing.T) []badCase {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	bash := badBash(`{"command":"ls -la","description":"list"}`)
	bashOut := badEchoOut(`{"command":"ls -la","description":"list"}`)
	deep := func(arrays int) string {
		return badBash(`{"a":` + strings.Repeat("[", arrays) + strings.Repeat("]", arrays) + `}`)
	}
	return []badCase{
		// No input.
		{name: "empty stdin", in: "", code: 1, closed: 2,
			stderr: "hook: no input: stdin was empty\n", exact: true},
		{name: "whitespace only", in: " \n\t\r\n", code: 1, closed: 2,
			stderr: "hook: no input: stdin held only whitespace\n", exact: true},

		// Not one JSON object.
		{name: "not JSON", in: "hello world\n", code: 1, closed: 2,
			stderr: `hook: the input is not valid JSON: it begins with "hello world\n"` + "\n", exact: true},
		{name: "truncated JSON", in: bash[:len(bash)-10], code: 1, closed: 2,
			stderr: "hook: the input ends before its JSON object does (truncated after "},
		{name: "truncated inside a string", in: `{"hook_event_name":"PreTo`, code: 1, closed: 2,
			stderr: "hook: the input ends before its JSON object does (truncated after 25 bytes)\n", exact: true},
		{name: "syntax error", in: `{"hook_event_name" "PreToolUse"}`, code: 1, closed: 2,
			stderr: "hook: the input is not valid JSON: jsontext: invalid character '\"' after object name (expecting ':')"},
		{name: "trailing comma", in: `{"hook_event_name":"PreToolUse",}`, code: 1, closed: 2,
			stderr: "hook: the input is not valid JSON: "},
		{name: "JSON array", in: "[" + bash + "]", code: 1, closed: 2,
			stderr: `hook: the input is an array, not a JSON object: it begins with "[{\"session_id\":\"s1\",\"tra"` + "\n", exact: true},
		{name: "JSON string", in: `"PreToolUse"`, code: 1, closed: 2,
			stderr: `hook: the input is a string, not a JSON object: it begins with "\"PreToolUse\""` + "\n", exact: true},
		{name: "JSON number", in: "42", code: 1, closed: 2,
			stderr: `hook: the input is a number, not a JSON object: it begins with "42"` + "\n", exact: true},
		{name: "JSON null", in: "null\n", code: 1, closed: 2,
			stderr: `hook: the input is null, not a JSON object`},
		{name: "JSON boolean", in: "true", code: 1, closed: 2,
			stderr: `hook: the input is a boolean, not a JSON object`},
		{name: "two objects back to back", in: bash + bash, code: 1, closed: 2,
			stderr: `hook: the input goes on after its JSON object (with "{\"session_id\":\"s1\",\"tran"); Claude Code sends exactly one object` + "\n", exact: true},
		{name: "two objects on two lines", in: bash + "\n" + bash + "\n", code: 1, closed: 2,
			stderr: "hook: the input goes on after its JSON object"},
		{name: "object then garbage", in: bash + " x", code: 1, closed: 2,
			stderr: `hook: the input goes on after its JSON object (with "x")`},

		// Accepted framing.
		{name: "newline after the object", in: bash + "\n", stdout: bashOut},
		{name: "CRLF and spaces around the object", in: " \r\n" + bash + " \r\n", stdout: bashOut},
		{name: "no newline after the object", in: bash, stdout: bashOut},
		{name: "pretty-printed object", in: strings.ReplaceAll(strings.ReplaceAll(bash, `,"tool_use_id"`, ",\n  \"tool_use_id\""), `{"session_id"`, "{\n  \"session_id\""), stdout: bashOut},
		{name: "UTF-8 BOM", in: "\xEF\xBB\xBF" + bash + "\n", stdout: bashOut},

		// Encodings.
		{name: "UTF-16 BOM", in: "\xFF\xFE{\x00\"\x00", code: 1, closed: 2,
			stderr: "hook: the input is UTF-16 (it begins with a UTF-16 byte order mark); hook input must be UTF-8 JSON\n", exact: true},
		{name: "invalid UTF-8", in: badBash("{\"command\":\"ls \xff\"}"), code: 1, closed: 2,
			stderr: "hook: the input is not valid UTF-8: byte 0xff at offset 140 (a lone surrogate must come as an escape such as \\ud800)\n", exact: true},
		{name: "surrogate encoded as raw UTF-8 (WTF-8)", in: badBash("{\"command\":\"ls \xed\xa0\x80\"}"), code: 1, closed: 2,
			stderr: "hook: the input is not valid UTF-8: byte 0xed at offset 140"},
		{name: "lone surrogate escapes", in: badBash(`{"command":"echo \ud800 \udc00x \ud83d","n":1}`),
			stdout: badEchoOut(`{"command":"echo \ud800 \udc00x \ud83d","n":1}`)},
		{name: "escaped NUL", in: badBash(`{"command":"a\u0000b"}`),
			stdout: badEchoOut(`{"command":"a\u0000b"}`)},
		{name: "NUL byte in a string", in: badBash("{\"command\":\"a\x00b\"}"), code: 1, closed: 2,
			stderr: `hook: the input is not valid JSON: jsontext: invalid character '\x00' in string (expecting non-control character)`},
		{name: "NUL byte before the object", in: "\x00" + bash, code: 1, closed: 2,
			stderr: `hook: the input is not valid JSON: it begins with "\x00{`},
		{name: "NUL byte after the object", in: bash + "\x00", code: 1, closed: 2,
			stderr: `hook: the input goes on after its JSON object (with "\x00")`},

		// Names and nesting.
		{name: "duplicate member names", in: badEvent("PreToolUse", `,"cwd":"/tmp","tool_name":"Bash","tool_input":{},"tool_use_id":"t"`), code: 1, closed: 2,
			stderr: `hook: the input holds a duplicate member name: jsontext: duplicate object member name "cwd"`},
		{name: "duplicate member names in tool_input", in: badBash(`{"command":"ls","command":"rm -rf /"}`), code: 1, closed: 2,
			stderr: `hook: the input holds a duplicate member name: jsontext: duplicate object member name "command" within "/tool_input"`},
		{name: "nesting at the library's limit (9998)", in: deep(9996), srv: hook.Server{Handler: badDeny},
			stdout: badDenyOut},
		{name: "nesting deeper than the library reads", in: deep(9997), code: 1, closed: 2,
			stderr: "hook: the input is nested 9999 levels deep; the library reads at most 9998, so that…"},
		{name: "nesting deeper than JSON allows", in: deep(9999), code: 1, closed: 2,
			stderr: "hook: the input is nested 10001 levels deep; the library reads at most 9998, so that…"},

		// Common fields.
		{name: "wrong type for a common field", in: strings.Replace(bash, `"cwd":"/w"`, `"cwd":5`, 1), code: 1, closed: 2,
			stderr: `hook: the input's common fields: json: …JSON number into Go string within "/cwd"`},
		{name: "wrong type for a common field of an event that cannot block", in: badEvent("SessionStart", `,"effort":"high","source":"startup"`), code: 1, closed: 1,
			stderr: `hook: the input's common fields: json: …JSON string into Go hook.Effort within "/effort"`},
		{name: "null common field", in: strings.Replace(bash, `"cwd":"/w"`, `"cwd":null`, 1), stdout: bashOut},
		{name: "hook_event_name not a string", in: `{"session_id":"s1","hook_event_name":["PreToolUse"]}`, code: 1, closed: 2,
			stderr: `hook: the input's hook_event_name is not a string: ["PreToolUse"]` + "\n", exact: true},
		{name: "missing hook_event_name", in: `{"session_id":"s1","cwd":"/w","tool_name":"Bash"}`, code: 1, closed: 2,
			stderr: "hook: the input has no hook_event_name\n", exact: true},
		{name: "empty hook_event_name", in: badEvent("", ""), code: 1, closed: 2,
			stderr: "hook: the input has no hook_event_name\n", exact: true},
		{name: "unknown event", in: badEvent("FutureEvent", `,"x":{"y":1}`)},
		{name: "event-specific field of the wrong type", in: strings.Replace(bash, `"tool_name":"Bash"`, `"tool_name":5`, 1), code: 1, closed: 2,
			stderr: `hook: decoding PreToolUse input: json: …JSON number into Go string within "/tool_name"`},
		{name: "tool_input not an object", in: badBash(`"ls"`), code: 1, closed: 2,
			stderr: "hook: Merge: the original is not a JSON object\n", exact: true},

		// Size.
		{name: "input over the size cap", in: bash, srv: hook.Server{MaxInputBytes: 100}, code: 1, closed: 2,
			stderr: "hook: the input is larger than the 100-byte limit (raise Server.MaxInputBytes)\n", exact: true},
		{name: "input of exactly the size cap", in: bash + "\n", srv: hook.Server{MaxInputBytes: int64(len(bash))}, stdout: bashOut},
		{name: "endless input over the default cap (64 MiB)", endless: true, code: 1, closed: 2,
			stderr: "hook: the input is larger than the 67108864-byte limit (raise Server.MaxInputBytes)\n", exact: true},

		// Handlers.
		{name: "handler panics", in: bash, code: 1, closed: 2,
			srv:    hook.Server{Handler: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) { panic("boom") })},
			stderr: "hook: the PreToolUse handler panicked: boom (at github.com/gohooks/hook_test.badCases."},
		{name: "handler panics with a runtime error", in: bash, code: 1, closed: 2,
			srv: hook.Server{Handler: hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				var m map[string]int
				//lint:ignore SA5000 the handler must panic with a runtime error
				m[e.ToolName]++
				return nil, nil
			})},
			stderr: "hook: the PreToolUse handler panicked: assignment to entry in nil map (at "},
		{name: "handler panics on an event that cannot block", in: badEvent("SessionStart", `,"source":"startup"`), code: 1, closed: 1,
			srv:    hook.Server{Handler: badAny(func(context.Context) error { panic(errors.New("boom")) })},
			stderr: "hook: the SessionStart handler panicked: boom"},
		{name: "handler returns an error", in: bash, code: 1, closed: 2,
			srv:    hook.Server{Handler: badAny(func(context.Context) error { return errors.New("database\ndown") })},
			stderr: "hook: database down\n", exact: true},
		{name: "handler returns an error on an event that cannot block", in: badEvent("SessionEnd", `,"reason":"other"`), code: 1, closed: 1,
			srv:    hook.Server{Handler: badAny(func(context.Context) error { return errors.New("database down") })},
			stderr: "hook: database down\n", exact: true},
		{name: "handler returns a very long error", in: bash, code: 1, closed: 2,
			srv:    hook.Server{Handler: badAny(func(context.Context) error { return errors.New(strings.Repeat("x", 10000)) })},
			stderr: "hook: " + strings.Repeat("x", 3994) + "…\n", exact: true},
		{name: "handler blocks", in: bash, code: 2, closed: 2,
			srv:    hook.Server{Handler: badAny(func(context.Context) error { return hook.Block("rm is not allowed") })},
			stderr: "rm is not allowed\n", exact: true},
		{name: "handler exceeds its context deadline", in: bash, code: 1, closed: 2,
			srv: hook.Server{Handler: badAny(func(ctx context.Context) error {
				testutil.PassDeadline(ctx) // see badServe
				<-release                  // ignores its context
				return nil
			})},
			stderr: "hook: the PreToolUse handler did not answer in time: context deadline exceeded\n", exact: true},
		{name: "handler calls runtime.Goexit", in: bash, code: 1, closed: 2,
			srv:    hook.Server{Handler: badAny(func(context.Context) error { runtime.Goexit(); return nil })},
			stderr: "hook: the PreToolUse handler called runtime.Goexit instead of answering\n", exact: true},
		{name: "handler gives an invalid answer", in: bash, code: 1, closed: 2,
			srv: hook.Server{Handler: hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				return &hook.PreToolUseOutput{Decision: "approve"}, nil
			})},
			stderr: "hook: invalid answer to PreToolUse: "},
	}
}

// endlessReader is an input that never ends: an event whose tool_input
// holds a string that goes on forever.
type endlessReader struct{ head string }

func (r *endlessReader) Read(p []byte) (int, error) {
	if r.head == "" {
		r.head = `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"`
	}
	n := 0
	if r.head != "-" {
		n = copy(p, r.head)
		if r.head = r.head[n:]; r.head == "" {
			r.head = "-"
		}
	}
	for i := n; i < len(p); i++ {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestBadInput runs the matrix, failing open and failing closed.
func TestBadInput(t *testing.T) {
	for _, tc := range badCases(t) {
		for _, closed := range []bool{false, true} {
			name := tc.name
			if closed {
				name += "/fail closed"
			}
			t.Run(name, func(t *testing.T) {
				srv := tc.srv
				if srv.Handler == nil {
					srv.Handler = badEcho
				}
				srv.FailClosed = closed
				var in io.Reader = bytes.NewReader([]byte(tc.in))
				if tc.endless {
					in = &endlessReader{}
				}
				code, stdout, stderr := badServe(t, &srv, in)
				want := tc.code
				if closed {
					want = tc.closed
				}
				assert.Equal(t, want, code, "exit code; stderr: %q", stderr)
				assert.Equal(t, tc.stdout, stdout, "stdout")
				switch {
				case tc.stderr == "":
					assert.Empty(t, stderr, "stderr")
				case tc.exact:
					assert.Equal(t, tc.stderr, stderr, "stderr")
				default:
					containsInOrder(t, stderr, strings.Split(tc.stderr, "…"))
				}
			})
		}
	}
}

// containsInOrder checks that s holds each of parts, in order.
func containsInOrder(t *testing.T, s string, parts []string) {
	t.Helper()
	rest := s
	for _, p := range parts {
		i := strings.Index(rest, p)
		if !assert.GreaterOrEqual(t, i, 0, "stderr %q holds %q (in order)", s, p) {
			return
		}
		rest = rest[i+len(p):]
	}
}

// TestBadInput100MB passes a 100 MB tool_input string (with escapes,
// non-ASCII text and surrogate pair escapes) under a raised cap and gets
// it back byte for byte in the answer.
func TestBadInput100MB(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a 100 MB input: not with -short")
	}
	in, toolInput := bigToolInput(memInputSize)
	srv := hook.Server{Handler: badEcho, MaxInputBytes: 128 << 20}
	code, stdout, stderr := badServe(t, &srv, bytes.NewReader(in))
	assert.Equal(t, hook.ExitOK, code)
	assert.Empty(t, stderr)
	want := badEchoOut(string(toolInput))
	assert.Equal(t, len(want), len(stdout))
	assert.True(t, stdout == want, "the answer holds the 100 MB tool_input byte for byte")
}

// badServe runs srv on in and checks the promises that hold for every
// input: the exit code is 0, 1 or 2; stdout is empty unless the exit code
// is 0, and then it is one valid JSON object on one line; stderr is empty
// on exit 0, one line beginning with "hook: " on exit 1, and never holds
// a Go stack trace.
func badServe(t *testing.T, srv *hook.Server, in io.Reader) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	// The deadline passes when a handler calls testutil.PassDeadline, so
	// that it passes while the handler runs, however loaded the machine.
	go func() { done <- srv.Serve(testutil.DeadlineContext(), in, &stdout, &stderr) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(time.Minute):
		require.FailNow(t, "Serve did not return")
	}
	checkPromises(t, code, stdout.Bytes(), stderr.String())
	return code, stdout.String(), stderr.String()
}

// checkPromises checks what every run of Serve promises; see badServe.
func checkPromises(t testing.TB, code int, stdout []byte, stderr string) {
	t.Helper()
	assert.Contains(t, []int{hook.ExitOK, hook.ExitError, hook.ExitBlock}, code)
	assert.NotContains(t, stderr, "goroutine ", "no stack trace")
	assert.NotContains(t, stderr, "panic: ", "no stack trace")
	if code != hook.ExitOK {
		assert.Empty(t, stdout, "stdout only with exit 0")
		assert.True(t, strings.HasSuffix(stderr, "\n") && strings.Count(stderr, "\n") >= 1, "stderr ends a line: %q", stderr)
	}
	if code == hook.ExitOK && !strings.HasPrefix(stderr, "hook: not run: ") {
		// Exit 0 says something only for another agent's payload: one line.
		assert.Empty(t, stderr)
	}
	if code == hook.ExitOK && stderr != "" {
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	}
	if code == hook.ExitError {
		assert.True(t, strings.HasPrefix(stderr, "hook: "), "error line begins with \"hook: \": %q", stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	}
	if len(stdout) > 0 {
		require.True(t, bytes.HasSuffix(stdout, []byte("\n")), "stdout ends with a newline")
		body := stdout[:len(stdout)-1]
		assert.NotContains(t, string(body), "\n", "one line")
		assert.Equal(t, byte('{'), body[0], "an object")
		assert.True(t, utf8.Valid(body), "stdout is UTF-8")
		assert.True(t, jsontext.Value(body).IsValid(jsonopts.Lenient()), "stdout is valid JSON (lone surrogate escapes allowed): %.200q", body)
	}
}
