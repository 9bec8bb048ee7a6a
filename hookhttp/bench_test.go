package hookhttp_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gohooks/hook/hookhttp"
)

// BenchmarkHTTPHookLoopback is one fingerprint call over a kept-alive
// loopback connection, client included, as Claude Code makes it. See
// bench/httplatency for percentiles beside a command hook.
func BenchmarkHTTPHookLoopback(b *testing.B) {
	srv := httptest.NewServer(hookhttp.Handler(cwdPrint, nil))
	defer srv.Close()
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	body := payloadFor("/home/dev/acme-api", "K\\u00f6ln")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.Post(srv.URL, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatal(resp.Status)
		}
	}
}

// BenchmarkHTTPHandlerServeHTTP is the handler alone, without the network.
func BenchmarkHTTPHandlerServeHTTP(b *testing.B) {
	h := hookhttp.Handler(cwdPrint, nil)
	body := payloadFor("/home/dev/acme-api", "K\\u00f6ln")
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}
