package hook_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestServeHTTPBody checks the transport-neutral reply without net/http.
func TestServeHTTPBody(t *testing.T) {
	ctx := context.Background()
	in := testutil.PreToolUse("mcp__p__listen_here", `{"room":"r"}`)
	s := &hook.Server{MaxInputBytes: 4096}
	rep := s.ServeHTTPBody(ctx, bytes.NewReader(in), int64(len(in)), testutil.AddFingerprint)
	assert.Equal(t, 200, rep.Status)
	assert.Equal(t, "PreToolUse", rep.Event)
	assert.Equal(t, "mcp__p__listen_here", rep.Tool)
	assert.Equal(t, "allow", rep.Decision)
	assert.Contains(t, string(rep.Body), `"fingerprint":"6689668a49dc648b"`)
	assert.False(t, rep.Reading)

	rep = s.ServeHTTPBody(ctx, bytes.NewReader(in), 5000, testutil.AddFingerprint)
	assert.Equal(t, 413, rep.Status, "the announced size is over the cap")
	assert.Equal(t, "error", rep.Decision)
	assert.Empty(t, rep.Event)

	s.Handler = hook.FailClosed(hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { panic("boom") }))
	rep = s.ServeHTTPBody(ctx, bytes.NewReader(in), -1, nil)
	assert.Equal(t, 200, rep.Status)
	assert.Equal(t, "block", rep.Decision)
	assert.Contains(t, rep.Message, "panicked: boom")
	assert.Contains(t, string(rep.Body), `"permissionDecision":"deny"`)

	// A body that stops arriving: the Timeout settles the reply, which
	// says the reader is still in use.
	pr, pw := io.Pipe()
	defer pw.Close()
	go pw.Write(in[:10])
	rep = (&hook.Server{Timeout: 50 * time.Millisecond}).ServeHTTPBody(ctx, pr, -1, testutil.AddFingerprint)
	assert.Equal(t, 408, rep.Status, "the body did not arrive in time")
	assert.True(t, rep.Reading)
	assert.Contains(t, rep.Message, "gave up waiting for a complete JSON object in the request body")
	assert.NotContains(t, rep.Message, "stdin")
	assert.Equal(t, rep.Message+"\n", string(rep.Body))

	// The reader's other failures speak of the request body too, failing
	// open and closed.
	for _, closed := range []bool{false, true} {
		srv := &hook.Server{FailClosed: closed, Handler: testutil.AddFingerprint}
		for _, in := range []string{"", "  ", `{"a":`} {
			rep = srv.ServeHTTPBody(ctx, strings.NewReader(in), -1, nil)
			assert.NotContains(t, rep.Message, "stdin", "%q", in)
			assert.NotContains(t, string(rep.Body), "stdin", "%q", in)
			if strings.TrimSpace(in) == "" {
				assert.Contains(t, rep.Message, "the request body", "%q", in)
			}
		}
		// An ended context before the read.
		done, cancel := context.WithCancel(ctx)
		cancel()
		rep = srv.ServeHTTPBody(done, strings.NewReader(string(in)), -1, nil)
		assert.NotContains(t, rep.Message, "stdin")
	}
}
