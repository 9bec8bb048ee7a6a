package hook

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gohooks/hook/internal/jsstr"
	"github.com/gohooks/hook/internal/rawjson"
)

// HTTPHandler returns an [http.Handler] that serves Claude Code's http
// hooks with h: it is (&Server{}).HTTPHandler(h, opts...). See
// [Server.HTTPHandler].
func HTTPHandler(h Handler, opts ...HTTPOption) http.Handler {
	var s Server
	return s.HTTPHandler(h, opts...)
}

// HTTPHandler returns an [http.Handler] that serves Claude Code's http
// hooks (settings "type": "http") with h, or with s.Handler when h is nil,
// under s's MaxInputBytes, Timeout and FailClosed. The settings are copied:
// changing s afterwards changes nothing. The handler keeps no state between
// requests and serves any number of them at once.
//
// Each request goes the way of a command hook's invocation ([Server.Serve]):
// the body is read as stdin is (one JSON object, at most MaxInputBytes,
// Timeout bounding the read and the handler), h gets the same [Event], and
// its answer is validated the same way. Only the writing differs, because
// Claude Code reads an http hook's answer without an exit code and treats
// any status other than 2xx, and any body that is not a JSON object, as a
// non-blocking error (the action goes on):
//
//   - an answer: 200 with its JSON object (Content-Type application/json);
//     a nil answer: 200 with an empty body. The plain-text answers of a
//     command hook go out as JSON: Text as "additionalContext" (on
//     UserPromptSubmit, UserPromptExpansion, SessionStart and
//     PostModelSwitch), a WorktreeCreate path as "worktreePath". PreCompact
//     and PostCompact have no JSON form of their Text, and [Async] has no
//     meaning over HTTP: such an answer is an invalid answer.
//   - [Block], and a failure that fails closed (see [FailClosed] and
//     s.FailClosed): 200 with the event's JSON block form, the reason in
//     it. The events whose block is a permission decision (PreToolUse,
//     PreSkillShellCommand, PreModelSwitch) get "permissionDecision":
//     "deny" with the reason as "permissionDecisionReason"; every other
//     event, and input whose event is unknown, gets the top-level
//     "decision": "block" with "reason" (which PreToolUse also reads as a
//     deny, and which Claude Code's schema accepts on every event).
//     PermissionRequest ignores exit code 2 and the top-level decision, so
//     a Block there writes an empty 200 as a command hook's is ignored;
//     answer a [PermissionRequestOutput] deny instead. The top-level block
//     was seen to work on the real client on PostToolUse and Stop (the
//     e2e tests); TeammateIdle, TaskCompleted and WorktreeCreate are
//     documented as blocked by exit code 2 only, and their block over
//     HTTP has not been seen live: serve them with a command hook where
//     the block matters.
//   - a failure that fails open (a handler error, a recovered panic, an
//     invalid answer, a missed Timeout, unreadable input): the one line a
//     command hook writes on stderr, as text/plain, with status 400 for
//     input that is not one JSON object of the event, 413 for input over
//     MaxInputBytes, 500 for the handler's failures. Claude Code ignores
//     the body and goes on.
//
// Requests that are not hook calls are refused before the body is read:
// 405 for a method other than POST, 415 for a Content-Type other than
// application/json, 401 when [RequireBearerToken] or [RequireHeader] is
// set and the request lacks the secret. Claude Code treats those as
// non-blocking errors too; a guard whose requests must never go through
// unchecked sets "onFailure": "block" in the hook's settings, which turns
// every non-2xx answer, refused connection and timeout into a block.
//
// HTTPHandler does not bound how long a client may take to send its
// headers: set the [http.Server]'s ReadHeaderTimeout, ReadTimeout and
// IdleTimeout (examples/httpserver shows values). When s.Timeout passes
// while the body is still arriving, the handler answers and ends the read
// by setting the connection's read deadline.
//
// A failure (a handler error, a panic, an invalid answer) is logged at
// level Error to the [HTTPLogger] logger, or to [slog.Default] when none is
// given; one line per request, at level Info, only with [HTTPLogger].
func (s *Server) HTTPHandler(h Handler, opts ...HTTPOption) http.Handler {
	if h == nil {
		h = s.Handler
	}
	hh := &httpHook{srv: Server{MaxInputBytes: s.MaxInputBytes, Timeout: s.Timeout, FailClosed: s.FailClosed}}
	if !isNil(h) {
		hh.srv.Handler = httpAnswers{h}
	}
	for _, o := range opts {
		o(&hh.cfg)
	}
	return hh
}

// An HTTPOption configures a handler made by [HTTPHandler] or
// [Server.HTTPHandler].
type HTTPOption func(*httpConfig)

type httpConfig struct {
	header string // the header that carries the secret, or "" for none
	secret []byte // its required value
	log    *slog.Logger
}

// RequireBearerToken refuses (401) every request whose Authorization
// header is not "Bearer " followed by token, compared in constant time.
// The hook's settings send it from an environment variable that
// allowedEnvVars lists (Claude Code sends an empty value for any other):
//
//	{"type": "http", "url": "http://127.0.0.1:8417/",
//	 "headers": {"Authorization": "Bearer $HOOK_TOKEN"},
//	 "allowedEnvVars": ["HOOK_TOKEN"]}
//
// RequireBearerToken panics when token is empty: an unset variable on the
// server must not accept the empty token an unset variable on the client
// sends.
func RequireBearerToken(token string) HTTPOption {
	if token == "" {
		panic("hook: RequireBearerToken: empty token")
	}
	return RequireHeader("Authorization", "Bearer "+token)
}

// RequireHeader refuses (401) every request whose header name does not
// have exactly value, compared in constant time. It panics when name or
// value is empty.
func RequireHeader(name, value string) HTTPOption {
	if name == "" || value == "" {
		panic("hook: RequireHeader: empty header name or value")
	}
	name = http.CanonicalHeaderKey(name)
	secret := []byte(value)
	return func(c *httpConfig) { c.header, c.secret = name, secret }
}

// HTTPLogger logs one line per request to l, at level Info (Warn for a
// refused request, Error for a failure): the event, the tool (on tool
// events), the decision, the status, the duration, and the block's reason
// or the failure's message. The decision is "none" for no answer, the
// answer's own decision where it has one ("allow", "deny", "ask",
// "defer", "block", …), "answer" for an answer without one, "block" for
// [Block] and fail-closed failures ("ignored" for a Block on
// PermissionRequest), "error" for a failure that fails open and "refused"
// for a request refused before its body was read. A nil l logs nothing at
// all, not even failures.
func HTTPLogger(l *slog.Logger) HTTPOption {
	return func(c *httpConfig) {
		if l == nil {
			l = slog.New(slog.DiscardHandler)
		}
		c.log = l
	}
}

// httpHook is the handler HTTPHandler returns; it never changes after
// HTTPHandler returns it.
type httpHook struct {
	srv Server
	cfg httpConfig
}

// ServeHTTP serves one hook call.
func (hh *httpHook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	status, decision, o := hh.serve(w, r)
	hh.logRequest(r.Context(), start, status, decision, o)
}

// serve answers r and returns the status and decision it wrote, and the
// outcome when the body was read.
func (hh *httpHook) serve(w http.ResponseWriter, r *http.Request) (status int, decision string, o *outcome) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return refuse(w, http.StatusMethodNotAllowed, "hook: an http hook is called with POST, not "+r.Method), "refused", nil
	}
	if hh.cfg.header != "" && !hh.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="hook"`)
		return refuse(w, http.StatusUnauthorized, "hook: missing or wrong "+hh.cfg.header+" header"), "refused", nil
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return refuse(w, http.StatusUnsupportedMediaType, fmt.Sprintf("hook: the body must be application/json, not %q", r.Header.Get("Content-Type"))), "refused", nil
	}
	s := &hh.srv
	max := s.maxInputBytes()
	var (
		out  outcome
		read int64
	)
	if max >= 0 && r.ContentLength > max {
		out = s.decide(result{stage: stageRead, err: tooLarge(max)}, s.Handler)
		read = r.ContentLength
	} else {
		out, read = hh.work(w, r)
	}
	status, decision = hh.write(w, out, max >= 0 && out.stage == stageRead && read > max)
	return status, decision, &out
}

// authorized reports whether r carries the secret, in constant time.
func (hh *httpHook) authorized(r *http.Request) bool {
	got := r.Header.Values(hh.cfg.header)
	return len(got) == 1 && subtle.ConstantTimeCompare([]byte(got[0]), hh.cfg.secret) == 1
}

// work runs the command hook's path on the body (read, handler, decision)
// and returns the outcome and the number of bytes read.
func (hh *httpHook) work(w http.ResponseWriter, r *http.Request) (o outcome, read int64) {
	s := &hh.srv
	ctx := r.Context()
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			o = failed(s.failsClosed(s.Handler, result{}), fmt.Errorf("hook: internal error: %v", p))
		}
	}()
	body := &countingReader{r: r.Body}
	o = s.work(ctx, body, s.Handler)
	if o.stage == stageRead && ctx.Err() != nil {
		// The reader may still be blocked in the body: unblock it. (Not
		// every ResponseWriter has a connection to set it on.)
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
	return o, body.n.Load()
}

// write writes the outcome o: the HTTP form of a command hook's stdout,
// exit code and stderr. tooBig reports input over the cap.
func (hh *httpHook) write(w http.ResponseWriter, o outcome, tooBig bool) (status int, decision string) {
	switch o.code {
	case ExitOK:
		if o.stdout == nil {
			return writeAnswer(w, nil), "none"
		}
		return writeAnswer(w, o.stdout[:len(o.stdout)-1]), "answer"
	case ExitBlock:
		b := blockAnswer(o.ev, o.stderr)
		if b == nil {
			return writeAnswer(w, nil), "ignored"
		}
		return writeAnswer(w, b), "block"
	}
	status = http.StatusInternalServerError
	switch {
	case tooBig:
		status = http.StatusRequestEntityTooLarge
	case o.stage == stageRead:
		status = http.StatusBadRequest
	}
	return refuse(w, status, o.stderr), "error"
}

// writeAnswer writes a 200 with the JSON object b, or with an empty body
// when b is nil, and returns the status.
func writeAnswer(w http.ResponseWriter, b []byte) int {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if b != nil {
		h.Set("Content-Type", "application/json")
	}
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	return http.StatusOK
}

// refuse writes status with msg as a plain-text line and returns status.
func refuse(w http.ResponseWriter, status int, msg string) int {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	b := append([]byte(msg), '\n')
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
	return status
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
	case name == EventPreToolUse:
		b, err = (&PreToolUseOutput{Decision: Deny, Reason: reason}).appendAnswer(dst, ev)
	case name == EventPreSkillShellCommand:
		b, err = (&PreSkillShellCommandOutput{Decision: Deny, Reason: reason}).appendAnswer(dst, ev)
	case name == EventPreModelSwitch:
		b, err = (&PreModelSwitchOutput{Decision: Deny, Reason: reason}).appendAnswer(dst, ev)
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
var errNoHTTPText = errors.New("Claude Code reads a plain-text answer from an http hook as an error, and this event's JSON has no field for the text")

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
	switch o := out.(type) {
	case *UserPromptSubmitOutput:
		return &UserPromptSubmitOutput{AdditionalContext: jsstr.TrimSpace(o.Text)}, nil
	case *UserPromptExpansionOutput:
		return &UserPromptExpansionOutput{AdditionalContext: jsstr.TrimSpace(o.Text)}, nil
	case *SessionStartOutput:
		return &SessionStartOutput{AdditionalContext: jsstr.TrimSpace(o.Text)}, nil
	case *PostModelSwitchOutput:
		return &PostModelSwitchOutput{AdditionalContext: jsstr.TrimSpace(o.Text)}, nil
	case *WorktreeCreateOutput:
		c := *o
		c.JSONForm = true
		return &c, nil
	case *PreCompactOutput, *PostCompactOutput:
		return nil, fmt.Errorf("hook: invalid answer to %s: Text: %w", ev.HookEventName, errNoHTTPText)
	}
	return nil, fmt.Errorf("hook: internal error: no http form for the plain-text answer %T", out)
}

// logRequest logs one line for the request, when a logger wants it.
func (hh *httpHook) logRequest(ctx context.Context, start time.Time, status int, decision string, o *outcome) {
	failure := decision == "error"
	l := hh.cfg.log
	if l == nil {
		if !failure {
			return
		}
		l = slog.Default()
	}
	level := slog.LevelInfo
	switch decision {
	case "error":
		level = slog.LevelError
	case "refused":
		level = slog.LevelWarn
	}
	if !l.Enabled(ctx, level) {
		return
	}
	if decision == "answer" && o != nil && o.stdout != nil {
		decision = answerDecision(o.stdout)
	}
	attrs := make([]slog.Attr, 0, 7)
	if o != nil && o.ev != nil {
		attrs = append(attrs, slog.String("event", o.ev.HookEventName))
		if raw, ok := o.ev.Field("tool_name"); ok {
			var tool string
			if unmarshal(raw, &tool) == nil {
				attrs = append(attrs, slog.String("tool", tool))
			}
		}
	}
	attrs = append(attrs,
		slog.String("decision", decision),
		slog.Int("status", status),
		slog.Duration("duration", time.Since(start)))
	if o != nil && o.stderr != "" {
		key := "error"
		if o.code == ExitBlock {
			key = "reason"
		}
		attrs = append(attrs, slog.String(key, o.stderr))
	}
	l.LogAttrs(ctx, level, "hook", attrs...)
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
		if unmarshal(v, &s) != nil || s == "" {
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
