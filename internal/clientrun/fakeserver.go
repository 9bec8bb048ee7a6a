package clientrun

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// fakeServer is what the fake model APIs (FakeAPI, FakeResponses,
// FakeChat) share:
// the HTTP server on a free port of 127.0.0.1, the requests it received in
// order, and their log. Each API embeds it and answers in its own serve.
type fakeServer struct {
	// URL is the server's base URL, http://127.0.0.1:<port>.
	URL string

	// CloseLog, if set, is closed with the server.
	CloseLog io.Closer

	srv *http.Server
	log io.Writer

	mu   sync.Mutex
	reqs []*Request
}

// start serves serve on a free port of 127.0.0.1; what names the API in
// an error. Each request is also written to log (if not nil) as one JSON
// line.
func (f *fakeServer) start(what string, serve http.HandlerFunc, log io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	f.URL, f.log = "http://"+ln.Addr().String(), log
	f.srv = &http.Server{Handler: serve, ReadHeaderTimeout: 30 * time.Second}
	go f.srv.Serve(ln)
	return nil
}

// Close stops the server.
func (f *fakeServer) Close() error {
	err := f.srv.Close()
	if f.CloseLog != nil {
		f.CloseLog.Close()
	}
	return err
}

// Requests returns the requests received so far, in order.
func (f *fakeServer) Requests() []*Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*Request(nil), f.reqs...)
}

// MainRequests returns the requests answered from the script, in order.
func (f *fakeServer) MainRequests() []*Request {
	var out []*Request
	for _, r := range f.Requests() {
		if r.Main() {
			out = append(out, r)
		}
	}
	return out
}

// OutsideTries returns the targets of requests that tried to reach another
// host through the fake API as a proxy.
func (f *fakeServer) OutsideTries() []string {
	var out []string
	for _, r := range f.Requests() {
		if r.Outside() {
			out = append(out, r.Target)
		}
	}
	return out
}

// record numbers r and keeps it, and writes its log line.
func (f *fakeServer) record(r *Request) {
	f.mu.Lock()
	r.Seq = len(f.reqs) + 1
	f.reqs = append(f.reqs, r)
	f.mu.Unlock()
	if f.log == nil {
		return
	}
	line := logLine(r)
	f.mu.Lock()
	f.log.Write(line)
	f.mu.Unlock()
}

// handle reads req and records it before the first byte of the answer is
// written, so that a client that has its answer finds it in Requests. A
// request sent to the fake API as a proxy is refused; any other goes to
// pick, which sets how r is answered (and its decoded body) and returns
// the function that writes the answer.
func (f *fakeServer) handle(w http.ResponseWriter, req *http.Request, pick func(r *Request) func()) {
	body, _ := io.ReadAll(req.Body)
	r := &Request{Method: req.Method, Target: req.RequestURI, Body: body}
	var answer func()
	if r.Answered = proxyKind(req); r.Answered != "" {
		answer = func() { refuse(w) }
	} else {
		answer = pick(r)
	}
	f.record(r)
	answer()
}

// openAIError marks r answered with code and returns the function that
// writes an OpenAI-style error of type typ, its message prefixed with
// what names the API.
func openAIError(w http.ResponseWriter, r *Request, code int, typ, what, msg string) func() {
	r.Answered = strconv.Itoa(code)
	return func() {
		writeJSON(w, code, map[string]any{"error": map[string]string{"type": typ, "message": what + ": " + msg}})
	}
}

// turn returns the index of the turn of s that answers a request, the
// first turn whose first call is not made yet (made reports whether the
// n-th call of the script, 1-based, is among the request's calls), or
// len(s.Turns) for the final text, and the number of calls made before
// that turn.
func (s Script) turn(made func(n int) bool) (turn, before int) {
	for i, calls := range s.Turns {
		if len(calls) > 0 && !made(before+1) {
			return i, before
		}
		before += len(calls)
	}
	return len(s.Turns), before
}

// final returns the script's last text: Final, or "done" when empty.
func (s Script) final() string {
	if s.Final == "" {
		return "done"
	}
	return s.Final
}
