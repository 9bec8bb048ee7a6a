// Package hookhttp serves Claude Code's http hooks (settings "type":
// "http") with net/http: the same [hook.Handler] a command hook runs —
// typed adapters, [hook.Mux], [hook.Chain], [hook.FailClosed] — answers
// each POST, with no process start per tool call, state kept across calls
// and one server for many sessions.
//
// It sits beside package hook as net/http/pprof sits beside
// runtime/pprof: a command hook, which imports only package hook, links
// neither net/http nor crypto/tls, starts faster, and builds as a static
// binary even where cgo is available. Each request takes the command
// hook's path ([hook.Server.ServeHTTPBody] says how its outcome is
// written: a Block is a 200 with the event's JSON block form, because
// Claude Code lets the action through on any other status).
//
//	h := hookhttp.ServerHandler(&hook.Server{Timeout: 8 * time.Second}, policy,
//		&hookhttp.Options{BearerToken: token})
//	log.Fatal((&http.Server{Addr: "127.0.0.1:8417", Handler: h, ReadHeaderTimeout: 5 * time.Second}).ListenAndServe())
package hookhttp

import (
	"context"
	"crypto/subtle"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/gohooks/hook"
)

// Options configures a handler made by [Handler] or [ServerHandler]. A nil
// *Options, and the zero value, mean the defaults: no secret required,
// failures logged to [slog.Default].
type Options struct {
	// BearerToken, when not empty, refuses (401) every request whose
	// Authorization header is not "Bearer " followed by BearerToken,
	// compared in constant time. The hook's settings send it from an
	// environment variable that allowedEnvVars lists (Claude Code sends
	// an empty value for any other; the variable may come from the
	// settings' own "env" block):
	//
	//	{"type": "http", "url": "http://127.0.0.1:8417/",
	//	 "headers": {"Authorization": "Bearer $HOOK_TOKEN"},
	//	 "allowedEnvVars": ["HOOK_TOKEN"]}
	//
	// A server that reads the token from its own environment must refuse
	// to start when the variable is unset, rather than serve without a
	// secret: the empty string here means "no token required".
	BearerToken string

	// Header and HeaderValue, when set, refuse (401) every request whose
	// header Header does not have exactly the value HeaderValue (once),
	// compared in constant time: a secret in a header of its own. Both or
	// neither must be set. They may be set with BearerToken; then both
	// secrets are required.
	Header, HeaderValue string

	// Logger gets one line per request, at level Info (Warn for a refused
	// request, Error for a failure): the event, the tool (on tool events),
	// the decision ([hook.HTTPReply].Decision, or "refused" for a request
	// refused before its body was read), the status, the duration, and
	// the block's reason or the failure's message. When Logger is nil,
	// failures alone are logged, to [slog.Default]; to log nothing at
	// all, set slog.New(slog.DiscardHandler).
	Logger *slog.Logger
}

// Handler returns an [http.Handler] that serves Claude Code's http hooks
// with h: it is ServerHandler(&hook.Server{}, h, opts).
//
// It panics when opts sets only one of Header and HeaderValue.
func Handler(h hook.Handler, opts *Options) http.Handler {
	return ServerHandler(&hook.Server{}, h, opts)
}

// ServerHandler returns an [http.Handler] that serves Claude Code's http
// hooks with h, or with s.Handler when h is nil, under s's MaxInputBytes,
// Timeout, FailClosed, LongText and SpillDir (a long context of an http
// hook's answer is capped by Claude Code as a command hook's is). The settings of s and opts are copied: changing
// them afterwards changes nothing. The handler keeps no state between
// requests and serves any number of them at once.
//
// A POST with an application/json body is served by
// [hook.Server.ServeHTTPBody], and its [hook.HTTPReply] written: status,
// body (application/json for a 200 with an answer, text/plain for a
// failure), Content-Length and Cache-Control: no-store.
//
// Requests that are not hook calls are refused before the body is read:
// 405 for a method other than POST, 401 when [Options] require a secret
// and the request lacks it, 415 for a Content-Type other than
// application/json. Claude Code treats those, as every non-2xx, as
// non-blocking errors; a guard whose calls must never go through
// unchecked sets "onFailure": "block" in the hook's settings entry, which
// turns every non-2xx answer, refused connection and timeout into a block.
//
// ServerHandler does not bound how long a client may take to send its
// headers: set the [http.Server]'s ReadHeaderTimeout, ReadTimeout,
// WriteTimeout and IdleTimeout (examples/httpserver shows values). The
// body is read under s.Timeout: when it passes while the body is still
// arriving (a client that stops sending, or sends less than its
// Content-Length announced), the handler answers at once, 408 (or the
// block form when failing closed), and ends the read by setting the
// connection's read deadline. The answer does not wait for bytes after
// the event's JSON object either: when the client has not sent the rest
// of what it announced, the connection is closed after the answer instead
// of being kept for another request.
//
// It panics when opts sets only one of Header and HeaderValue.
func ServerHandler(s *hook.Server, h hook.Handler, opts *Options) http.Handler {
	if h == nil {
		h = s.Handler
	}
	hh := &httpHook{srv: hook.Server{Handler: h, MaxInputBytes: s.MaxInputBytes, Timeout: s.Timeout, FailClosed: s.FailClosed, LongText: s.LongText, SpillDir: s.SpillDir}}
	if opts != nil {
		if (opts.Header == "") != (opts.HeaderValue == "") {
			panic("hookhttp: Options.Header and Options.HeaderValue must be set together")
		}
		if opts.BearerToken != "" {
			hh.secrets = append(hh.secrets, secret{"Authorization", []byte("Bearer " + opts.BearerToken)})
		}
		if opts.Header != "" {
			hh.secrets = append(hh.secrets, secret{http.CanonicalHeaderKey(opts.Header), []byte(opts.HeaderValue)})
		}
		hh.log = opts.Logger
	}
	return hh
}

// A secret is a header a request must carry with exactly the value.
type secret struct {
	header string // canonical
	value  []byte
}

// httpHook is the handler ServerHandler returns; it never changes after
// ServerHandler returns it.
type httpHook struct {
	srv     hook.Server
	secrets []secret
	log     *slog.Logger // nil: failures only, to slog.Default
}

// ServeHTTP serves one hook call.
func (hh *httpHook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	reply, refused := hh.serve(w, r)
	hh.logRequest(r.Context(), start, reply, refused)
}

// serve answers r and returns the reply it wrote, and whether r was
// refused before its body was read.
func (hh *httpHook) serve(w http.ResponseWriter, r *http.Request) (hook.HTTPReply, bool) {
	refuse := func(status int, msg string) (hook.HTTPReply, bool) {
		rep := hook.HTTPReply{Status: status, Body: []byte(msg + "\n"), Decision: "refused", Message: msg}
		writeReply(w, rep)
		return rep, true
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return refuse(http.StatusMethodNotAllowed, "hook: an http hook is called with POST, not "+r.Method)
	}
	for _, s := range hh.secrets {
		if !authorized(r, s) {
			if s.header == "Authorization" {
				w.Header().Set("WWW-Authenticate", `Bearer realm="hook"`)
			}
			return refuse(http.StatusUnauthorized, "hook: missing or wrong "+s.header+" header")
		}
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return refuse(http.StatusUnsupportedMediaType, fmt.Sprintf("hook: the body must be application/json, not %q", r.Header.Get("Content-Type")))
	}
	body := &bodyReader{r: r.Body}
	rep := hh.srv.ServeHTTPBody(r.Context(), body, r.ContentLength, nil)
	if rep.Reading || !body.done(r.ContentLength) {
		// The reader may still be blocked in the body, or net/http would
		// wait for the rest of the body before writing the answer (it
		// reads what a handler left unread, to keep the connection):
		// end the read now, which closes the connection after the
		// answer. (Not every ResponseWriter has a connection to set it
		// on; one without has no client to wait for.)
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
	writeReply(w, rep)
	return rep, false
}

// bodyReader counts what is read of a request's body and whether its end
// was seen.
type bodyReader struct {
	r   io.Reader
	n   int64
	eof bool
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}

// done reports whether the whole body, of size bytes (-1: unknown), has
// been read. Only the serving goroutine's reads count: it is called after
// ServeHTTPBody returned with the body no longer being read (a reply
// with Reading unset).
func (b *bodyReader) done(size int64) bool {
	return b.eof || (size >= 0 && b.n >= size)
}

// authorized reports whether r carries the secret s, in constant time.
func authorized(r *http.Request, s secret) bool {
	got := r.Header.Values(s.header)
	return len(got) == 1 && subtle.ConstantTimeCompare([]byte(got[0]), s.value) == 1
}

// writeReply writes rep.
func writeReply(w http.ResponseWriter, rep hook.HTTPReply) {
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
func (hh *httpHook) logRequest(ctx context.Context, start time.Time, rep hook.HTTPReply, refused bool) {
	failure := rep.Decision == "error"
	l := hh.log
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
