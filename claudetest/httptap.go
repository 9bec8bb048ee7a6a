package claudetest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
)

// httpTap serves an http hook under test and records each request the way
// the command recorder does: <n>.in is the body Claude Code sent, <n>.out
// the body answered, <n>.code the HTTP status.
type httpTap struct {
	dir, name string
	next      http.Handler
}

func (h *httpTap) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	in, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, "claudetest: reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	base, err := claim(h.dir, in)
	if err != nil {
		http.Error(w, "claudetest: "+err.Error(), http.StatusInternalServerError)
		return
	}
	req.Body = io.NopCloser(bytes.NewReader(in))
	rec := &recordingWriter{ResponseWriter: w}
	func() {
		defer func() {
			// A panicking handler: net/http would drop the connection;
			// record it as what Claude Code sees, no answer.
			if p := recover(); p != nil {
				if rec.code == 0 {
					rec.code = http.StatusInternalServerError
					w.WriteHeader(rec.code)
				}
				os.WriteFile(base+".err", []byte(fmt.Sprintf("claudetest: the http hook panicked: %v", p)), 0o644)
			}
		}()
		h.next.ServeHTTP(rec, req)
	}()
	if rec.code == 0 {
		rec.code = http.StatusOK
	}
	os.WriteFile(base+".out", rec.body.Bytes(), 0o644)
	os.WriteFile(base+".label", []byte(h.name), 0o644)
	os.WriteFile(base+".kind", []byte("http"), 0o644)
	os.WriteFile(base+".code", []byte(strconv.Itoa(rec.code)), 0o644)
}

// recordingWriter keeps a copy of the status and body it passes on.
type recordingWriter struct {
	http.ResponseWriter
	code int
	body bytes.Buffer
}

func (w *recordingWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recordingWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}
