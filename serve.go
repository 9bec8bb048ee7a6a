package hook

import (
	"bytes"
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

	"github.com/gohooks/hook/internal/inputedit"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
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

// testHookSignalsTaken, when a test sets it, is called once [Run] has
// taken over SIGINT and SIGTERM, so that the test can send one then
// instead of after a guessed pause.
var testHookSignalsTaken func()

// onSignal calls f with the first SIGINT or SIGTERM the process gets
// until ctx is done.
func onSignal(ctx context.Context, f func(os.Signal)) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	if testHookSignalsTaken != nil {
		testHookSignalsTaken()
	}
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
//     nothing written;
//   - a payload of Cursor, Gemini CLI or GitHub Copilot CLI's camelCase
//     hooks, which the library does not serve (see [Event.Agent]): the
//     handler is not run;
//     exit 2 with a line naming the agent when failing closed as for
//     unreadable input, otherwise exit 0, nothing on stdout and one line
//     on stderr saying the hook did nothing.
//
// An answer to an OpenAI Codex payload is also checked against the rules
// of Codex (docs/agents.md) and, when Codex would refuse it, is an
// invalid answer: Codex would ignore it and run the call as if there were
// no hook. A rewrite under Codex needs Decision: [Allow] beside
// UpdatedInput. An answer to a GitHub Copilot CLI payload is checked
// against what Copilot does with it: a part Copilot would drop in silence
// (continue:false, a rewrite of a tool's result, context outside
// PreToolUse) makes it an invalid answer. Copilot tells the model "hook
// exited with code 2" instead of the reason of an exit-2 block of
// PreToolUse, so that block (a fail-closed failure, [Block]) is written
// to Copilot as a deny with the reason, exit 0.
//
// Serve reads stdin up to the end of the first JSON object and no further.
// A UTF-8 byte order mark before it is skipped; whitespace after it is
// ignored; anything else that arrived with the object is an error. The
// object must be valid UTF-8 JSON without duplicate member names; escapes
// of lone surrogates such as \ud800 are accepted and kept byte for byte.
// docs/reliability.md lists the outcome of each kind of bad
// input.
//
// The handler runs on its own goroutine; when ctx is done first, Serve
// returns without waiting for it, so the handler must not write to stdout
// or stderr itself.
func (s *Server) Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			code = fail(stderr, s.FailClosed, fmt.Errorf("hook: internal error: %s", describe(p)))
		}
	}()
	log := s.callLog()
	o := s.work(ctx, stdin, s.Handler)
	code = o.write(stdout, stderr)
	log.done(o, code, stderr)
	return code
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
	// panicked is the value the serving goroutine panicked with, and
	// site where (see panicSite); err is made of them when the outcome is
	// settled, because formatting the value runs its methods, which are
	// handler code (see settle).
	panicked any
	site     string
}

// outcome is what one invocation writes and the exit code it returns. It
// is settled before anything is written, so that the deadline bounds
// every piece of work that handler code can stall (an error's Error
// method, an answer's validation and encoding).
type outcome struct {
	code   int
	stdout []byte // the answer and its newline, or nil
	// spliced, when set, is a vouched value written after stdout, and
	// after is the rest of the answer with its newline (see internal/inputedit).
	spliced *inputedit.Spliced
	after   []byte
	stderr  string // one line, or ""
	// closed reports whether an answer that cannot be written blocks.
	closed bool
	// ev is the event when it could be read, and stage the stage the
	// outcome was settled in: [Server.ServeHTTPBody] writes the outcome in
	// the event's JSON form and picks the status of a failure by them.
	ev    *Event
	stage int
	// site is where the handler panicked, for the call log.
	site string
}

// write writes o and returns its exit code. An answer that cannot be
// written is a failure: it blocks when o.closed is set.
func (o outcome) write(stdout, stderr io.Writer) int {
	o = o.copilotDeny()
	if o.stderr != "" {
		writeLine(stderr, o.stderr)
	}
	if o.stdout == nil {
		return o.code
	}
	if err := o.writeAnswer(stdout); err != nil {
		if o.closed {
			return fail(stderr, true, fmt.Errorf("hook: could not write the answer (%w); blocking, because the hook fails closed", err))
		}
		return fail(stderr, false, fmt.Errorf("hook: writing the answer: %w", err))
	}
	return o.code
}

// writeAnswer writes the answer: one write, so that the answer and its
// newline reach Claude Code together, or, for an answer with a vouched
// value spliced in, its head, the value's pieces (see internal/inputedit) and
// its tail in order, so that a large answer is never copied whole.
func (o outcome) writeAnswer(w io.Writer) error {
	if _, err := w.Write(o.stdout); err != nil || o.spliced == nil {
		return err
	}
	if err := o.spliced.WriteInto(w); err != nil {
		return err
	}
	_, err := w.Write(o.after)
	return err
}

// whole returns o with its answer in stdout alone, as one slice, or the
// failure to write instead when its vouched value can no longer be
// written (see inputedit.Spliced.WriteInto).
func (o outcome) whole() outcome {
	if o.spliced == nil {
		return o
	}
	b := bytes.NewBuffer(make([]byte, 0, len(o.stdout)+o.spliced.Len()+len(o.after)))
	if err := o.writeAnswer(b); err != nil {
		f := failed(o.closed, err)
		f.ev, f.stage = o.ev, o.stage
		return f
	}
	o.stdout, o.spliced, o.after = b.Bytes(), nil, nil
	return o
}

// answer returns the answer and its newline in one slice, or nil when it
// cannot be written (see whole).
func (o outcome) answer() []byte {
	return o.whole().stdout
}

// failed is the outcome of a failure: one line on stderr, exit 2 when
// block is set, else 1.
func failed(block bool, err error) outcome {
	o := outcome{code: ExitError, stderr: failLine(err)}
	if block {
		o.code = ExitBlock
	}
	return o
}

// failureBlocks reports whether a failure of r exits 2: the event can block
// (or is not known yet) and the server fails closed, a fail-closed
// handler has the event or has answered it, or, for input that could not
// be read, the handler would have failed closed for it.
func (s *Server) failureBlocks(h Handler, r result) bool {
	name := ""
	if r.ev != nil {
		name = r.ev.HookEventName
	}
	switch {
	case name != "" && !r.ev.canBlock():
		return false
	case s.FailClosed:
		return true
	case r.ev != nil && r.ev.inv.failingClosed():
		return true
	case r.stage == stageRead:
		return handlerFailsClosed(h, name)
	case outermostFailsClosed(h, name):
		// The whole handler is fail-closed, so every failure of it
		// blocks, also one that came before the wrapper took the event
		// (a deadline that passed between the read and the call).
		return true
	}
	return false
}

// settle settles the outcome of r on the goroutine that served it (the
// handler's, or a watcher's), where the deadline still bounds it: it
// runs handler code — the methods of an error or a panic value that
// format it (Error, String, Format, …), an error's As and Unwrap, a
// Wrapper's Unwrap — and that code may panic, loop or call
// runtime.Goexit. A panic is caught; a loop is cut short by the
// deadline; a runtime.Goexit ends the goroutine before settle can
// return, so settle hands onGoexit the outcome of that failure, which
// formats nothing of the handler's, before the goroutine ends (onGoexit
// nil: nothing can be done on this goroutine, which is not the
// handler's). Until the handler's fail-closed state is known, a failure
// blocks on any event that can block.
func (s *Server) settle(r result, h Handler, onGoexit func(outcome)) (o outcome) {
	closed, done := r.mayBlock(), false
	defer func() {
		if done {
			return
		}
		o = failed(closed, fmt.Errorf("hook: the answer to the %s could not be settled: code of the handler's (such as the Error or String method of a value it returned or panicked with) called runtime.Goexit or panicked while the library formatted it", eventName(r.ev)))
		o.ev, o.stage = r.ev, r.stage
		if recover() == nil && onGoexit != nil {
			onGoexit(o)
		}
	}()
	closed = s.failureBlocks(h, r)
	o = s.decide(r, h, closed)
	done = true
	return o
}

// mayBlock reports whether a failure of r could block: its event can
// block, or is not known.
func (r result) mayBlock() bool {
	return r.ev == nil || r.ev.HookEventName == "" || r.ev.canBlock()
}

// decide settles the outcome of r (see settle, which calls it); closed
// reports whether a failure blocks.
func (s *Server) decide(r result, h Handler, closed bool) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = failed(closed, fmt.Errorf("hook: the answer to the %s could not be settled: %s%s", eventName(r.ev), describe(p), panicSite()))
		}
		o.ev, o.stage, o.site = r.ev, r.stage, r.site
	}()
	if r.panicked != nil {
		r.err = panicError(r)
	}
	ev, out, err := r.ev, r.out, r.err
	if r.stage == stageRead {
		var ns *notServedError
		if errors.As(err, &ns) {
			return notServed(ns.agent, closed)
		}
		return failed(closed, err)
	}
	if isNil(h) {
		return outcome{code: ExitOK}
	}
	if err != nil {
		var be *BlockError
		if errors.As(err, &be) {
			return outcome{code: ExitBlock, stderr: oneLine(blockReason(be))}
		}
		return failed(closed, err)
	}
	if noAnswer(out) {
		return outcome{code: ExitOK}
	}
	b, fail := encodeAnswer(out, ev, closed)
	if b == nil {
		return fail
	}
	if b, fail = s.capAnswer(b, out, ev, closed); b == nil {
		return fail
	}
	// A vouched updatedInput went into b as a placeholder: b was
	// validated around it, and the vouched bytes take its place now.
	vg := ev.inv.vouched()
	head, value, tail, ok, err := vg.Splice(b)
	if err != nil {
		return failed(closed, err)
	}
	if !ok {
		vg.NoPlaceholders()
		if b, fail = encodeAnswer(out, ev, closed); b == nil {
			return fail
		}
		if b, fail = s.capAnswer(b, out, ev, closed); b == nil {
			return fail
		}
		head, value, tail = append(b, '\n'), nil, nil
	}
	o = outcome{code: ExitOK, stdout: head, spliced: value, after: tail, closed: closed}
	if value != nil && value.OneBlock() {
		// One block: the answer is put together now, so that a handler
		// that writes into its input cannot make a part of it be written.
		o.ev, o.stage = r.ev, r.stage
		o = o.whole()
	}
	return o
}

// encodeAnswer encodes and checks the answer out to ev. It returns the
// answer's bytes, or nil and the outcome to write instead: nothing (no
// answer) or a failure, which blocks when closed is set.
func encodeAnswer(out Output, ev *Event, closed bool) ([]byte, outcome) {
	// One buffer that most answers fit: growing one through the small
	// size classes touches a fresh page for each.
	b, err := out.appendAnswer(make([]byte, 0, 1024), ev)
	if err != nil {
		return nil, failed(closed, fmt.Errorf("hook: invalid answer to %s: %w", ev.HookEventName, err))
	}
	if len(b) == 0 {
		return nil, outcome{code: ExitOK}
	}
	// The answer types validate themselves; this is the last guard of
	// the promise that stdout is one JSON object, or, for the answers that
	// are plain text by design (context text, a worktree path), text that
	// Claude Code cannot mistake for JSON.
	if i := wire.InvalidUTF8(b); i >= 0 {
		// Go strings may hold any bytes; JSON text must be UTF-8.
		return nil, failed(closed, fmt.Errorf("hook: invalid answer to %s: a string or raw value the handler set is not valid UTF-8 (byte %#02x at offset %d of the answer); Claude Code would read U+FFFD there", ev.HookEventName, b[i], i))
	}
	if pt, ok := out.(plainTextAnswer); ok && pt.plainText() {
		if textLooksLikeJSON(b) {
			return nil, failed(closed, fmt.Errorf("hook: internal error: the plain-text answer to %s would be read as JSON", ev.HookEventName))
		}
		if ev.agent == AgentCodex {
			if err := checkCodexText(ev.HookEventName, b); err != nil {
				return nil, failed(closed, err)
			}
		} else if ev.agent == AgentCopilot {
			if err := checkCopilotText(ev.HookEventName, b); err != nil {
				return nil, failed(closed, err)
			}
		}
	} else if valid, _ := rawjson.Valid(b); b[0] != '{' || !valid {
		return nil, failed(closed, fmt.Errorf("hook: internal error: the answer to %s is not one valid JSON object", ev.HookEventName))
	} else if ev.agent == AgentCodex {
		if err := checkCodex(ev.HookEventName, b); err != nil {
			return nil, failed(closed, err)
		}
	} else if ev.agent == AgentCopilot {
		if err := checkCopilot(ev.HookEventName, b); err != nil {
			return nil, failed(closed, err)
		}
	}
	return b, outcome{}
}

// capAnswer applies s.LongText to the encoded answer b to ev (out is the
// answer it encodes): every capped text over [MaxTextChars] is spilled,
// truncated or refused. It returns b itself when no text is over the
// cap, which is always so for an answer of MaxTextChars bytes or fewer,
// or nil and the failure to write instead (blocking when closed is set).
// Codex's payloads are left alone: Claude Code's cap is not Codex's
// (docs/api.md, "Long text").
func (s *Server) capAnswer(b []byte, out Output, ev *Event, closed bool) ([]byte, outcome) {
	if len(b) <= MaxTextChars || ev.agent == AgentCodex {
		return b, outcome{}
	}
	nb, err := s.capBytes(b, out, ev)
	if err != nil {
		return nil, failed(closed, fmt.Errorf("hook: invalid answer to %s: %w", ev.HookEventName, err))
	}
	return nb, outcome{}
}

// eventName returns "<name> event", or "event" when ev names none.
func eventName(ev *Event) string {
	if ev == nil || ev.HookEventName == "" {
		return "event"
	}
	return ev.HookEventName + " event"
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
	case isNil(h):
	case ctx.Err() != nil:
		r.err = fmt.Errorf("hook: gave up before calling the %s handler: %w", r.ev.HookEventName, context.Cause(ctx))
	default:
		handling.Store(r.ev)
		defer serveTool(r.ev)()
		r.out, r.err = h.ServeHook(ctx, r.ev)
	}
	return r
}

// unfinished is the outcome of a serving goroutine that panicked (p is
// the recovered value) or called runtime.Goexit (p is nil); ev is the
// event when the handler had it. It is called from the deferred function
// that recovered p, and formats nothing: p's methods are handler code,
// which runs when the outcome is settled (see settle).
func unfinished(ev *Event, p any) result {
	switch {
	case p != nil && ev == nil:
		return result{panicked: p}
	case p != nil:
		return result{stage: stageHandler, ev: ev, panicked: p, site: panicSite()}
	case ev == nil:
		return result{err: errors.New("hook: internal error while reading stdin: runtime.Goexit")}
	}
	return result{stage: stageHandler, ev: ev, err: fmt.Errorf("hook: the %s handler called runtime.Goexit instead of answering", ev.HookEventName)}
}

// panicError is the error of r, whose serving goroutine panicked.
func panicError(r result) error {
	if r.ev == nil {
		return fmt.Errorf("hook: internal error while reading stdin: %s", describe(r.panicked))
	}
	return fmt.Errorf("hook: the %s handler panicked: %s%s", r.ev.HookEventName, describe(r.panicked), r.site)
}

// describe formats v, a value of the handler's such as a panic value or
// an error, as %v does. Its methods are handler code: when formatting
// panics (fmt catches one panic, but not a panic of the value it then
// formats), describe names v's type instead. It is called only while an
// outcome is settled (see settle), which also covers a runtime.Goexit.
func describe(v any) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("a %T value, whose formatting panicked", v)
		}
	}()
	return fmt.Sprint(v)
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

// work reads the event from stdin, passes it to h (when h is not nil) and
// settles the outcome, on a worker goroutine (worker.go), so that a panic
// or a runtime.Goexit becomes an error, and gives up when ctx is done
// first, even if the reader, the handler or the answer's own code ignores
// ctx.
func (s *Server) work(ctx context.Context, stdin io.Reader, h Handler) outcome {
	if err := ctx.Err(); err != nil {
		return failed(s.failureBlocks(h, result{}), fmt.Errorf("hook: gave up before reading stdin: %w", context.Cause(ctx)))
	}
	return getWorker().run(s, ctx, stdin, h)
}

// growStack grows a new goroutine's stack (a worker's, or [Run]'s
// caller's), while it holds next to nothing, to the size serving an
// event takes: a goroutine starts small
// and would otherwise grow several times on the way through the reader,
// the scanner and the codec, copying more of its stack each time.
//
//go:noinline
func growStack(i int) byte {
	var b [growStackSize]byte
	b[i] = 1
	return b[i/2]
}

// growStackSize is the frame growStack takes.
const growStackSize = 12 << 10

// run is the body of [Server.Run], with the process's files and exit
// function as arguments. The handler runs on the calling goroutine. A
// signal or s.Timeout ends the process from a timer's goroutine through
// exit, unless the calling goroutine has settled its outcome and begun to
// write it: exactly one of them writes. Settling the outcome (which runs
// handler code such as an error's Error method) stays under the deadline.
func (s *Server) run(stdin io.Reader, stdout, stderr io.Writer, exit func(int)) (code int) {
	// The stack grows once, to what serving takes, while it holds
	// nothing to copy, not twice on the way through the reader and the
	// codec: fewer fresh pages touched on every call (see growStack).
	growStack(0)
	log := s.callLog()
	h := s.Handler
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)

	var (
		written  atomic.Bool // set by whoever writes the outcome
		handling atomic.Pointer[Event]
	)
	claim := func() bool { return written.CompareAndSwap(false, true) }
	finished := false
	// end writes the outcome o and exits, unless a watcher is ending the
	// process; goexit is end for a goroutine that settle saw end.
	end := func(o outcome) {
		if !claim() {
			select {} // the process is being ended by a watcher
		}
		ignoreBrokenPipe()
		code := o.write(stdout, stderr)
		log.done(o, code, stderr)
		exit(code)
	}
	goexit := func(o outcome) {
		finished = true
		end(o)
	}
	// giveUp ends the process from a watcher's goroutine, unless the
	// caller has begun to write its own outcome.
	giveUp := func(cause error) {
		if written.Load() {
			return
		}
		cancel(cause)
		o := s.settle(interrupted(ctx, handling.Load()), h, end)
		if !claim() {
			return
		}
		code := o.write(stdout, stderr)
		log.done(o, code, stderr)
		exit(code)
	}
	if s.Timeout > 0 {
		t := time.AfterFunc(s.Timeout, func() { giveUp(context.DeadlineExceeded) })
		defer t.Stop()
	}
	arm := time.AfterFunc(signalDelay, func() {
		onSignal(ctx, func(sig os.Signal) { giveUp(fmt.Errorf("%v signal received", sig)) })
	})
	defer arm.Stop()

	defer func() {
		if finished {
			return
		}
		p := recover()
		o := s.settle(unfinished(handling.Load(), p), h, goexit)
		finished = true
		if p == nil {
			// runtime.Goexit: the goroutine ends for good and cannot
			// return code.
			end(o)
			return
		}
		if !claim() {
			select {} // the process is being ended by a watcher
		}
		ignoreBrokenPipe()
		code = o.write(stdout, stderr)
		log.done(o, code, stderr)
	}()
	r := s.serveOne(ctx, stdin, h, &handling)
	o := s.settle(r, h, goexit)
	finished = true
	if !claim() {
		select {} // the process is being ended by a watcher
	}
	ignoreBrokenPipe()
	code = o.write(stdout, stderr)
	log.done(o, code, stderr)
	return code
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
	writeLine(stderr, failLine(err))
	if block {
		return ExitBlock
	}
	return ExitError
}

// failLine is the stderr line of the failure err: one line, beginning
// with "hook: ", at most maxErrorLine bytes.
func failLine(err error) string {
	msg := oneLine(describe(err))
	if !strings.HasPrefix(msg, "hook: ") {
		msg = "hook: " + msg
	}
	if len(msg) > maxErrorLine {
		msg = strings.ToValidUTF8(msg[:maxErrorLine], "") + "…"
	}
	return msg
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
