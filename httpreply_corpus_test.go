package hook_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// corpusInputs returns the inputs of testdata/fuzz/FuzzServe (the bad-input
// matrix and one event per branch of fuzzHandler).
func corpusInputs(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzServe", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		lines := strings.SplitN(strings.TrimSpace(string(b)), "\n", 2)
		require.Len(t, lines, 2, f)
		lit, ok := strings.CutPrefix(lines[1], "[]byte(")
		require.True(t, ok, f)
		s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
		require.NoError(t, err, f)
		out[filepath.Base(f)] = []byte(s)
	}
	return out
}

// TestHTTPAgreesWithServe sends every input of the fuzz corpus to the same
// handler as a command hook and as an http hook body, failing open and failing
// closed, and checks that the http answer is the command hook's outcome in
// HTTP form: exit 0 → 200 with the same stdout bytes (or an empty body);
// exit 2 → 200 with the event's block form carrying the stderr line as
// the reason; exit 1 → a non-2xx status with the stderr line as the body.
func TestHTTPAgreesWithServe(t *testing.T) {
	codes := map[int]int{}
	defer func() {
		assert.Positive(t, codes[hook.ExitOK], "inputs answered")
		assert.Positive(t, codes[hook.ExitBlock], "inputs blocked")
		assert.Positive(t, codes[hook.ExitError], "inputs failed")
	}()
	for name, in := range corpusInputs(t) {
		for _, closed := range []bool{false, true} {
			h, _, _ := fuzzHandler()
			srv := &hook.Server{Handler: h, FailClosed: closed, MaxInputBytes: 1 << 20}
			var stdout, stderr bytes.Buffer
			code := srv.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr)

			h2, _, _ := fuzzHandler()
			rep := (&hook.Server{FailClosed: closed, MaxInputBytes: 1 << 20}).ServeHTTPBody(context.Background(), bytes.NewReader(in), int64(len(in)), h2)
			body := string(rep.Body)
			resp := struct{ StatusCode int }{rep.Status}
			// The same line, but a failure to read speaks of the request
			// body instead of stdin.
			line := strings.TrimSuffix(requestWording(stderr.String()), "\n")
			codes[code]++
			switch code {
			case hook.ExitOK:
				assert.Equal(t, http.StatusOK, resp.StatusCode, "%s closed=%v: %s", name, closed, body)
				assert.Equal(t, strings.TrimSuffix(stdout.String(), "\n"), body, "%s closed=%v", name, closed)
			case hook.ExitBlock:
				assert.Equal(t, http.StatusOK, resp.StatusCode, "%s closed=%v: %s", name, closed, body)
				require.NotEmpty(t, body, "%s closed=%v", name, closed)
				v := jsontext.Value(body)
				assert.True(t, v.IsValid(), "%s: %s", name, body)
				reason, ok := testutil.PathOf([]byte(body), "reason")
				if !ok {
					reason, ok = testutil.PathOf([]byte(body), "hookSpecificOutput", "permissionDecisionReason")
				}
				require.True(t, ok, "%s: no reason in %s", name, body)
				want, err := jsontext.AppendQuote(nil, line)
				require.NoError(t, err)
				assert.Equal(t, string(want), reason, "%s closed=%v", name, closed)
			default:
				assert.NotEqual(t, http.StatusOK, resp.StatusCode, "%s closed=%v: %s", name, closed, body)
				assert.GreaterOrEqual(t, resp.StatusCode, 400)
				assert.Equal(t, requestWording(stderr.String()), body, "%s closed=%v", name, closed)
			}
		}
	}
}

// requestWording is the stderr line s of a command hook as an http hook
// words it: the reader's failures speak of the request body.
func requestWording(s string) string {
	return strings.NewReplacer("on stdin", "in the request body", "reading stdin", "reading the request body",
		"stdin was empty", "the request body was empty", "stdin held only whitespace", "the request body held only whitespace").Replace(s)
}
