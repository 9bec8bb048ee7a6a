package hook

// This file serves Claude Code's http hooks (settings "type": "http") with
// net/http: the same [Handler] a command hook runs — typed adapters, [Mux],
// [Chain], [FailClosed] — answers each POST, with no process start per
// tool call, state kept across calls and one server for many sessions.
// Each request takes the command hook's path ([Server.ServeHTTPBody] says
// how its outcome is written: a Block is a 200 with the event's JSON block
// form, because Claude Code lets the action through on any other status).

import (
	"context"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"time"
)

// HTTPHandler returns an [http.Handler] that serves Claude Code's http
// hooks with h: it is (&Server{}).HTTPHandler(h, opts...).
//
//	srv := &Server{Timeout: 8 * time.Second}
//	http.Handle("/", srv.HTTPHandler(policy, hook.RequireBearerToken(token), hook.HTTPLogger(slog.Default())))
func HTTPHandler(h Handler, opts ...HTTPOption) http.Handler {
	return (&Server{}).HTTPHandler(h, opts...)
}

// HTTPHandler returns an [http.Handler] that serves Claude Code's http
// hooks with h, or with s.Handler when h is nil, under s's MaxInputBytes,
// Timeout and FailClosed. The settings are copied: changing s afterwards
// changes nothing. The handler keeps no state between requests and serves
// any number of them at once.
//
// A POST with an application/json body is served by
// [Server.ServeHTTPBody], and its [HTTPReply] written: status,
// body (application/json for a 200 with an answer, text/plain for a
// failure), Content-Length and Cache-Control: no-store.
//
// Requests that are not hook calls are refused before the body is read:
// 405 for a method other than POST, 401 when [RequireBearerToken] or
// [RequireHeader] is set and the request lacks the secret, 415 for a
// Content-Type other than application/json. Claude Code treats those, as
// every non-2xx, as non-blocking errors; a guard whose calls must never go
// through unchecked sets "onFailure": "block" in the hook's settings
// entry, which turns every non-2xx answer, refused connection and timeout
// into a block.
//
// HTTPHandler does not bound how long a client may take to send its
// headers: set the [http.Server]'s ReadHeaderTimeout, ReadTimeout,
// WriteTimeout and IdleTimeout (examples/httpserver shows values). When
// s.Timeout passes while the body is still arriving, the handler answers
// and ends the read by setting the connection's read deadline.
//
// A failure (a handler error, a recovered panic, an invalid answer) is
// logged at level Error to the [HTTPLogger] logger, or to [slog.Default] when
// none is given; one line per request, at level Info, only with [HTTPLogger].
func (s *Server) HTTPHandler(h Handler, opts ...HTTPOption) http.Handler {
	if h == nil {
		h = s.Handler
	}
	hh := &httpHook{srv: Server{Handler: h, MaxInputBytes: s.MaxInputBytes, Timeout: s.Timeout, FailClosed: s.FailClosed}}
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
// allowedEnvVars lists (Claude Code sends an empty value for any other;
// the variable may come from the settings' own "env" block):
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
// have exactly value (once), compared in constant time. It panics when
// name or value is empty.
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
// events), the decision ([HTTPReply].Decision, or "refused" for a
// request refused before its body was read), the status, the duration,
// and the block's reason or the failure's message. A nil l logs nothing
// at all, not even failures.
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
	reply, refused := hh.serve(w, r)
	hh.logRequest(r.Context(), start, reply, refused)
}

// serve answers r and returns the reply it wrote, and whether r was
// refused before its body was read.
func (hh *httpHook) serve(w http.ResponseWriter, r *http.Request) (HTTPReply, bool) {
	refuse := func(status int, msg string) (HTTPReply, bool) {
		rep := HTTPReply{Status: status, Body: []byte(msg + "\n"), Decision: "refused", Message: msg}
		writeHTTPReply(w, rep)
		return rep, true
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return refuse(http.StatusMethodNotAllowed, "hook: an http hook is called with POST, not "+r.Method)
	}
	if hh.cfg.header != "" && !hh.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="hook"`)
		return refuse(http.StatusUnauthorized, "hook: missing or wrong "+hh.cfg.header+" header")
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return refuse(http.StatusUnsupportedMediaType, fmt.Sprintf("hook: the body must be application/json, not %q", r.Header.Get("Content-Type")))
	}
	rep := hh.srv.ServeHTTPBody(r.Context(), r.Body, r.ContentLength, nil)
	if rep.Reading {
		// The reader may still be blocked in the body: unblock it. (Not
		// every ResponseWriter has a connection to set it on.)
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
	writeHTTPReply(w, rep)
	return rep, false
}

// authorized reports whether r carries the secret, in constant time.
func (hh *httpHook) authorized(r *http.Request) bool {
	got := r.Header.Values(hh.cfg.header)
	return len(got) == 1 && subtle.ConstantTimeCompare([]byte(got[0]), hh.cfg.secret) == 1
}

// writeHTTPReply writes rep.
func writeHTTPReply(w http.ResponseWriter, rep HTTPReply) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	switch {
	case rep.Status != http.StatusOK:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("X-Content-Type-Options", "nosniff")
	case len(rep.Body) > 0:
		h.Set("Content-Type", "application/json")
	}
	h.Set("Content-Length", strconv.Itoa(len(rep.Body)))
	w.WriteHeader(rep.Status)
	w.Write(rep.Body)
}

// logRequest logs one line for the request, when a logger wants it.
func (hh *httpHook) logRequest(ctx context.Context, start time.Time, rep HTTPReply, refused bool) {
	failure := rep.Decision == "error"
	l := hh.cfg.log
	if l == nil {
		if !failure {
			return
		}
		l = slog.Default()
	}
	level := slog.LevelInfo
	switch {
	case failure:
		level = slog.LevelError
	case refused:
		level = slog.LevelWarn
	}
	if !l.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 7)
	if rep.Event != "" {
		attrs = append(attrs, slog.String("event", rep.Event))
	}
	if rep.Tool != "" {
		attrs = append(attrs, slog.String("tool", rep.Tool))
	}
	attrs = append(attrs,
		slog.String("decision", rep.Decision),
		slog.Int("status", rep.Status),
		slog.Duration("duration", time.Since(start)))
	if rep.Message != "" && !refused {
		key := "error"
		if rep.Status == http.StatusOK {
			key = "reason"
		}
		attrs = append(attrs, slog.String(key, rep.Message))
	}
	l.LogAttrs(ctx, level, "hook", attrs...)
}
