package hook

import (
	"context"
	"errors"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/rawjson"
)

// Exit codes that [Serve] returns and [Run] exits with.
const (
	// ExitOK means the hook answered normally: its JSON answer, if any,
	// is on stdout.
	ExitOK = 0
	// ExitError is a non-blocking error: Claude Code goes on as if the hook
	// had not run and shows the one line on stderr as a notice.
	ExitError = 1
	// ExitBlock blocks the action on the events that can block (each
	// event type says what exit 2 does there); stderr is the reason. Nothing is written on stdout.
	ExitBlock = 2
)

// DefaultMaxInputBytes is the input size cap a [Server] uses when
// MaxInputBytes is zero: 64 MiB.
const DefaultMaxInputBytes = 64 << 20

// Handler answers hook events. ServeHook receives one event and returns
// what to do about it:
//
//   - a nil answer (also a typed nil such as a nil *PreToolUseOutput):
//     nothing is written and the hook exits 0, so Claude Code goes on as
//     if the hook had not run;
//   - an answer ([PreToolUseOutput] and the other FooOutput types,
//     [Async]): it is validated against the event as the client validates
//     it, and written as one compact JSON line (exit 0); an answer the
//     client would reject or take as partial is refused before a byte is
//     written, and counts as a failure;
//   - [Block] (a *[BlockError], possibly wrapped): exit 2, the reason on
//     stderr, nothing on stdout, which blocks on the events that can block
//     (each event type says what exit 2 does there);
//   - any other error, or a panic: a failure — exit 1 with one line on
//     stderr (a non-blocking error), or exit 2 where the handler is
//     wrapped in [FailClosed] (or the [Server] fails closed) and the event
//     can block.
//
// The context is cancelled when the [Server]'s Timeout passes or the
// process gets SIGINT or SIGTERM; the hook then gives up without waiting
// for ServeHook to return. A handler must not write to os.Stdout or
// os.Stderr itself (the library owns both), must treat the event's raw
// values ([Event.Raw], ToolInput, …) as read-only, and must not keep the
// event after it returns. [Run] calls ServeHook once per process; an
// in-process server (an http hook served by package hookhttp) may call it from many
// goroutines at once, each with its own event.
//
// The typed adapters ([PreToolUseFunc] and one per event), [Mux] and
// [Chain] are the usual ways to build a Handler.
type Handler interface {
	ServeHook(ctx context.Context, ev *Event) (Output, error)
}

// HandlerFunc adapts an ordinary function to a [Handler].
type HandlerFunc func(ctx context.Context, ev *Event) (Output, error)

// ServeHook calls f(ctx, ev). An [Async] that f returns as its error (or
// wraps in it) is its answer, as for the typed adapters.
func (f HandlerFunc) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	out, err := f(ctx, ev)
	if a, ok := asyncError(err); ok {
		return a, nil
	}
	return out, err
}

// eventPtr is satisfied by pointers to the typed events, which embed Event.
type eventPtr[T any] interface {
	*T
	event() *Event
}

// serveTyped is the body of every typed adapter's ServeHook: events other
// than name get no answer; the input is decoded into a new T; a nil answer
// writes nothing; an [Async] returned as the error is the answer.
func serveTyped[T any, PT eventPtr[T], O any, PO interface {
	*O
	Output
}](ctx context.Context, ev *Event, name string, f func(context.Context, PT) (PO, error)) (Output, error) {
	if ev.HookEventName != name || f == nil {
		return nil, nil
	}
	in := PT(new(T))
	if err := decodeNew(ev, in, in.event()); err != nil {
		return nil, err
	}
	out, err := f(ctx, in)
	if a, ok := asyncError(err); ok {
		return a, nil
	}
	if out == nil {
		return nil, err
	}
	return out, err
}

// asyncError returns the [Async] that err is or wraps: a handler whose
// answer type cannot hold one returns it as its error.
func asyncError(err error) (Async, bool) {
	if err == nil {
		return Async{}, false
	}
	var a Async
	if errors.As(err, &a) {
		return a, true
	}
	var p *Async
	if errors.As(err, &p) && p != nil {
		return *p, true
	}
	return Async{}, false
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
// stderr. A nil *BlockError and one whose Reason is blank (empty, or only
// white space such as "\n", U+00A0 or U+3000) block too, with the reason
// "blocked by hook".
type BlockError struct {
	Reason string
}

// Error returns the reason, or the default reason "blocked by hook" when
// it is blank (or e is nil).
func (e *BlockError) Error() string { return blockReason(e) }

// Block returns an error that blocks the action: [Serve] writes reason on
// stderr, nothing on stdout, and returns [ExitBlock]. Claude Code gives the
// reason to Claude (PreToolUse, Stop, …) or to the user (UserPromptSubmit),
// depending on the event; on events that cannot block (each event type says what exit 2 does there) exit
// code 2 only shows stderr or is ignored. A blank reason (empty, or only
// white space, which Codex would trim to nothing and report as a failed
// hook instead of a block) is replaced by "blocked by hook".
func Block(reason string) error {
	return &BlockError{Reason: reasonOrDefault(reason)}
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
	// (each event type says what exit 2 does there), so that a guard never lets an action through
	// because it broke. On the other events failures stay exit 1.
	// Unreadable input that does not name its event fails closed too.
	FailClosed bool

	// CallLog, when not empty, is the path of a file to which [Server.Run]
	// and [Server.Serve] append one JSON line per call: the event, the
	// tool, the agent, the kind of the answer, the exit code, the
	// duration and, for a failure, its stderr line and where a handler
	// panicked. Empty means the file $HOOK_CALL_LOG names ([CallLogEnv]);
	// both empty, the default, means no log, at no cost per call beyond
	// that one lookup of the environment. The log is
	// never written to stdout, and a log that cannot be written changes
	// neither the answer nor the exit code. docs/reliability.md
	// describes the line.
	CallLog string

	// LongText says what happens to a text of the answer that is longer
	// than Claude Code passes on whole ([MaxTextChars] UTF-16 code
	// units): an additionalContext, a systemMessage, a SessionStart
	// initialUserMessage or a plain-text answer. The zero value,
	// [LongTextSpill], saves the whole text to a file and answers with
	// its head and a line naming the file; [LongTextTruncate] cuts it
	// with a line saying how much was cut; [LongTextRefuse] fails the
	// answer. Claude Code's own cut, a 2,000-character preview, is never
	// reached. Answers to Codex are left whole.
	LongText LongTextPolicy

	// SpillDir is the folder [LongTextSpill] writes whole texts to. Empty
	// means the folder "hook-context" in the session's folder beside its
	// transcript (where Claude Code saves its own long outputs) when
	// Claude Code made or is making that folder, or else
	// "gohooks-context" in the temporary folder ([os.TempDir]); see
	// docs/reliability.md. The model must be able to read
	// the files: a folder it cannot read loses the rest of the text for
	// it.
	SpillDir string
}

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
	// agent is the agent that sent the payload, found at the read.
	agent Agent
	// inv is the state of the invocation this event belongs to, shared by
	// every handler that sees it; nil for an Event built outside Serve.
	inv *invocation
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
