package hook

import (
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

	"github.com/gohooks/hook/internal/rawjson"
)

// Serve reads one hook event from stdin, passes it to h, writes the answer
// to stdout and diagnostics to stderr, and returns the process exit code.
// It is (&Server{Handler: h}).Serve(ctx, stdin, stdout, stderr). Serve never
// exits the process and never panics.
func Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, h Handler) int {
	s := Server{Handler: h}
	return s.Serve(ctx, stdin, stdout, stderr)
}

// Run serves the event on the process's stdin with h and exits with the
// code that [Serve] would return. It is the whole main function of a hook:
//
//	func main() { hook.Run(hook.PreToolUseFunc(guard)) }
//
// It is (&Server{Handler: h}).Run(); see [Server.Run].
func Run(h Handler) {
	s := Server{Handler: h}
	s.Run()
}

// Run serves the event on the process's stdin with s and exits with the
// code that [Server.Serve] would return, with the same answers and
// messages. A hook process serves one event, so Run spends nothing it
// does not need: the handler runs on the calling goroutine, and the
// watchers below are timers that cost nothing unless they fire.
//
// The context passed to the handler is cancelled when the process gets
// SIGINT or SIGTERM (from 20 ms after the start on; see signalDelay), or
// when s.Timeout passes. Run then exits at once (exit 1, or 2 when
// failing closed) with one line on stderr, even if the handler ignores
// its context; an answer that the handler has already begun to write
// wins. A handler that calls runtime.Goexit also ends the process with
// an error line instead of a Go crash.
func (s *Server) Run() {
	os.Exit(s.run(os.Stdin, os.Stdout, os.Stderr, os.Exit))
}

// signalDelay is how long [Run] lets a hook run before it takes over
// SIGINT and SIGTERM. Most hooks answer well within it, and taking over
// the signals costs a goroutine and an OS thread at start-up (about a
// tenth of a small hook's run time); a signal that comes sooner ends the
// process the default way, as if the hook had not run.
const signalDelay = 20 * time.Millisecond

// onSignal calls f with the first SIGINT or SIGTERM the process gets
// until ctx is done.
func onSignal(ctx context.Context, f func(os.Signal)) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		defer signal.Stop(c)
		select {
		case sig := <-c:
			f(sig)
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
	h, failClosed := s.handler()
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
	blockable = w.blockable(failClosed)
	return writeOutcome(w, h, stdout, stderr, blockable)
}

// handler returns the handler to call (nil: none) and whether failures
// fail closed.
func (s *Server) handler() (Handler, bool) {
	h := s.Handler
	failClosed := s.FailClosed
	if fc, ok := h.(failClosedHandler); ok {
		failClosed = true
		if fc.Handler == nil {
			h = nil
		}
	}
	return h, failClosed
}

// writeOutcome writes the outcome w of one invocation and returns the exit code.
func writeOutcome(w result, h Handler, stdout, stderr io.Writer, blockable bool) int {
	ev, out, err := w.ev, w.out, w.err
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
	// One buffer that most answers fit: growing one through the small
	// size classes touches a fresh page for each.
	b, err := out.appendAnswer(make([]byte, 0, 1024), ev)
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
	// One write: the answer and its newline reach Claude Code together.
	if _, err := stdout.Write(append(b, '\n')); err != nil {
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

// result is the outcome of reading the event and calling the handler.
type result struct {
	stage int
	ev    *Event // nil when stdin could not be read
	out   Output
	err   error
}

// blockable reports whether a failure of r exits 2.
func (r result) blockable(failClosed bool) bool {
	if r.ev != nil && r.ev.HookEventName != "" {
		return failClosed && CanBlock(r.ev.HookEventName)
	}
	return failClosed
}

// serveOne reads the event from stdin and passes it to h (when h is not
// nil). handling gets the event once the handler has it.
func (s *Server) serveOne(ctx context.Context, stdin io.Reader, h Handler, handling *atomic.Pointer[Event]) result {
	r := result{stage: stageRead}
	r.ev, r.err = readEvent(stdin, s.maxInputBytes())
	if r.err != nil {
		return r
	}
	r.stage = stageHandler
	switch {
	case h == nil:
	case ctx.Err() != nil:
		r.err = fmt.Errorf("hook: gave up before calling the %s handler: %w", r.ev.HookEventName, context.Cause(ctx))
	default:
		handling.Store(r.ev)
		r.out, r.err = h.ServeHook(ctx, r.ev)
	}
	return r
}

// unfinished is the outcome of a serving goroutine that panicked (p is
// the recovered value) or called runtime.Goexit (p is nil); ev is the
// event when the handler had it.
func unfinished(ev *Event, p any) result {
	switch {
	case ev == nil:
		return result{err: fmt.Errorf("hook: internal error while reading stdin: %v", p)}
	case p != nil:
		return result{stage: stageHandler, ev: ev, err: fmt.Errorf("hook: the %s handler panicked: %v%s", ev.HookEventName, p, panicSite())}
	}
	return result{stage: stageHandler, ev: ev, err: fmt.Errorf("hook: the %s handler called runtime.Goexit instead of answering", ev.HookEventName)}
}

// interrupted is the outcome of an invocation given up because ctx is
// done; ev is the event when the handler had it.
func interrupted(ctx context.Context, ev *Event) result {
	deadline := ctx.Err() == context.DeadlineExceeded || context.Cause(ctx) == context.DeadlineExceeded
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

// work reads the event from stdin and passes it to h (when h is not nil),
// on one new goroutine, so that a panic or a runtime.Goexit becomes an
// error, and gives up when ctx is done first, even if the reader or the
// handler ignores ctx.
func (s *Server) work(ctx context.Context, stdin io.Reader, h Handler) result {
	if err := ctx.Err(); err != nil {
		return result{err: fmt.Errorf("hook: gave up before reading stdin: %w", context.Cause(ctx))}
	}
	done := make(chan result, 1)
	var handling atomic.Pointer[Event] // the event, once the handler has it
	go func() {
		finished := false
		defer func() {
			if !finished {
				done <- unfinished(handling.Load(), recover())
			}
		}()
		r := s.serveOne(ctx, stdin, h, &handling)
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
	return interrupted(ctx, handling.Load())
}

// run is the body of [Server.Run], with the process's files and exit
// function as arguments. The handler runs on the calling goroutine. A
// signal or s.Timeout ends the process from a timer's goroutine through
// exit, unless the calling goroutine has begun to write its outcome:
// exactly one of them writes.
func (s *Server) run(stdin io.Reader, stdout, stderr io.Writer, exit func(int)) (code int) {
	h, failClosed := s.handler()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)

	var (
		written  atomic.Bool // set by whoever writes the outcome
		handling atomic.Pointer[Event]
	)
	claim := func() bool { return written.CompareAndSwap(false, true) }
	// giveUp ends the process from a watcher's goroutine, unless the
	// caller has begun to write its own outcome.
	giveUp := func(cause error) {
		if !claim() {
			return
		}
		cancel(cause)
		r := interrupted(ctx, handling.Load())
		exit(safeAnswer(r, h, stdout, stderr, r.blockable(failClosed)))
	}
	if s.Timeout > 0 {
		t := time.AfterFunc(s.Timeout, func() { giveUp(context.DeadlineExceeded) })
		defer t.Stop()
	}
	arm := time.AfterFunc(signalDelay, func() {
		onSignal(ctx, func(sig os.Signal) { giveUp(fmt.Errorf("%v signal received", sig)) })
	})
	defer arm.Stop()

	finished := false
	defer func() {
		if finished {
			return
		}
		p := recover()
		r := unfinished(handling.Load(), p)
		if !claim() {
			select {} // the process is being ended by a watcher
		}
		code = safeAnswer(r, h, stdout, stderr, r.blockable(failClosed))
		if p == nil {
			// runtime.Goexit: the goroutine ends for good and cannot
			// return code.
			exit(code)
		}
	}()
	r := s.serveOne(ctx, stdin, h, &handling)
	finished = true
	if !claim() {
		select {} // the process is being ended by a watcher
	}
	return safeAnswer(r, h, stdout, stderr, r.blockable(failClosed))
}

// safeAnswer is writeOutcome with a panic turned into an internal error.
func safeAnswer(r result, h Handler, stdout, stderr io.Writer, blockable bool) (code int) {
	defer func() {
		if p := recover(); p != nil {
			code = fail(stderr, blockable, fmt.Errorf("hook: internal error: %v", p))
		}
	}()
	return writeOutcome(r, h, stdout, stderr, blockable)
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
