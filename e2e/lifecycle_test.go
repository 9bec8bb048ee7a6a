package e2e_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
)

// TestApprover: with no allow rule, a Read outside the project raises a
// PermissionRequest that approver allows, so the model gets the file; a
// Read of a secret and a Bash call get no answer, and -p refuses them.
func TestApprover(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	approver := hooktest.BuildGo(t, "../examples/approver")
	r := claudetest.Run(t, claudetest.Session{
		Turns: []claudetest.Turn{
			{claudetest.Read(claudetest.ProjectDir + "/../outside/notes.md")},
			{claudetest.Read(claudetest.ProjectDir + "/../outside/.env")},
			{claudetest.Bash("echo hi > marker.txt")},
		},
		Allow: []string{},
		Hooks: []claudetest.Hook{{Event: "PermissionRequest", Matcher: "*", Command: []string{approver}}},
		Setup: func(project string) error {
			out := filepath.Join(project, "..", "outside")
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(out, "notes.md"), []byte("NOTES-LINE-42\n"), 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(out, ".env"), []byte("TOKEN=SECRET-VALUE-17\n"), 0o644)
		},
	})
	reqs := hookRuns(t, r, "approver", "PermissionRequest", 3)
	assert.Equal(t, "Read", reqs[0].Tool)
	assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`+"\n", string(reqs[0].Out))
	assert.Equal(t, "Read", reqs[1].Tool)
	assert.Empty(t, reqs[1].Out, "a secret: left to the person")
	assert.Equal(t, "Bash", reqs[2].Tool)
	assert.Empty(t, reqs[2].Out, "not read-only: left to the person")

	res := told(t, r, 1)
	assert.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "NOTES-LINE-42", "the allowed Read ran")
	for n := 2; n <= 3; n++ {
		res := told(t, r, n)
		assert.True(t, res.IsError, "call %d was not refused: %s", n, res.Text)
		assert.True(t, r.Call(n).Denied, "call %d is not among the permission denials", n)
	}
	assert.False(t, r.Told("SECRET-VALUE-17"), "the secret reached the model")
	_, ran := r.File("marker.txt")
	assert.False(t, ran, "the Bash call ran")
	var denied []string
	for _, d := range r.Denials {
		denied = append(denied, d.Tool)
	}
	assert.ElementsMatch(t, []string{"Read", "Bash"}, denied, "permission_denials")
}

// TestSessionLifecycle: context's SessionStart summary reaches the model;
// format reports an unformatted Go file after Write; stopguard keeps the
// model going once while its marker is there, then lets it stop.
func TestSessionLifecycle(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	bins := map[string]string{}
	for _, name := range []string{"context", "format", "stopguard"} {
		bins[name] = hooktest.BuildGo(t, "../examples/"+name)
	}
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{".claude/unfinished": "- format messy.go\n"},
		Turns: []claudetest.Turn{
			{claudetest.Write("messy.go", "package main\nfunc  main() {\nx:=1\n_ = x}\n")},
		},
		Final: "all done",
		Hooks: []claudetest.Hook{
			{Event: "SessionStart", Command: []string{bins["context"]}},
			{Event: "PostToolUse", Matcher: "Write|Edit", Command: []string{bins["format"]}},
			{Event: "Stop", Command: []string{bins["stopguard"]}},
		},
		Setup: func(project string) error {
			for _, args := range [][]string{
				{"init", "-q", "-b", "main"},
				{"-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "start"},
			} {
				if out, err := exec.Command("git", append([]string{"-C", project}, args...)...).CombinedOutput(); err != nil {
					return fmt.Errorf("git %v: %w: %s", args, err, out)
				}
			}
			return nil
		},
	})
	require.NotEmpty(t, r.Requests)
	assert.Contains(t, string(r.Requests[0]), "SessionStart hook additional context: Git: on branch main", "the model got the git summary")

	post := hookRuns(t, r, "format", "PostToolUse", 1)
	assert.Contains(t, string(post[0].Out), `"decision":"block"`)
	assert.True(t, r.Told("format: "+filepath.Join(r.Project, "messy.go")+" is not gofmt-formatted."), "the model got the gofmt report")
	write := told(t, r, 1)
	assert.False(t, write.IsError, write.Text)
	var next string
	for _, w := range write.With {
		next += w + "\n"
	}
	assert.Contains(t, next, "PostToolUse:Write hook blocking error", "the report follows the Write's result")
	assert.Contains(t, next, "format: "+filepath.Join(r.Project, "messy.go")+" is not gofmt-formatted.")

	stops := hookRuns(t, r, "stopguard", "Stop", 2)
	assert.Equal(t, "false", string(input(t, stops[0], "stop_hook_active")))
	assert.Equal(t, `"block"`, string(output(t, stops[0], "decision")))
	assert.Equal(t, "true", string(input(t, stops[1], "stop_hook_active")), "the second Stop knows a hook kept Claude going")
	assert.Contains(t, str(t, output(t, stops[1], "systemMessage")), "stopguard: Claude stopped although")
	assert.True(t, r.Told("stopguard: the work is not finished yet"), "the model got stopguard's reason")
	assert.True(t, r.Told("- format messy.go"), "the model got the marker's text")
	assert.Equal(t, "all done", r.Text)
	assert.Equal(t, []string{"SessionStart", "PostToolUse:Write", "Stop", "Stop"}, r.Events(), "the hook events in order")
}
