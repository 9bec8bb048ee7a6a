package clientrun

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// fakeServer is what the fake model APIs (FakeAPI, FakeResponses) share:
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
