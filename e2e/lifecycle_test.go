package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/e2e"
)

// TestApprover: with no allow rule, a Read outside the project raises a
// PermissionRequest that approver allows, so the model gets the file; a
// Read of a secret and a Bash call get no answer, and -p refuses them.
func TestApprover(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{
			{{Tool: "Read", Input: `{"file_path":"@PROJ@/../outside/notes.md"}`}},
			{{Tool: "Read", Input: `{"file_path":"@PROJ@/../outside/.env"}`}},
			{bash(t, "echo hi > marker.txt")},
		}},
		Allow: []string{},
		Hooks: []e2e.Hook{{Event: "PermissionRequest", Matcher: "*", Command: hook("approver")}},
		Setup: func(r *e2e.Run) error {
			out := filepath.Join(r.Dir, "outside")
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(out, "notes.md"), []byte("NOTES-LINE-42\n"), 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(out, ".env"), []byte("TOKEN=SECRET-VALUE-17\n"), 0o644)
		},
	})
	reqs := captures(t, r, "approver", "PermissionRequest", 3)
	assert.Equal(t, "Read", reqs[0].Tool)
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`+"\n", string(reqs[0].Out))
	assert.Equal(t, "Read", reqs[1].Tool)
	assert.Empty(t, reqs[1].Out, "a secret: left to the person")
	assert.Equal(t, "Bash", reqs[2].Tool)
	assert.Empty(t, reqs[2].Out, "not read-only: left to the person")

	res, ok := r.API.ToolResult(e2e.CallID(1))
	require.True(t, ok)
	assert.False(t, res.IsError, res.ContentText())
	assert.Contains(t, res.ContentText(), "NOTES-LINE-42", "the allowed Read ran")
	for n := 2; n <= 3; n++ {
		res, ok := r.API.ToolResult(e2e.CallID(n))
		require.True(t, ok)
		assert.True(t, res.IsError, "call %d was not refused: %s", n, res.ContentText())
	}
	assert.False(t, r.API.ModelSaw("SECRET-VALUE-17"), "the secret reached the model")
	_, ran := r.File("marker.txt")
	assert.False(t, ran, "the Bash call ran")
	assert.ElementsMatch(t, []string{"Read", "Bash"}, r.Denied(), "permission_denials")
}

// TestSessionLifecycle: context's SessionStart summary reaches the model;
// format reports an unformatted Go file after Write; stopguard keeps the
// model going once while its marker is there, then lets it stop.
func TestSessionLifecycle(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{
			{{Tool: "Write", Input: `{"file_path":"@PROJ@/messy.go","content":"package main\nfunc  main() {\nx:=1\n_ = x}\n"}`}},
		}, FinalText: "all done"},
		Hooks: []e2e.Hook{
			{Event: "SessionStart", Command: hook("context")},
			{Event: "PostToolUse", Matcher: "Write|Edit", Command: hook("format")},
			{Event: "Stop", Command: hook("stopguard")},
		},
		Setup: func(r *e2e.Run) error {
			for _, args := range [][]string{
				{"init", "-q", "-b", "main"},
				{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "start"},
			} {
				if out, err := exec.Command("git", append([]string{"-C", r.Project}, args...)...).CombinedOutput(); err != nil {
					return fmt.Errorf("git %v: %w: %s", args, err, out)
				}
			}
			return os.WriteFile(filepath.Join(r.Project, ".claude", "unfinished"), []byte("- format messy.go\n"), 0o644)
		},
	})
	main := r.API.MainRequests()
	require.NotEmpty(t, main)
	assert.Contains(t, string(main[0].Body), "SessionStart hook additional context: Git: on branch main", "the model got the git summary")

	post := captures(t, r, "format", "PostToolUse", 1)
	assert.Contains(t, string(post[0].Out), `"decision":"block"`)
	assert.True(t, r.API.ModelSaw("format: "+filepath.Join(r.Project, "messy.go")+" is not gofmt-formatted."), "the model got the gofmt report")

	stops := captures(t, r, "stopguard", "Stop", 2)
	assert.Equal(t, "false", string(field(t, stops[0].In, "stop_hook_active")))
	assert.Equal(t, `"block"`, string(field(t, stops[0].Out, "decision")))
	assert.Equal(t, "true", string(field(t, stops[1].In, "stop_hook_active")), "the second Stop knows a hook kept Claude going")
	assert.Contains(t, str(t, field(t, stops[1].Out, "systemMessage")), "stopguard: Claude stopped although")
	assert.True(t, r.API.ModelSaw("stopguard: the work is not finished yet"), "the model got stopguard's reason")
	assert.True(t, r.API.ModelSaw("- format messy.go"), "the model got the marker's text")
	res, err := r.Result()
	require.NoError(t, err)
	assert.Equal(t, "all done", res.Result)
}
