package e2e_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
)

// TestHookctlHTTP: an http hook installed by hookctl in one command
// (url, a header that references $HOOK_TOKEN, -allow-env HOOK_TOKEN)
// reaches a server on 127.0.0.1 with the token filled in, and the
// server's deny is obeyed. With an allowedHttpHookUrls that doctor says
// blocks the URL, the real client does not call it and the tool runs.
func TestHookctlHTTP(t *testing.T) {
	needE2E(t)
	t.Parallel()
	ctl := hookctlFor(t)
	const token = "e2e-hookctl-token-5b1c"
	for _, c := range []struct {
		name    string
		allowed []string // allowedHttpHookUrls; nil leaves it out
		blocked bool
	}{
		{"allowed", nil, false},
		{"allowed-by-pattern", []string{"http://127.0.0.1:*/*"}, false},
		{"blocked", []string{"https://hooks.example.com/*"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var (
				mu    sync.Mutex
				auths []string
			)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				auths = append(auths, r.Header.Get("Authorization"))
				mu.Unlock()
				io.WriteString(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied over http"}}`)
			}))
			t.Cleanup(srv.Close)
			settings := map[string]any{"env": map[string]string{"HOOK_TOKEN": token}}
			if c.allowed != nil {
				settings["allowedHttpHookUrls"] = c.allowed
			}
			var installed []byte
			r := claudetest.Run(t, claudetest.Session{
				Settings: settings,
				Turns:    []claudetest.Turn{{claudetest.Bash("echo ran > marker.txt")}},
				Setup: func(project string) error {
					run := &Run{Project: project, Dir: filepath.Dir(project), Home: filepath.Join(filepath.Dir(project), "home")}
					var err error
					installed, err = ctl(run, "install", "-scope", "local", "-type", "http", "-event", "PreToolUse", "-matcher", "Bash",
						"-url", srv.URL+"/hook", "-header", "Authorization: Bearer $HOOK_TOKEN", "-allow-env", "HOOK_TOKEN", "-timeout", "30")
					return err
				},
			})
			// The harness writes the project settings (allowedHttpHookUrls)
			// after Setup: ask doctor about the files the client read.
			doc, _ := ctl(&Run{Project: r.Project, Dir: r.Dir, Home: r.Home}, "doctor", "-q")
			assert.Contains(t, string(installed), "installed PreToolUse[Bash] http "+srv.URL+"/hook")
			mu.Lock()
			defer mu.Unlock()
			_, ran := r.File("marker.txt")
			if c.blocked {
				assert.Empty(t, auths, "the client called a URL allowedHttpHookUrls blocks")
				assert.True(t, ran, "the tool did not run although the http hook was blocked")
				assert.Contains(t, string(doc), "matches no pattern of allowedHttpHookUrls", "%s", doc)
				return
			}
			require.Equal(t, []string{"Bearer " + token}, auths, "the hook was not called once with the token filled in")
			assert.False(t, ran, "the server's deny was not obeyed")
			assert.NotContains(t, string(doc), "allowedHttpHookUrls", "%s", doc)
			assert.NotContains(t, string(doc), "error:", "%s", doc)
		})
	}
}
