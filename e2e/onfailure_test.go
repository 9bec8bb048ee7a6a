package e2e_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook/claudetest"
)

// TestOnFailureBlocksAMissingGuard: a guard whose binary is missing is a
// non-blocking error to Claude Code, so the call it guards runs; with
// "onFailure": "block" in its settings entry the same failure blocks the
// call. This is the complement of hook.FailClosed, which covers failures
// inside a hook that started (docs/reliability.md).
//
// The guard's command is run by claudetest's recorder through sh -c, so
// Claude Code sees what it sees for a missing binary in shell form: exit
// 127 and the shell's "not found" on stderr.
func TestOnFailureBlocksAMissingGuard(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-guard")
	for _, tc := range []struct {
		name    string
		options map[string]any
		blocked bool
	}{
		{"default: the gate is open", nil, false},
		{"onFailure block", map[string]any{"onFailure": "block"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := claudetest.Run(t, claudetest.Session{
				Turns: []claudetest.Turn{{claudetest.Bash("echo ran > marker.txt")}},
				Hooks: []claudetest.Hook{{
					Event: "PreToolUse", Matcher: "Bash", Name: "guard",
					Command: []string{"sh", "-c", shellQuote(missing)},
					Options: tc.options,
				}},
			})
			runs := hookRuns(t, r, "guard", "PreToolUse", 1)
			assert.Equal(t, 127, runs[0].Code, "the shell could not start the guard: %s", runs[0].Err)
			_, ran := r.File("marker.txt")
			res := told(t, r, 1)
			t.Logf("the model was told: %q", res.Text)
			if tc.blocked {
				assert.False(t, ran, "the call ran although its guard could not start")
				assert.True(t, res.IsError, "the model was not told the call was blocked: %s", res.Text)
				assert.Contains(t, res.Text, "onFailure", "the model learns why")
			} else {
				assert.True(t, ran, "without onFailure the call runs: %s", res.Text)
				assert.False(t, res.IsError, res.Text)
			}
		})
	}
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	out := "'"
	for _, c := range s {
		if c == '\'' {
			out += `'\''`
			continue
		}
		out += string(c)
	}
	return out + "'"
}
