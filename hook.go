package hook

import (
	"github.com/gohooks/hook/internal/rawjson"

	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Exit codes that [Serve] returns and [Run] exits with.
const (
	// ExitOK means the hook answered normally: its JSON answer, if any,
	// is on stdout.
	ExitOK = 0
	// ExitError is a non-blocking error: Claude Code goes on as if the hook
	// had not run and shows the one line on stderr as a notice.
	ExitError = 1
	// ExitBlock blocks the action on the events that can block (see
	// [CanBlock]); stderr is the reason. Nothing is written on stdout.
	ExitBlock = 2
)

// DefaultMaxInputBytes is the input size cap a [Server] uses when
// MaxInputBytes is zero: 64 MiB.
const DefaultMaxInputBytes = 64 << 20

// Handler answers hook events. ServeHook receives one event and returns the
// answer to write, or nil to write nothing, or an error: [Block] to block
// the action (exit 2), anything else for a non-blocking failure (exit 1).
//
// The typed adapters ([PreToolUseFunc] and one per event) and [Mux] are the
// usual ways to build a Handler.
type Handler interface {
	ServeHook(ctx context.Context, ev *Event) (Output, error)
}

// HandlerFunc adapts an ordinary function to a [Handler].
type HandlerFunc func(ctx context.Context, ev *Event) (Output, error)

// ServeHook calls f(ctx, ev).
func (f HandlerFunc) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	return f(ctx, ev)
}

// Output is a handler's answer to one event. It is implemented only by the
// answer types of this package, such as [PreToolUseOutput]; each one
// validates itself against the event it answers before a byte is written,
// and is encoded with the library's JSON options.
type Output interface {
	// appendAnswer validates the answer for ev and appends its stdout
	// bytes to dst; it appends nothing for an empty answer.
	appendAnswer(dst []byte, ev *Event) ([]byte, error)
}

// BlockError is the error [Block] returns. A handler that returns it
// (possibly wrapped) makes [Serve] exit with code 2 and write Reason on
// stderr.
type BlockError struct {
	Reason string
}

// Error returns the reason.
func (e *BlockError) Error() string { return e.Reason }

// Block returns an error that blocks the action: [Serve] writes reason on
// stderr, nothing on stdout, and returns [ExitBlock]. Claude Code gives the
// reason to Claude (PreToolUse, Stop, …) or to the user (UserPromptSubmit),
// depending on the event; on events that cannot block (see [CanBlock]) exit
// code 2 only shows stderr or is ignored. An empty reason is replaced by
// "blocked by hook".
func Block(reason string) error {
	if reason == "" {
		reason = "blocked by hook"
	}
	return &BlockError{Reason: reason}
}

// Server serves one hook invocation with settings. The zero value uses
// [DefaultMaxInputBytes], has no time limit of its own and fails open.
type Server struct {
	// Handler answers the event.
	Handler Handler

	// MaxInputBytes caps the size of the JSON input; a larger input is an
	// error (exit 1, or 2 when failing closed) instead of an out-of-memory
	// crash, and no more than MaxInputBytes+1 bytes are read. Zero means
	// [DefaultMaxInputBytes]; a negative value means no limit.
	MaxInputBytes int64

	// Timeout, when positive, bounds the whole invocation: reading stdin
	// and the handler. When it passes, Serve gives up as if ctx were done
	// (exit 1, or 2 when failing closed) without waiting for a handler
	// that ignores its context. Claude Code kills a hook that outlives the
	// hook's timeout (600 s by default, 30 s for UserPromptSubmit) and then
	// takes no decision, which lets the action through; a guard that fails
	// closed should set Timeout below the hook's timeout so that it blocks
	// instead.
	Timeout time.Duration

	// FailClosed turns every failure — a handler error other than
	// [Block], a recovered panic, an invalid answer, a missed deadline,
	// unreadable input — into exit code 2 on the events that can block
	// (see [CanBlock]), so that a guard never lets an action through
	// because it broke. On the other events failures stay exit 1.
	// Unreadable input that does not name its event fails closed too.
	FailClosed bool
}

// Serve reads one hook event from stdin, passes it to h, writes the answer
// to stdout and diagnostics to stderr, and returns the process exit code.
// It is (&Server{Handler: h}).Serve(ctx, stdin, stdout, stderr). Serve never
// exits the process and never panics.
func Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, h Handler) int {
	s := Server{Handler: h}
	return s.Serve(ctx, stdin, stdout, stderr)
}

// Run serves the event on the process's stdin with h and exits with the
// code that [Serve] returns. It is the whole main function of a hook:
//
//	func main() { hook.Run(hook.PreToolUseFunc(guard)) }
//
// The context passed to the handler is cancelled when the process gets
// SIGINT or SIGTERM (from 20 ms after the start on; see signalDelay); Serve
// then returns at once (exit 1, or 2 when failing closed) even if the
// handler ignores its context. Run sets no deadline: use a [Server] with a
// Timeout for that.
func Run(h Handler) {
	ctx, cancel := context.WithCancelCause(context.Background())
	arm := time.AfterFunc(signalDelay, func() { cancelOnSignal(ctx, cancel) })
	code := Serve(ctx, os.Stdin, os.Stdout, os.Stderr, h)
	arm.Stop()
	cancel(nil)
	os.Exit(code)
}

// signalDelay is how long [Run] lets a hook run before it takes over
// SIGINT and SIGTERM. Most hooks answer well within it, and taking over
// the signals costs a goroutine and an OS thread at start-up (about a
// tenth of a small hook's run time); a signal that comes sooner ends the
// process the default way, as if the hook had not run.
const signalDelay = 20 * time.Millisecond

// cancelOnSignal cancels ctx when the process gets SIGINT or SIGTERM, with
// the cause "<signal> signal received".
func cancelOnSignal(ctx context.Context, cancel context.CancelCauseFunc) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer signal.Stop(c)
		select {
		case sig := <-c:
			cancel(fmt.Errorf("%v signal received", sig))
		case <-ctx.Done():
		}
	}()
}

// Serve reads exactly one JSON object from stdin (it does not wait for end
// of input), keeps its bytes, decodes the common fields and passes the
// event to s.Handler. Then:
//   - a nil answer: exit 0, nothing written;
//   - an answer: validated for the event, written compactly on stdout
//     followed by a newline, exit 0;
//   - a [Block] error: its reason on stderr, nothing on stdout, exit 2;
//   - any other error, a panic, an invalid answer, a context done (or
//     s.Timeout passed) before the input was read or the handler returned,
//     or unreadable, oversized or malformed input: one line on stderr that
//     begins with "hook: ", nothing on stdout, exit 1 (exit 2 on events
//     that can block when s.FailClosed is set or the handler is wrapped in
//     [FailClosed]; also exit 2 for unreadable input that does not name
//     its event);
//   - an event with no handler, or a name the library does not know: exit 0,
//     nothing written.
//
// Serve reads stdin up to the end of the first JSON object and no further.
// A UTF-8 byte order mark before it is skipped; whitespace after it is
// ignored; anything else that arrived with the object is an error. The
// object must be valid UTF-8 JSON without duplicate member names; escapes
// of lone surrogates such as \ud800 are accepted and kept byte for byte.
// The README's reliability table lists the outcome of each kind of bad
// input.
//
// The handler runs on its own goroutine; when ctx is done first, Serve
// returns without waiting for it, so the handler must not write to stdout
// or stderr itself.
func (s *Server) Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	h := s.Handler
	failClosed := s.FailClosed
	if fc, ok := h.(failClosedHandler); ok {
		failClosed = true
		if fc.Handler == nil {
			h = nil
		}
	}
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	// blockable is whether a failure exits 2; it is settled once the
	// event's name is known.
	blockable := failClosed
	defer func() {
		if p := recover(); p != nil {
			code = fail(stderr, blockable, fmt.Errorf("hook: internal error: %v", p))
		}
	}()

	w := s.work(ctx, stdin, h)
	ev, out, err := w.ev, w.out, w.err
	if ev != nil && ev.HookEventName != "" {
		blockable = failClosed && CanBlock(ev.HookEventName)
	}
	if w.stage == stageRead {
		return fail(stderr, blockable, err)
	}
	if h == nil {
		return ExitOK
	}
	if err != nil {
		var be *BlockError
		if errors.As(err, &be) {
			writeLine(stderr, be.Reason)
			return ExitBlock
		}
		return fail(stderr, blockable, err)
	}
	if out == nil {
		return ExitOK
	}
	b, err := out.appendAnswer(nil, ev)
	if err != nil {
		return fail(stderr, blockable, fmt.Errorf("hook: invalid answer to %s: %w", ev.HookEventName, err))
	}
	if len(b) == 0 {
		return ExitOK
	}
	// The answer types validate themselves; this is the last guard of
	// the promise that stdout is one JSON object, or, for the answers that
	// are plain text by design (context text, a worktree path), text that
	// Claude Code cannot mistake for JSON.
	if pt, ok := out.(plainTextAnswer); ok && pt.plainText() {
		if b[0] == '{' || !utf8.Valid(b) {
			return fail(stderr, blockable, fmt.Errorf("hook: internal error: the plain-text answer to %s starts with { or is not UTF-8", ev.HookEventName))
		}
	} else if valid, _ := rawjson.Valid(b); b[0] != '{' || !valid || !utf8.Valid(b) {
		return fail(stderr, blockable, fmt.Errorf("hook: internal error: the answer to %s is not one valid JSON object", ev.HookEventName))
	}
	if _, err := stdout.Write(b); err != nil {
		return fail(stderr, false, fmt.Errorf("hook: writing the answer: %w", err))
	}
	if _, err := io.WriteString(stdout, "\n"); err != nil {
		return fail(stderr, false, fmt.Errorf("hook: writing the answer: %w", err))
	}
	return ExitOK
}

func (s *Server) maxInputBytes() int64 {
	switch {
	case s.MaxInputBytes == 0:
		return DefaultMaxInputBytes
	case s.MaxInputBytes < 0:
		return -1
	}
	return s.MaxInputBytes
}

// The stages of one Serve call, for the messages of a failure.
const (
	stageRead    = iota // reading and decoding stdin
	stageHandler        // the handler has the event
)

// result is what the goroutine of one Serve call reports.
type result struct {
	stage int
	ev    *Event // nil when stdin could not be read
	out   Output
	err   error
}

// work reads the event from stdin and passes it to h (when h is not nil),
// on one new goroutine, so that a panic or a runtime.Goexit becomes an
// error, and gives up when ctx is done first, even if the reader or the
// handler ignores ctx. One goroutine serves both stages: a hook process
// serves one event, and every goroutine it starts costs start-up time.
func (s *Server) work(ctx context.Context, stdin io.Reader, h Handler) result {
	if err := ctx.Err(); err != nil {
		return result{err: fmt.Errorf("hook: gave up before reading stdin: %w", context.Cause(ctx))}
	}
	done := make(chan result, 1)
	var handling atomic.Pointer[Event] // the event, once the handler has it
	go func() {
		finished := false
		defer func() {
			if finished {
				return
			}
			ev := handling.Load()
			p := recover()
			switch {
			case ev == nil:
				done <- result{err: fmt.Errorf("hook: internal error while reading stdin: %v", p)}
			case p != nil:
				done <- result{stage: stageHandler, ev: ev, err: fmt.Errorf("hook: the %s handler panicked: %v%s", ev.HookEventName, p, panicSite())}
			default:
				done <- result{stage: stageHandler, ev: ev, err: fmt.Errorf("hook: the %s handler called runtime.Goexit instead of answering", ev.HookEventName)}
			}
		}()
		r := result{stage: stageRead}
		r.ev, r.err = readEvent(stdin, s.maxInputBytes())
		if r.err == nil {
			r.stage = stageHandler
			switch {
			case h == nil:
			case ctx.Err() != nil:
				r.err = fmt.Errorf("hook: gave up before calling the %s handler: %w", r.ev.HookEventName, context.Cause(ctx))
			default:
				handling.Store(r.ev)
				r.out, r.err = h.ServeHook(ctx, r.ev)
			}
		}
		finished = true
		done <- r
	}()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		select {
		case r := <-done: // both ready: the result wins
			return r
		default:
		}
	}
	deadline := ctx.Err() == context.DeadlineExceeded
	ev := handling.Load()
	switch {
	case ev == nil && deadline:
		return result{err: fmt.Errorf("hook: gave up waiting for a complete JSON object on stdin: %w", context.Cause(ctx))}
	case ev == nil:
		return result{err: fmt.Errorf("hook: interrupted while waiting for a complete JSON object on stdin: %w", context.Cause(ctx))}
	case deadline:
		return result{stage: stageHandler, ev: ev, err: fmt.Errorf("hook: the %s handler did not answer in time: %w", ev.HookEventName, context.Cause(ctx))}
	}
	return result{stage: stageHandler, ev: ev, err: fmt.Errorf("hook: the %s handler was interrupted: %w", ev.HookEventName, context.Cause(ctx))}
}

// panicSite returns " (at <function> <file>:<line>)" for the frame that
// panicked, when called from a deferred function during a panic, or "".
// The file is a base name, so no machine path leaks into the message.
func panicSite() string {
	var pcs [32]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs[:])])
	inPanic := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			inPanic = true
		case inPanic && !strings.HasPrefix(f.Function, "runtime."):
			return fmt.Sprintf(" (at %s %s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}

// maxErrorLine caps the length of an error line on stderr.
const maxErrorLine = 4000

// fail writes err as one line on stderr, beginning with "hook: ", and
// returns the exit code.
func fail(stderr io.Writer, block bool, err error) int {
	msg := oneLine(err.Error())
	if !strings.HasPrefix(msg, "hook: ") {
		msg = "hook: " + msg
	}
	if len(msg) > maxErrorLine {
		msg = strings.ToValidUTF8(msg[:maxErrorLine], "") + "…"
	}
	writeLine(stderr, msg)
	if block {
		return ExitBlock
	}
	return ExitError
}

// oneLine folds a message onto one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

func writeLine(w io.Writer, s string) {
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	io.WriteString(w, s)
}

// FailClosed returns a handler that behaves as h, except that [Serve] fails
// closed for it: any failure on an event that can block exits with code 2,
// as if the handler had returned [Block] with the error's text. Guards that
// must not let an action through because they broke want this.
func FailClosed(h Handler) Handler { return failClosedHandler{h} }

type failClosedHandler struct{ Handler }

// Event is one hook invocation as [Serve] read it: the fields every event
// carries, decoded, and the whole input, kept byte for byte. The typed
// events ([PreToolUse] and the others) embed it.
type Event struct {
	// SessionID is the session's UUID.
	SessionID string `json:"session_id"`
	// TranscriptPath is the path of the session's .jsonl transcript.
	TranscriptPath string `json:"transcript_path"`
	// Cwd is the session's current directory.
	Cwd string `json:"cwd"`
	// PromptID is the id of the user prompt being processed; empty before
	// the first prompt.
	PromptID string `json:"prompt_id,omitempty"`
	// PermissionMode is the permission mode, on the events that carry it.
	PermissionMode PermissionMode `json:"permission_mode,omitempty"`
	// AgentID is set when the hook fires inside a subagent.
	AgentID string `json:"agent_id,omitempty"`
	// AgentType is the agent's name inside a subagent, or on every event
	// of a session started with --agent.
	AgentType string `json:"agent_type,omitempty"`
	// Effort is the effort of the current turn, on the events fired with a
	// turn context; nil when absent.
	Effort *Effort `json:"effort,omitempty"`
	// HookEventName is the event's name, such as "PreToolUse".
	HookEventName string `json:"hook_event_name"`

	raw     jsontext.Value
	members []rawjson.Member
}

// Raw returns the whole input exactly as Claude Code sent it (without the
// trailing newline). Fields the library does not know are there. The
// caller must not modify it.
func (e *Event) Raw() jsontext.Value { return e.raw }

// Field returns the raw value of the top-level input member name, and
// whether it was present. It reaches fields that the typed views do not
// know yet.
func (e *Event) Field(name string) (jsontext.Value, bool) {
	for _, m := range e.members {
		if m.Key == name {
			return m.Value, true
		}
	}
	return nil, false
}

// Decode decodes the whole input into v, for instance a *[PreToolUse].
// Members of type jsontext.Value keep their exact bytes.
func (e *Event) Decode(v any) error {
	return decodeEvent(e, v)
}

// event returns e; the typed events inherit it so that generic code can
// reach the embedded Event.
func (e *Event) event() *Event { return e }

// PermissionMode is the session's permission mode.
type PermissionMode string

// The permission modes Claude Code sends ("manual" arrives as default).
const (
	PermissionModeDefault           PermissionMode = "default"
	PermissionModePlan              PermissionMode = "plan"
	PermissionModeAcceptEdits       PermissionMode = "acceptEdits"
	PermissionModeAuto              PermissionMode = "auto"
	PermissionModeDontAsk           PermissionMode = "dontAsk"
	PermissionModeBypassPermissions PermissionMode = "bypassPermissions"
)

// Effort is the effort of the current turn.
type Effort struct {
	// Level is "low", "medium", "high", "xhigh" or "max".
	Level string `json:"level"`
}
