package e2e_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
)

// TestHTTPHook: an http hook's deny blocks the call and the model gets its
// reason; its empty answer lets the next call run. The request body is the
// very payload a command hook gets on stdin, without the newline.
func TestHTTPHook(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	deny := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		if bytes.Contains(body, []byte("DENY")) {
			w.Write([]byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"web guard says no"}}`))
		}
	})
	r := claudetest.Run(t, claudetest.Session{
		Turns: []claudetest.Turn{
			{claudetest.Bash("echo hi > denied.txt # DENY")},
			{claudetest.Bash("echo hi > allowed.txt")},
		},
		Hooks: []claudetest.Hook{
			{Event: "PreToolUse", Matcher: "Bash", Handler: deny, Name: "web"},
			{Event: "PreToolUse", Matcher: "Bash"},
		},
	})
	web := hookRuns(t, r, "web", "PreToolUse", 2)
	rec := hookRuns(t, r, "record", "PreToolUse", 2)
	for i := range web {
		assert.True(t, web[i].HTTP)
		assert.Equal(t, http.StatusOK, web[i].Code)
		assert.Equal(t, strings.TrimSuffix(string(rec[i].In), "\n"), string(web[i].In), "call %d: the http body is the command hook's stdin", i+1)
	}
	res := told(t, r, 1)
	assert.True(t, res.IsError)
	assert.Equal(t, "PreToolUse:Bash hook error: web guard says no", res.Text)
	_, ran := r.File("denied.txt")
	assert.False(t, ran, "the denied command ran")
	require.Empty(t, web[1].Out)
	out, ok := r.File("allowed.txt")
	assert.True(t, ok, "the allowed command did not run")
	assert.Equal(t, "hi\n", out)
}
