package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
)

// TestBashguard: on the real client, bashguard's deny blocks the call, the
// model gets the guard's reason as the tool result, and the command never
// runs; an ordinary command still runs.
func TestBashguard(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	guard := hooktest.BuildGo(t, "../examples/bashguard")
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{"build/obj/x.o": "obj"},
		Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{guard}}},
		Turns: []claudetest.Turn{
			{claudetest.Bash(`echo ran > marker1.txt && rm -rf "$CLAUDE_PROJECT_DIR"`)},
			{claudetest.Bash(`echo ran > marker2.txt; git push --force origin main`)},
			{claudetest.Bash(`echo ran > allowed.txt && rm -rf ./build`)},
		},
	})
	hookRuns(t, r, "bashguard", "PreToolUse", 3)
	wants := []string{
		"bashguard blocked `rm -rf \"$CLAUDE_PROJECT_DIR\"`: it would delete the project root (" + r.Project + ").",
		"bashguard blocked `git push --force origin main`: a force push to main rewrites the shared history",
	}
	for i, want := range wants {
		h, ok := r.Call(i+1).Hook("bashguard", "PreToolUse")
		require.True(t, ok, "call %d: no PreToolUse run", i+1)
		assert.Equal(t, 0, h.Code, "stderr %s", h.Err)
		assert.Equal(t, `"deny"`, string(output(t, h, "hookSpecificOutput", "permissionDecision")))
		reason := str(t, output(t, h, "hookSpecificOutput", "permissionDecisionReason"))
		assert.Contains(t, reason, want)
		res := told(t, r, i+1)
		assert.True(t, res.IsError)
		assert.Equal(t, "PreToolUse:Bash hook error: "+reason, res.Text, "the model is told the guard's reason")
		_, ran := r.File("marker" + string(rune('1'+i)) + ".txt")
		assert.False(t, ran, "the blocked command ran")
	}
	h, _ := r.Call(3).Hook("bashguard", "PreToolUse")
	assert.Empty(t, h.Out, "no answer for an ordinary command")
	out, ok := r.File("allowed.txt")
	assert.True(t, ok, "the allowed command did not run")
	assert.Equal(t, "ran\n", out)
	_, err := os.Stat(filepath.Join(r.Project, "build"))
	assert.True(t, os.IsNotExist(err), "rm -rf ./build did not run")
	res := told(t, r, 3)
	assert.False(t, res.IsError, res.Text)
}

// TestRewrite: the rewritten command runs (under timeout: its child sees
// timeout as its parent), and every other member of the Bash input reaches
// the tool unchanged; an already bounded command is not prefixed again.
func TestRewrite(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	rewrite := hooktest.BuildGo(t, "../examples/rewrite")
	r := claudetest.Run(t, claudetest.Session{
		Turns: []claudetest.Turn{
			{claudetest.Tool("Bash", `{"command":"sh -c 'cat /proc/$PPID/comm' > comm.txt","description":"Who \"runs\" me \u2014 K\u00f6ln\tnight","timeout":120000}`)},
			{claudetest.Tool("Bash", `{"command":"timeout 30 sh -c 'echo once' > once.txt","description":"already bounded"}`)},
		},
		Hooks: []claudetest.Hook{
			{Event: "PreToolUse", Matcher: "Bash", Command: []string{rewrite}},
			{Event: "PostToolUse", Matcher: "*"},
		},
	})
	hookRuns(t, r, "rewrite", "PreToolUse", 2)
	hookRuns(t, r, "record", "PostToolUse", 2)

	// First call: rewritten.
	pre, _ := r.Call(1).Hook("rewrite", "PreToolUse")
	post, _ := r.Call(1).Hook("record", "PostToolUse")
	in := input(t, pre, "tool_input")
	assert.Equal(t, "sh -c 'cat /proc/$PPID/comm' > comm.txt", str(t, field(t, in, "command")))
	upd := output(t, pre, "hookSpecificOutput", "updatedInput")
	assert.Equal(t, "timeout 600 sh -c 'cat /proc/$PPID/comm' > comm.txt", str(t, field(t, upd, "command")))
	assert.NoError(t, hooktest.CheckPreserved(in, upd, "command"), "the hook's update")
	_, decided := pre.Output("hookSpecificOutput", "permissionDecision")
	assert.False(t, decided, "a rewrite makes no permission decision")
	ran := input(t, post, "tool_input")
	assert.Equal(t, string(upd), string(ran), "PostToolUse's tool_input is the update, byte for byte")
	assert.NoError(t, hooktest.CheckPreserved(in, ran, "command"), "what ran")
	assert.Equal(t, "Who \"runs\" me — Köln\tnight", str(t, field(t, ran, "description")))
	assert.Equal(t, "120000", string(field(t, ran, "timeout")))
	comm, ok := r.File("comm.txt")
	assert.True(t, ok, "the rewritten command did not run")
	assert.Equal(t, "timeout\n", comm, "the command ran under timeout")

	// Second call: already bounded, no answer, runs as the model wrote it.
	pre, _ = r.Call(2).Hook("rewrite", "PreToolUse")
	post, _ = r.Call(2).Hook("record", "PostToolUse")
	assert.Empty(t, pre.Out)
	assert.Equal(t, string(input(t, pre, "tool_input")), string(input(t, post, "tool_input")))
	once, _ := r.File("once.txt")
	assert.Equal(t, "once\n", once)
}

// TestMergeWriteEdit: Write and Edit updates built with hook.Merge that
// name only content or new_string keep file_path and replace_all on the
// real client (without replace_all the Edit would fail on two matches).
func TestMergeWriteEdit(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	merge := hooktest.BuildGo(t, "./testdata/mergehook")
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{"two.txt": "foo 1\nfoo 2\n"},
		Turns: []claudetest.Turn{
			{claudetest.Write("out.txt", "hello \"wörld\"\n")},
			{claudetest.Read("two.txt")},
			{claudetest.Tool("Edit", `{"file_path":"`+claudetest.ProjectDir+`/two.txt","old_string":"foo","new_string":"bar","replace_all":true}`)},
		},
		Hooks: []claudetest.Hook{
			{Event: "PreToolUse", Matcher: "Write|Edit", Command: []string{merge}},
			{Event: "PostToolUse", Matcher: "*"},
		},
	})
	pre := hookRuns(t, r, "mergehook", "PreToolUse", 2)
	for i, changed := range []string{"content", "new_string"} {
		in := input(t, pre[i], "tool_input")
		upd := output(t, pre[i], "hookSpecificOutput", "updatedInput")
		assert.NoError(t, hooktest.CheckPreserved(in, upd, changed))
	}
	out, ok := r.File("out.txt")
	assert.True(t, ok, "Write did not write out.txt")
	assert.Equal(t, "hello \"wörld\"\n(merged)\n", out)
	two, _ := r.File("two.txt")
	assert.Equal(t, "bar-merged 1\nbar-merged 2\n", two, "replace_all kept: both replaced")
	for n := 1; n <= 3; n++ {
		res := told(t, r, n)
		assert.False(t, res.IsError, "call %d: %s", n, res.Text)
	}
	write, ok := r.Call(1).Hook("record", "PostToolUse")
	require.True(t, ok, "PostToolUse of the Write")
	edit, ok := r.Call(3).Hook("record", "PostToolUse")
	require.True(t, ok, "PostToolUse of the Edit")
	assert.Equal(t, filepath.Join(r.Project, "out.txt"), str(t, input(t, write, "tool_input", "file_path")))
	assert.Equal(t, filepath.Join(r.Project, "two.txt"), str(t, input(t, edit, "tool_input", "file_path")))
	assert.Equal(t, "true", string(input(t, edit, "tool_input", "replace_all")))
}

// TestBlockAndFailClosed: hook.Block (exit 2) blocks and the model gets the
// reason; a fail-closed hook whose handler panics blocks too; an ordinary
// call through the same hook runs.
func TestBlockAndFailClosed(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	fault := hooktest.BuildGo(t, "./testdata/faulthook")
	r := claudetest.Run(t, claudetest.Session{
		Turns: []claudetest.Turn{
			{claudetest.Bash("echo hi > blocked.txt # BLOCK")},
			{claudetest.Bash("echo hi > panicked.txt # PANIC")},
			{claudetest.Bash("echo ok > fine.txt")},
		},
		Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{fault, "-closed"}}},
	})
	pre := hookRuns(t, r, "faulthook", "PreToolUse", 3)
	assert.Equal(t, 2, pre[0].Code)
	assert.Equal(t, "faulthook blocked this command on purpose\n", string(pre[0].Err))
	assert.Empty(t, pre[0].Out)
	assert.Equal(t, 2, pre[1].Code, "a fail-closed panic exits 2")
	assert.Contains(t, string(pre[1].Err), "faulthook panics on purpose")
	assert.Equal(t, 0, pre[2].Code)

	for i, want := range []string{"faulthook blocked this command on purpose", "faulthook panics on purpose"} {
		res := told(t, r, i+1)
		assert.True(t, res.IsError)
		assert.True(t, strings.HasPrefix(res.Text, "PreToolUse:Bash hook error: ["), res.Text)
		assert.Contains(t, res.Text, want)
	}
	for _, f := range []string{"blocked.txt", "panicked.txt"} {
		_, ran := r.File(f)
		assert.False(t, ran, "%s: the blocked command ran", f)
	}
	fine, _ := r.File("fine.txt")
	assert.Equal(t, "ok\n", fine)
}

// TestFailOpen: without FailClosed, a panicking hook is a non-blocking
// error: the call goes on and the model is not told.
func TestFailOpen(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	fault := hooktest.BuildGo(t, "./testdata/faulthook")
	r := claudetest.Run(t, claudetest.Session{
		Turns: []claudetest.Turn{{claudetest.Bash("echo hi > open.txt # PANIC")}},
		Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{fault}}},
	})
	pre := hookRuns(t, r, "faulthook", "PreToolUse", 1)
	assert.Equal(t, 1, pre[0].Code)
	assert.Contains(t, string(pre[0].Err), "faulthook panics on purpose")
	out, ok := r.File("open.txt")
	assert.True(t, ok, "the call did not go on")
	assert.Equal(t, "hi\n", out)
	res := told(t, r, 1)
	assert.False(t, res.IsError, res.Text)
	assert.False(t, r.Told("panics on purpose"), "the model was told about the failure")
	var logged bool
	for _, l := range r.DebugHooks {
		logged = logged || (strings.Contains(l, "PreToolUse:Bash") && strings.Contains(l, "status code 1") && strings.Contains(l, "panics on purpose"))
	}
	assert.True(t, logged, "the debug log tells the non-blocking error: %q", r.DebugHooks)
}

// TestProtectfiles: protectfiles denies a Read of .env and a Write of
// .env.local with its reason, so the secret never reaches the model and
// nothing is written; .env.example is read as usual.
func TestProtectfiles(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	protect := hooktest.BuildGo(t, "../examples/protectfiles")
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{".env": "TOKEN=SECRET-VALUE-17\n", ".env.example": "TOKEN=EXAMPLE-LINE\n"},
		Turns: []claudetest.Turn{
			{claudetest.Read(".env")},
			{claudetest.Write(".env.local", "TOKEN=x\n")},
			{claudetest.Read(".env.example")},
		},
		Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "Read|Write|Edit|NotebookEdit", Command: []string{protect}}},
	})
	pre := hookRuns(t, r, "protectfiles", "PreToolUse", 3)
	for i, want := range []string{
		"protectfiles blocked Read of " + filepath.Join(r.Project, ".env") + ": it looks like a secret (.env file)",
		"protectfiles blocked Write of " + filepath.Join(r.Project, ".env.local") + ": it looks like a secret (.env file)",
	} {
		reason := str(t, output(t, pre[i], "hookSpecificOutput", "permissionDecisionReason"))
		assert.Contains(t, reason, want)
		res := told(t, r, i+1)
		assert.True(t, res.IsError)
		assert.Equal(t, "PreToolUse:"+pre[i].Tool+" hook error: "+reason, res.Text)
	}
	assert.False(t, r.Told("SECRET-VALUE-17"), "the secret reached the model")
	_, written := r.File(".env.local")
	assert.False(t, written, ".env.local was written")
	assert.Empty(t, pre[2].Out)
	res := told(t, r, 3)
	assert.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "EXAMPLE-LINE")
}
