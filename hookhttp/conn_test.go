package hookhttp_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hookhttp"
	"github.com/gohooks/hook/internal/testutil"
)

// cwdPrint answers every PreToolUse with the fingerprint of its own cwd, so
// that an answer given to the wrong request shows.
var cwdPrint = hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	sum := sha256.Sum256([]byte(e.Cwd))
	upd, err := e.Merge(map[string]string{"fingerprint": hex.EncodeToString(sum[:8])})
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
})

func payloadFor(cwd, room string) []byte {
	return []byte(`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"` + cwd + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"mcp__probe__listen_here","tool_input":{"room":"` + room + `"},"tool_use_id":"toolu_1"}`)
}

func postTo(t *testing.T, c *http.Client, url string, body []byte) (int, string) {
	t.Helper()
	resp, err := c.Post(url, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// TestHTTPKeepAlive sends many calls over one connection, as Claude Code
// does, and checks that the server never needed a second one.
func TestHTTPKeepAlive(t *testing.T) {
	srv := httptest.NewUnstartedServer(hookhttp.Handler(cwdPrint, quiet))
	var conns atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	for i := range 50 {
		status, body := postTo(t, c, srv.URL, payloadFor("/p", fmt.Sprint(i)))
		require.Equal(t, http.StatusOK, status)
		assert.Contains(t, body, `"room":"`+fmt.Sprint(i)+`"`)
	}
	// A failure and a block keep the connection too.
	status, _ := postTo(t, c, srv.URL, []byte(`{"nope`))
	assert.Equal(t, http.StatusBadRequest, status)
	status, _ = postTo(t, c, srv.URL, payloadFor("/p", "after"))
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, int32(1), conns.Load(), "connections opened")
}

// TestHTTPConcurrentRequests serves many calls at once; each answer must
// be its own request's (run with -race).
func TestHTTPConcurrentRequests(t *testing.T) {
	srv := httptest.NewServer(hookhttp.ServerHandler(&hook.Server{FailClosed: true, Timeout: time.Minute}, cwdPrint, nil))
	defer srv.Close()
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for i := range 20 {
				cwd := fmt.Sprintf("/proj/%d/%d", g, i)
				status, body := postTo(t, c, srv.URL, payloadFor(cwd, cwd))
				if !assert.Equal(t, http.StatusOK, status) {
					return
				}
				sum := sha256.Sum256([]byte(cwd))
				assert.Contains(t, body, `"room":"`+cwd+`"`)
				assert.Contains(t, body, `"fingerprint":"`+hex.EncodeToString(sum[:8])+`"`)
			}
		})
	}
	wg.Wait()
}

// TestHTTPSlowClient sends half a body and stops: the Timeout ends the
// read, the answer says so, and the server goes on serving.
func TestHTTPSlowClient(t *testing.T) {
	for _, closed := range []bool{false, true} {
		t.Run(fmt.Sprint("FailClosed=", closed), func(t *testing.T) {
			srv := httptest.NewServer(hookhttp.ServerHandler(&hook.Server{Timeout: 200 * time.Millisecond, FailClosed: closed}, cwdPrint, quiet))
			defer srv.Close()
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			require.NoError(t, err)
			defer conn.Close()
			body := payloadFor("/p", "r")
			fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:len(body)/2])
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err)
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if closed {
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				assert.Contains(t, string(b), `"decision":"block"`)
			} else {
				assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
			}
			assert.Contains(t, string(b), "gave up waiting for a complete JSON object in the request body")

			status, out := postTo(t, srv.Client(), srv.URL, payloadFor("/p", "next"))
			assert.Equal(t, http.StatusOK, status)
			assert.Contains(t, out, `"room":"next"`)
		})
	}
}

// TestHTTPHandlerTimeout answers for a handler that ignores its context.
func TestHTTPHandlerTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	stuck := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		testutil.PassDeadline(ctx) // a no-op on srv, which has no deadline
		<-release
		return nil, nil
	})
	srv := httptest.NewServer(hookhttp.Handler(hook.Chain(hook.FailClosed(stuck)), quiet))
	defer srv.Close()
	// The request's deadline passes while the handler runs, not at a
	// time that a loaded machine may reach before the body is read.
	timed := hookhttp.ServerHandler(&hook.Server{}, hook.FailClosed(stuck), quiet)
	srvT := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		timed.ServeHTTP(w, r.WithContext(testutil.DeadlineContextOf(r.Context())))
	}))
	defer srvT.Close()
	status, body := postTo(t, srvT.Client(), srvT.URL, payloadFor("/p", "r"))
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"permissionDecision":"deny"`)
	assert.Contains(t, body, "did not answer in time")

	// A client that gives up cancels the handler's context.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, bytes.NewReader(payloadFor("/p", "r")))
	req.Header.Set("Content-Type", "application/json")
	_, err := srv.Client().Do(req)
	assert.Error(t, err)
	status, _ = postTo(t, srvT.Client(), srvT.URL, []byte(`{"hook_event_name":"Stop","session_id":"s","cwd":"/","transcript_path":"/t"}`))
	assert.Equal(t, http.StatusOK, status, "the server still serves")
}

// TestHTTPRefusesWithoutReadingTheBody checks that a refused request does
// not cost a read of its body.
func TestHTTPRefusesWithoutReadingTheBody(t *testing.T) {
	h := hookhttp.Handler(cwdPrint, &hookhttp.Options{BearerToken: "t", Logger: quiet.Logger})
	var read atomic.Int64
	body := &countReads{r: strings.NewReader(string(payloadFor("/p", "r"))), n: &read}
	req := httptest.NewRequest(http.MethodPost, "/", body)
	req.Header.Set("Content-Type", "application/json")
	assert.Equal(t, http.StatusUnauthorized, do(h, req).StatusCode)
	assert.Zero(t, read.Load())
}

type countReads struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countReads) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestHTTPShortBody sends less than the Content-Length announced and keeps
// the connection open, as a broken or hostile client does: the answer
// still arrives, without waiting for bytes that never come. When the
// event's JSON object is cut short, the Timeout bounds the read and the
// answer (408, or the block form when failing closed) speaks of the
// request body; when it is whole, the answer is the handler's, and the
// connection is closed after it.
func TestHTTPShortBody(t *testing.T) {
	body := payloadFor("/p", "r")
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		closed  bool
		sent    []byte
		status  int
		want    string
	}{
		{"cut open", 500 * time.Millisecond, false, body[:len(body)/2], http.StatusRequestTimeout, "gave up waiting for a complete JSON object in the request body"},
		{"cut closed", 500 * time.Millisecond, true, body[:len(body)/2], http.StatusOK, `{"decision":"block","reason":"hook: gave up waiting for a complete JSON object in the request body`},
		{"whole", 500 * time.Millisecond, false, body, http.StatusOK, `"fingerprint":"`},
		{"whole without Timeout", 0, true, body, http.StatusOK, `"fingerprint":"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(hookhttp.ServerHandler(&hook.Server{Timeout: tc.timeout, FailClosed: tc.closed}, cwdPrint, quiet))
			defer srv.Close()
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			require.NoError(t, err)
			defer conn.Close()
			// Generous: the answer is due after the Timeout, not after
			// this deadline, which only keeps a broken server from
			// hanging the test.
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(time.Minute)))
			fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body)+64, tc.sent)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err, "the server answers while the client keeps the connection open")
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode, string(b))
			assert.Contains(t, string(b), tc.want)
			assert.NotContains(t, string(b), "stdin")
			assert.True(t, resp.Close, "the rest of the body is not waited for: the connection closes")

			status, out := postTo(t, srv.Client(), srv.URL, payloadFor("/p", "next"))
			assert.Equal(t, http.StatusOK, status, "the server still serves")
			assert.Contains(t, out, `"room":"next"`)
		})
	}
}

// TestHTTPKeepsTheConnectionOfAWholeBody checks that a body read to its
// end, with or without a Content-Length, keeps the connection open.
func TestHTTPKeepsTheConnectionOfAWholeBody(t *testing.T) {
	srv := httptest.NewServer(hookhttp.ServerHandler(&hook.Server{Timeout: time.Minute}, cwdPrint, quiet))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(time.Minute)))
	br := bufio.NewReader(conn)
	body := payloadFor("/p", "r")
	for _, chunked := range []bool{false, true, false} {
		if chunked {
			fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(body), body)
		} else {
			fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		}
		resp, err := http.ReadResponse(br, nil)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, string(b), `"fingerprint":"`)
		assert.False(t, resp.Close, "chunked=%v", chunked)
	}
}
