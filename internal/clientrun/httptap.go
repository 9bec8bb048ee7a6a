package clientrun

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
)

// HTTPTap serves an http hook and records each request the way [Tap]
// does: <n>.in is the body the client sent, <n>.out the body answered,
// <n>.code the HTTP status, and <n>.kind marks an http hook.
type HTTPTap struct {
	// Dir is the records folder, Name the hook's label.
	Dir, Name string
	// Next is the hook.
	Next http.Handler
}

// ServeHTTP records the request and Next's answer.
func (h *HTTPTap) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	in, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, "hook recorder: reading the request: "+err.Error(), http.StatusBadRequest)
		return
	}
	base, err := Claim(h.Dir, in)
	if err != nil {
		http.Error(w, "hook recorder: "+err.Error(), http.StatusInternalServerError)
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
				os.WriteFile(base+".err", []byte(fmt.Sprintf("hook recorder: the http hook panicked: %v", p)), 0o644)
			}
		}()
		h.Next.ServeHTTP(rec, req)
	}()
	if rec.code == 0 {
		rec.code = http.StatusOK
	}
	os.WriteFile(base+".out", rec.body.Bytes(), 0o644)
	os.WriteFile(base+".label", []byte(h.Name), 0o644)
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
