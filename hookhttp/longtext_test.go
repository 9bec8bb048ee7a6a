package hookhttp_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hookhttp"
)

// TestLongText: ServerHandler keeps the Server's LongText and SpillDir:
// an http hook's context over Claude Code's cap is spilled to the
// Server's folder, truncated or refused as a command hook's is.
func TestLongText(t *testing.T) {
	long := strings.Repeat("line of context\n", 2000) // 32,000 characters
	answer := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) {
		return &hook.UserPromptSubmitOutput{AdditionalContext: long}, nil
	})
	body := []byte(`{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"hi"}`)
	read := func(res *http.Response) string {
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return string(b)
	}

	dir := t.TempDir()
	res := postHook(t, hookhttp.ServerHandler(&hook.Server{SpillDir: dir}, answer, quiet), body)
	got := read(res)
	require.Equal(t, http.StatusOK, res.StatusCode, got)
	m := regexp.MustCompile(`The whole text is in the file (.+?); read it for the rest`).FindStringSubmatch(got)
	require.NotNil(t, m, got)
	assert.True(t, strings.HasPrefix(m[1], dir), m[1])
	b, err := os.ReadFile(m[1])
	require.NoError(t, err)
	assert.Equal(t, long, string(b))

	res = postHook(t, hookhttp.ServerHandler(&hook.Server{LongText: hook.LongTextTruncate}, answer, quiet), body)
	got = read(res)
	require.Equal(t, http.StatusOK, res.StatusCode, got)
	assert.Contains(t, got, "characters were left out, over the 10000 Claude Code passes on")

	res = postHook(t, hookhttp.ServerHandler(&hook.Server{LongText: hook.LongTextRefuse}, answer, quiet), body)
	got = read(res)
	assert.Equal(t, http.StatusInternalServerError, res.StatusCode, got)
	assert.Contains(t, got, "additionalContext is 32000 characters")
}
