// Package hook is a library for writing Claude Code hooks in Go.
//
// Claude Code runs a hook command for each event, writes one JSON object to
// its stdin, and reads back an exit code and optional JSON on stdout. A
// PreToolUse hook may answer updatedInput, and Claude Code takes that
// answer as the tool call's whole input: a member the hook leaves out is
// gone. This package makes that bug impossible to write: every update
// starts from the incoming tool_input ([Merge], [Edit], [Update]), untouched
// members are copied byte for byte, and an answer that Claude Code would
// reject or take as partial is refused before a byte is written.
//
// # A whole hook
//
//	func main() {
//		hook.Run(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
//			upd, err := e.Merge(map[string]string{"fingerprint": "…"})
//			if err != nil {
//				return nil, err
//			}
//			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
//		}))
//	}
//
// # The path of one event
//
// [Serve] reads exactly one JSON value from stdin (it does not wait for the
// end of input), keeps its exact bytes, decodes the common fields into an
// [Event] and passes it to a [Handler]. The typed adapters (one per event,
// such as [PreToolUseFunc]) decode the event into its type and ignore every
// other event; a [Mux] dispatches on the event name and the event's matcher.
// The handler's answer is validated for its event and written compactly with
// the library's JSON options; [Serve] returns the exit code and [Run] exits
// with it.
//
// # Several policies in one hook
//
// A [Mux] takes patterns such as "PreToolUse Bash|mcp__.*", with the
// matcher read exactly as Claude Code reads it ([CompileMatcher]); every
// registration that matches runs, in order. [Chain] runs handlers in order
// on one event: each sees the event as the previous one left it (a
// rewritten tool_input), and the answers are combined by the client's own
// rules (PreToolUse: deny > defer > ask > allow; rewrites composed, each
// checked against the input its handler saw), deterministically, where
// separate hooks would race. A handler's failure is the chain's: a
// neighbour's allow never goes out next to a failed guard.
//
// # Exit codes
//
//   - an answer: 0, and its JSON on stdout (nothing for a nil answer);
//   - [Block]: 2, the reason on stderr, nothing on stdout;
//   - any other error, a recovered panic, an invalid answer, unreadable or
//     oversized input: 1 and one line on stderr, which Claude Code treats as
//     a non-blocking error; with [FailClosed] (or [Server].FailClosed), 2 on
//     the events that can block (each event type says what exit 2 does there);
//   - an event without a handler, or one the library does not know: 0 and
//     nothing written, so hooks keep working when Claude Code adds events.
//
// # Failing closed
//
// [FailClosed] composes: wherever it wraps a handler (outermost, inside a
// [Mux], under middleware), that handler's errors, panics, runtime.Goexit,
// invalid answers, a [Server] Timeout or SIGINT/SIGTERM while it runs, and
// an answer of it that cannot be written (a full disk, a closed pipe)
// block on the events that can block. [Server].Timeout bounds everything
// handler code can stall, also after the handler returned (an error whose
// Error method blocks, the answer's encoding): when it passes, a
// fail-closed hook exits 2 and a fail-open one exits 1, at once.
//
// # What the library cannot catch
//
// Some failures happen outside any code the library can wrap. Each one
// ends the process the Go runtime's way, and each has a remedy:
//
//   - A Go fatal error — a stack overflow from deep recursion, concurrent
//     map writes, running out of memory — prints a Go stack trace on
//     stderr and exits with code 2, which Claude Code reads as a block
//     with the trace as its reason. Bound recursion by the input's size,
//     guard shared maps with a mutex, and keep [Server].MaxInputBytes set.
//   - A panic on a goroutine that the handler started is not the
//     handler's panic: it crashes the process the same way. Recover on
//     every goroutine you start, or return errors over a channel.
//   - A handler that writes to os.Stdout or os.Stderr itself can break the
//     promise that stdout is one JSON answer (and Claude Code reads exit 2
//     with stdout as a block). Return the answer instead, and log to a
//     file or with log/slog to a file.
//   - os.Exit or log.Fatal inside a handler ends the process without an
//     answer and with the code given. Return an error instead.
//   - A hook killed by Claude Code at the hook's timeout (600 s by default)
//     takes no decision, and the action goes on: set [Server].Timeout
//     below it so that a fail-closed guard blocks in time.
//
// # Raw in, raw out
//
// Tool inputs, tool responses and the whole event are kept as
// [jsontext.Value] and never re-encoded: decoding into map[string]any and
// encoding again rounds 12345678901234567890, turns 2.50 into 2.5, rewrites
// escapes and reorders members. Typed structs such as [BashInput] are views
// for reading and for typed edits, which merge back only what changed.
//
// Package hooktest is the test kit: fixtures for every event, a recorder,
// and checks that prove no member was lost.
package hook
