package e2e_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodexFailClosedPostToolUse: a fail-closed PostToolUse hook that
// fails exits 2 under Codex, which acts on exit 2 there: it reports the
// hook Blocked and gives the model the hook's one stderr line in place of
// the command's output. The same failure in a hook that does not fail
// closed exits 1: Codex reports it Failed and the model is told nothing.
func TestCodexFailClosedPostToolUse(t *testing.T) {
	for _, mode := range []string{"postfail", "postfailopen"} {
		t.Run(mode, func(t *testing.T) {
			r := runShellCall(t, "echo ran > marker.txt", func(s *codexSession, hook, log string) {
				s.Hooks = codexHooksFor(t, "PostToolUse", hook, log, mode)
			})
			require.Len(t, payloads(t, r.Log), 1)
			assert.FileExists(t, filepath.Join(r.Project, "marker.txt"), "PostToolUse runs after the call")
			out := r.toolOutput(t, "call_1")
			if mode == "postfail" {
				assert.Equal(t, []string{"Blocked"}, r.hookStatuses("PostToolUse"), "stderr:\n%s", r.Stderr)
				assert.Equal(t, "hook: shellhook: policy unreadable", out)
				return
			}
			assert.Equal(t, []string{"Failed"}, r.hookStatuses("PostToolUse"), "stderr:\n%s", r.Stderr)
			for _, q := range r.Requests {
				assert.NotContains(t, q.Body, "policy unreadable", "a fail-open failure reached the model")
			}
			t.Logf("told the model: %q", out)
		})
	}
}
