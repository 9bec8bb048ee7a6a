package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hookhttp"
	"github.com/gohooks/hook/hooktest"
)

func onPath(name string) (string, error) {
	switch name {
	case "go", "ls", "git", "rm", "sudo":
		return "/usr/bin/" + name, nil
	}
	return "", errors.New("not found")
}

func onMain(context.Context, string) (string, error) { return "main", nil }

// serveOn starts run on a free loopback port and returns its URL and a
// function that stops it and returns run's error.
func serveOn(t *testing.T, token string) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	var log bytes.Buffer
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-quiet"}, token, &log, func(a string) { addr <- a })
	}()
	select {
	case a := <-addr:
		return "http://" + a + "/", func() error { cancel(); return <-done }
	case err := <-done:
		cancel()
		t.Fatalf("run: %v; log: %s", err, log.String())
	}
	return "", nil
}

func post(t *testing.T, url, token string, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// TestServesThePolicies runs the server and sends it what Claude Code
// sends: the guard denies, fingerprint rewrites, Stop is guarded.
func TestServesThePolicies(t *testing.T) {
	url, stop := serveOn(t, "tok")
	defer func() { assert.NoError(t, stop(), "graceful shutdown") }()

	rmHome, err := os.ReadFile(filepath.Join("..", "bashguard", "testdata", "rm-home.json"))
	require.NoError(t, err)
	status, _ := post(t, url, "", rmHome)
	assert.Equal(t, http.StatusUnauthorized, status, "no token")
	status, body := post(t, url, "tok", rmHome)
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"permissionDecision":"deny"`)
	assert.Contains(t, body, "home folder")

	listen := hooktest.NewPreToolUse("mcp__probe__listen_here", `{"room":"K\u00f6ln \ud800","x":1.50}`)
	status, body = post(t, url, "tok", listen)
	assert.Equal(t, http.StatusOK, status)
	rawCwd, ok := hooktest.Field(listen, "cwd")
	require.True(t, ok)
	var cwd string
	require.NoError(t, json.Unmarshal(rawCwd, &cwd))
	sum := sha256.Sum256([]byte(cwd))
	assert.Contains(t, body, `"updatedInput":{"room":"K\u00f6ln \ud800","x":1.50,"fingerprint":"`+hex.EncodeToString(sum[:8])+`"}`)

	status, body = post(t, url, "tok", hooktest.NewEvent(hook.EventStop))
	assert.Equal(t, http.StatusOK, status)
	assert.Empty(t, body, "no marker file: Claude may stop")
}

func TestGuardAndRewrite(t *testing.T) {
	h := hookhttp.Handler(newHandler(onPath, onMain), nil)
	srvBody := func(in []byte) string {
		rec := hooktest.Record(newHandler(onPath, onMain), in)
		require.NoError(t, rec.Err())
		return string(rec.Stdout)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"git push --force origin main", `"permissionDecision":"deny"`},
		{"go test ./...", `timeout 600 go test ./...`},
	} {
		in := hooktest.WithToolInputField(hooktest.NewPreToolUse(hook.ToolBash, `{"command":"x","description":"d"}`), "command", tc.cmd)
		rec := newRecorder()
		req, _ := http.NewRequest(http.MethodPost, "/", bytes.NewReader(in))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusOK, rec.status, tc.cmd)
		assert.Equal(t, strings.TrimSuffix(srvBody(in), "\n"), rec.body.String(), "the command hook's answer, %s", tc.cmd)
		assert.Contains(t, rec.body.String(), tc.want)
	}
	rec := newRecorder()
	req, _ := http.NewRequest(http.MethodPost, "/", bytes.NewReader(hooktest.NewPreToolUse(hook.ToolRead, `{"file_path":"/etc/hosts"}`)))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusOK, rec.status)
	assert.Empty(t, rec.body.String(), "no rule for Read")
}

// TestShutdownWaitsForTheCallInFlight stops the server while a call is in
// flight: the server has begun reading the call's body (it sent "100
// Continue") when the shutdown starts, and the body arrives only once the
// server has stopped accepting connections. The call is still answered.
func TestShutdownWaitsForTheCallInFlight(t *testing.T) {
	url, stop := serveOn(t, "")
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	body := hooktest.NewPreToolUse(hook.ToolBash, `{"command":"ls"}`)
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n", addr, len(body))
	br := bufio.NewReader(conn)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "HTTP/1.1 100 Continue\r\n", line, "the handler reads the body")
	_, err = br.ReadString('\n')
	require.NoError(t, err)

	errc := make(chan error, 1)
	go func() { errc <- stop() }()
	// The shutdown has begun once the server no longer accepts.
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		runtime.Gosched()
	}
	_, err = conn.Write(body)
	require.NoError(t, err)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.NoError(t, <-errc)
	_, err = http.Post(url, "application/json", strings.NewReader("{}"))
	assert.Error(t, err, "the server is gone")
}

func TestBadFlag(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"-nope"}, "", &out, nil)
	assert.Error(t, err)
	err = run(context.Background(), []string{"-addr", "256.0.0.1:1"}, "", &out, nil)
	assert.Error(t, err)
}

type recorder struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder                    { return &recorder{h: http.Header{}} }
func (r *recorder) Header() http.Header         { return r.h }
func (r *recorder) WriteHeader(s int)           { r.status = s }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
