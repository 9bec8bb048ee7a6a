package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// HTTPReply is the answer to one event in the form an http hook gives it
// (settings "type": "http"): Claude Code reads an http hook's answer
// without an exit code, and treats any status other than 2xx, and any
// body that is not a JSON object, as a non-blocking error (the action goes
// on). [Server.ServeHTTPBody] makes it; package hookhttp writes it with
// net/http. A server on another HTTP stack can write it itself.
type HTTPReply struct {
	// Status is the HTTP status to answer with: 200 for an answer, a
	// block and no answer; 400 for input that is not one JSON object of
	// an event, 408 for a body that did not arrive complete within the
	// Timeout (or before the context ended), 413 for input over
	// MaxInputBytes, 500 for the handler's
	// failures (errors, panics, invalid answers, a missed Timeout) that
	// fail open.
	Status int
	// Body is the JSON answer (status 200; empty for no answer), or the
	// failure's one line, the line a command hook writes on stderr,
	// followed by a newline (other statuses, text/plain).
	Body []byte
	// Event is the event's name, and Tool the tool_name of a tool event;
	// empty when the input could not be read.
	Event, Tool string
	// Decision names the outcome for logs: "none" for no answer; the
	// answer's own decision where it has one ("allow", "deny", "ask",
	// "defer", "block", …); "answer" for an answer without one; "block"
	// for [Block] and failures that fail closed; "ignored" for a Block on
	// PermissionRequest, which ignores blocks; "error" for a failure that
	// fails open.
	Decision string
	// Message is the block's reason or the failure's line; empty
	// otherwise.
	Message string
	// Reading reports that the body was still being read when the
	// context ended (a client that stopped sending): the reader may still
	// be in use, and the caller should end it (package hookhttp sets the
	// connection's read deadline).
	Reading bool
}

// ServeHTTPBody serves the event in body, of size bytes (-1: unknown), as
// an http hook: with h, or with s.Handler when h is nil, under s's
// MaxInputBytes, Timeout and FailClosed. It is the path of [Server.Serve]
// — the body is read as stdin is (one JSON object, at most MaxInputBytes),
// h gets the same [Event], its answer is validated the same way — and
// only the writing differs:
//
//   - an answer: status 200 and its JSON object, the bytes a command hook
//     writes on stdout; no answer: 200 and an empty body. The plain-text
//     answers of a command hook become JSON: Text as "additionalContext"
//     (UserPromptSubmit, UserPromptExpansion, SessionStart,
//     PostModelSwitch), a WorktreeCreate path as "worktreePath".
//     PreCompact and PostCompact have no JSON form of their Text, and
//     [Async] has no meaning over HTTP: such an answer is an invalid
//     answer.
//   - [Block], and a failure that fails closed (see [FailClosed] and
//     s.FailClosed): 200 with the event's JSON block form, the reason in
//     it. The events whose block is a permission decision (PreToolUse,
//     PreSkillShellCommand, PreModelSwitch) get "permissionDecision":
//     "deny" with the reason as "permissionDecisionReason"; every other
//     event, and input whose event is unknown, gets the top-level
//     "decision": "block" with "reason" (which PreToolUse also reads as a
//     deny, and which Claude Code's schema accepts on every event).
//     PermissionRequest ignores exit code 2 and the top-level decision, so
//     a Block there gets an empty 200 as a command hook's is ignored;
//     answer a [PermissionRequestOutput] deny instead. The top-level block
//     was seen to work on the real client on PostToolUse and Stop (the
//     e2e tests); TeammateIdle, TaskCompleted and WorktreeCreate are
//     documented as blocked by exit code 2 only, and their block over
//     HTTP has not been seen live: serve them with a command hook where
//     the block matters.
//   - a failure that fails open: 400, 408, 413 or 500 (see [HTTPReply]) with
//     the line a command hook writes on stderr. Claude Code ignores the
//     body and goes on.
//
// ctx ends the call as it ends [Server.Serve]: the reply is settled at
// once, even if the reader or the handler ignore it. ServeHTTPBody never
// panics, and keeps no state between calls: any number may run at once.
func (s *Server) ServeHTTPBody(ctx context.Context, body io.Reader, size int64, h Handler) (reply HTTPReply) {
	if h == nil {
		h = s.Handler
	}
	srv := Server{MaxInputBytes: s.MaxInputBytes, Timeout: s.Timeout, FailClosed: s.FailClosed, LongText: s.LongText, SpillDir: s.SpillDir}
	if !isNil(h) {
		srv.Handler = httpAnswers{h}
	}
	if srv.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, srv.Timeout)
		defer cancel()
	}
	max := srv.maxInputBytes()
	var (
		o    outcome
		read int64
	)
	defer func() {
		if p := recover(); p != nil {
			o = failed(srv.failureBlocks(srv.Handler, result{}), fmt.Errorf("hook: internal error: %s", describe(p)))
			reply = o.httpReply(false)
		}
	}()
	if max >= 0 && size > max {
		o, read = srv.settle(result{stage: stageRead, err: wire.TooLarge(max)}, srv.Handler, nil), size
	} else {
		cr := &countingReader{r: body}
		o = srv.work(ctx, cr, srv.Handler)
		read = cr.n.Load()
	}
	if o.stage == stageRead {
		o.stderr = requestWording().Replace(o.stderr)
	}
	reply = o.httpReply(max >= 0 && o.stage == stageRead && read > max)
	reply.Reading = o.stage == stageRead && ctx.Err() != nil
	if reply.Reading && reply.Status == statusBadRequest {
		reply.Status = statusRequestTimeout
	}
	return reply
}

// requestWording rewrites the reader's failures, which speak of a command
// hook's stdin, in terms of the request whose body an http hook reads.
// It is built on first use, not when a command hook starts.
var requestWording = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(
		"on stdin", "in the request body",
		"reading stdin", "reading the request body",
		"stdin was empty", "the request body was empty",
		"stdin held only whitespace", "the request body held only whitespace",
	)
})

// The statuses of an [HTTPReply].
const (
	statusOK             = 200
	statusBadRequest     = 400
	statusRequestTimeout = 408
	statusTooLarge       = 413
	statusInternalError  = 500
)

// httpReply is the HTTP form of the outcome o: a command hook's stdout,
// exit code and stderr as status and body. tooBig reports input over the
// cap.
func (o outcome) httpReply(tooBig bool) HTTPReply {
	o = o.whole()
	r := HTTPReply{Status: statusOK}
	if o.ev != nil {
		r.Event = o.ev.HookEventName
		if raw, ok := o.ev.Field("tool_name"); ok {
			var tool string
			if wire.Unmarshal(raw, &tool) == nil {
				r.Tool = tool
			}
		}
	}
	switch o.code {
	case ExitOK:
		r.Decision = "none"
		if o.stdout != nil {
			b := o.answer()
			r.Body = b[:len(b)-1]
			r.Decision = answerDecision(r.Body)
		}
		return r
	case ExitBlock:
		r.Message = o.stderr
		if r.Body = blockAnswer(o.ev, o.stderr); r.Body == nil {
			r.Decision = "ignored"
		} else {
			r.Decision = "block"
		}
		return r
	}
	r.Status, r.Decision, r.Message = statusInternalError, "error", o.stderr
	switch {
	case tooBig:
		r.Status = statusTooLarge
	case o.stage == stageRead:
		r.Status = statusBadRequest
	}
	r.Body = append([]byte(o.stderr), '\n')
	return r
}

// A denier is the answer type of an event whose JSON block form is a
// permission decision (see blockDeny).
type denier interface {
	denyAnswer(reason string) Output
}

// blockAnswer returns the JSON block form of the event ev (nil: not known)
// with reason, or nil for an event that ignores a block.
func blockAnswer(ev *Event, reason string) []byte {
	name := ""
	if ev != nil {
		name = ev.HookEventName
	}
	// A Go string may hold any bytes; JSON text must be UTF-8.
	reason = strings.ToValidUTF8(reason, "\uFFFD")
	var (
		b   []byte
		err error
	)
	dst := make([]byte, 0, 128+len(reason))
	switch {
	case name == EventPermissionRequest:
		return nil // it ignores exit code 2 and the top-level decision
	case blockFormOf(name) != blockDeny:
		b, err = appendWire(dst, answer{decision: "block", reason: reason})
	default:
		if d, ok := answerType(name).(denier); ok {
			b, err = d.denyAnswer(reason).appendAnswer(dst, ev)
		}
	}
	if err != nil || len(b) == 0 {
		// The typed forms refuse nothing a block line holds; this keeps
		// the promise that a block is written as one even if they did.
		b, _ = appendWire(dst[:0], answer{decision: "block", reason: reason})
	}
	return b
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// httpAnswers wraps the handler of an http hook: it turns the plain-text
// answers of a command hook into their JSON forms, inside the handler's
// run, so that the rest of the path validates them as any other answer.
type httpAnswers struct{ h Handler }

// ServeHook calls the wrapped handler and converts its answer.
func (a httpAnswers) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	out, err := a.h.ServeHook(ctx, ev)
	if err != nil || noAnswer(out) {
		return out, err
	}
	return httpForm(out, ev)
}

func (a httpAnswers) failsClosed(event string) bool { return handlerFailsClosed(a.h, event) }
func (a httpAnswers) handles(event string) bool     { return handlesEvent(a.h, event) }

// errNoHTTPText is the failure of a plain-text answer with no JSON form.
//
//lint:ignore ST1005 the message starts with a field's or Claude Code's name
var errNoHTTPText = errors.New("Claude Code reads a plain-text answer from an http hook as an error, and this event's JSON has no field for the text")

// noHTTPText is the failure of a plain-text answer to ev that has no JSON
// form.
func noHTTPText(ev *Event) error {
	return fmt.Errorf("hook: invalid answer to %s: Text: %w", ev.HookEventName, errNoHTTPText)
}

// httpForm returns out as an http hook writes it: the JSON form of a
// plain-text answer, after the answer passed the command hook's checks.
func httpForm(out Output, ev *Event) (Output, error) {
	switch out.(type) {
	case Async, *Async:
		return nil, fmt.Errorf("hook: invalid answer to %s: Async detaches a command hook's process; an http hook has none (answer nil, and do the work after responding)", ev.HookEventName)
	}
	pt, ok := out.(plainTextAnswer)
	if !ok || !pt.plainText() {
		return out, nil
	}
	if _, err := out.appendAnswer(nil, ev); err != nil {
		return out, nil // the path refuses it with the command hook's message
	}
	return pt.jsonForm(ev)
}

// answerDecision names the decision of the JSON answer b for the log: the
// PreToolUse-style permissionDecision, a PermissionRequest's behavior, a
// top-level decision, or "answer" when it takes none.
func answerDecision(b []byte) string {
	ms, err := rawjson.MembersTrusted(b)
	if err != nil {
		return "answer"
	}
	name := func(v []byte) string {
		var s string
		if wire.Unmarshal(v, &s) != nil || s == "" {
			return "answer"
		}
		return s
	}
	decision := "answer"
	for _, m := range ms {
		switch m.Key {
		case "decision":
			decision = name(m.Value)
		case "hookSpecificOutput":
			specific, err := rawjson.MembersTrusted(m.Value)
			if err != nil {
				continue
			}
			for _, sm := range specific {
				switch sm.Key {
				case "permissionDecision":
					return name(sm.Value)
				case "decision":
					if bm, err := rawjson.MembersTrusted(sm.Value); err == nil {
						for _, b := range bm {
							if b.Key == "behavior" {
								return name(b.Value)
							}
						}
					}
				}
			}
		}
	}
	return decision
}
