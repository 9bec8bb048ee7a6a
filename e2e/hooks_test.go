package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/e2e"
	"github.com/gohooks/hook/hooktest"
)

// str decodes a raw JSON string.
func str(t *testing.T, raw jsontext.Value) string {
	t.Helper()
	var s string
	require.NoError(t, json.Unmarshal(raw, &s, jsontext.AllowInvalidUTF8(true)), "%s", raw)
	return s
}

// field returns the raw member name of obj, failing the test when it is
// missing.
func field(t *testing.T, obj []byte, names ...string) jsontext.Value {
	t.Helper()
	v, ok := e2e.Path(obj, names...)
	require.True(t, ok, "member %v of %s", names, obj)
	return v
}

// bash returns a Bash call.
func bash(t *testing.T, command string) e2e.Call {
	return e2e.Call{Tool: "Bash", Input: jsonText(t, map[string]string{"command": command, "description": "e2e step"})}
}

// captures returns the invocations of event by the hook label, requiring
// n of them.
func captures(t *testing.T, r *e2e.Run, label, event string, n int) []e2e.Capture {
	t.Helper()
	cs, err := r.CapturesOf(label, event)
	require.NoError(t, err)
	require.Len(t, cs, n, "%s runs of %s", event, label)
	return cs
}

// TestBashguard: on the real client, bashguard's deny blocks the call, the
// model gets the guard's reason as the tool result, and the command never
// runs; an ordinary command still runs.
func TestBashguard(t *testing.T) {
	needE2E(t)
	t.Parallel()
	cmds := []string{
		`echo ran > marker1.txt && rm -rf "$CLAUDE_PROJECT_DIR"`,
		`echo ran > marker2.txt; git push --force origin main`,
		`echo ran > allowed.txt && rm -rf ./build`,
	}
	var script e2e.Script
	for _, c := range cmds {
		script.Turns = append(script.Turns, e2e.Turn{bash(t, c)})
	}
	r := run(t, e2e.Case{
		Script: script,
		Hooks:  []e2e.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: hook("bashguard")}},
		Setup: func(r *e2e.Run) error {
			return os.MkdirAll(filepath.Join(r.Project, "build", "obj"), 0o755)
		},
	})
	pre := captures(t, r, "bashguard", "PreToolUse", 3)
	wants := []string{
		"bashguard blocked `rm -rf \"$CLAUDE_PROJECT_DIR\"`: it would delete the project root (" + r.Project + ").",
		"bashguard blocked `git push --force origin main`: a force push to main rewrites the shared history",
	}
	for i, want := range wants {
		h := pre[i]
		assert.Equal(t, 0, h.Code, "stderr %s", h.Err)
		assert.Equal(t, `"deny"`, string(field(t, h.Out, "hookSpecificOutput", "permissionDecision")))
		reason := str(t, field(t, h.Out, "hookSpecificOutput", "permissionDecisionReason"))
		assert.Contains(t, reason, want)
		res, ok := r.API.ToolResult(e2e.CallID(i + 1))
		require.True(t, ok, "tool_result %d", i+1)
		assert.True(t, res.IsError)
		assert.Equal(t, "PreToolUse:Bash hook error: "+reason, res.ContentText(), "the model is told the guard's reason")
		_, ran := r.File(filepath.Join("marker" + string(rune('1'+i)) + ".txt"))
		assert.False(t, ran, "the blocked command ran")
	}
	assert.Empty(t, pre[2].Out, "no answer for an ordinary command")
	out, ok := r.File("allowed.txt")
	assert.True(t, ok, "the allowed command did not run")
	assert.Equal(t, "ran\n", out)
	_, err := os.Stat(filepath.Join(r.Project, "build"))
	assert.True(t, os.IsNotExist(err), "rm -rf ./build ran")
	res, ok := r.API.ToolResult(e2e.CallID(3))
	require.True(t, ok)
	assert.False(t, res.IsError, res.ContentText())
}

// TestRewrite: the rewritten command runs (under timeout: its child sees
// timeout as its parent), and every other member of the Bash input reaches
// the tool unchanged; an already bounded command is not prefixed again.
func TestRewrite(t *testing.T) {
	needE2E(t)
	t.Parallel()
	first := `{"command":"sh -c 'cat /proc/$PPID/comm' > comm.txt","description":"Who \"runs\" me \u2014 K\u00f6ln\tnight","timeout":120000}`
	second := `{"command":"timeout 30 sh -c 'echo once' > once.txt","description":"already bounded"}`
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{{{Tool: "Bash", Input: first}}, {{Tool: "Bash", Input: second}}}},
		Hooks: []e2e.Hook{
			{Event: "PreToolUse", Matcher: "Bash", Command: hook("rewrite")},
			{Event: "PostToolUse", Matcher: "*"},
		},
	})
	pre := captures(t, r, "rewrite", "PreToolUse", 2)
	post := captures(t, r, "record", "PostToolUse", 2)

	// First call: rewritten.
	in := field(t, pre[0].In, "tool_input")
	assert.Equal(t, "sh -c 'cat /proc/$PPID/comm' > comm.txt", str(t, field(t, in, "command")))
	upd := field(t, pre[0].Out, "hookSpecificOutput", "updatedInput")
	assert.Equal(t, "timeout 600 sh -c 'cat /proc/$PPID/comm' > comm.txt", str(t, field(t, upd, "command")))
	assert.NoError(t, hooktest.CheckPreserved(in, upd, "command"), "the hook's update")
	_, decided := e2e.Path(pre[0].Out, "hookSpecificOutput", "permissionDecision")
	assert.False(t, decided, "a rewrite makes no permission decision")
	ran := field(t, post[0].In, "tool_input")
	assert.Equal(t, string(upd), string(ran), "PostToolUse's tool_input is the update, byte for byte")
	assert.NoError(t, hooktest.CheckPreserved(in, ran, "command"), "what ran")
	assert.Equal(t, "Who \"runs\" me — Köln\tnight", str(t, field(t, ran, "description")))
	assert.Equal(t, "120000", string(field(t, ran, "timeout")))
	comm, ok := r.File("comm.txt")
	assert.True(t, ok, "the rewritten command did not run")
	assert.Equal(t, "timeout\n", comm, "the command ran under timeout")

	// Second call: already bounded, no answer, runs as the model wrote it.
	assert.Empty(t, pre[1].Out)
	assert.Equal(t, string(field(t, pre[1].In, "tool_input")), string(field(t, post[1].In, "tool_input")))
	once, _ := r.File("once.txt")
	assert.Equal(t, "once\n", once)
}

// TestMergeWriteEdit: Write and Edit updates built with hook.Merge that
// name only content or new_string keep file_path and replace_all on the
// real client (without replace_all the Edit would fail on two matches).
func TestMergeWriteEdit(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{
			{{Tool: "Write", Input: `{"file_path":"@PROJ@/out.txt","content":"hello \"w\u00f6rld\"\n"}`}},
			{{Tool: "Read", Input: `{"file_path":"@PROJ@/two.txt"}`}},
			{{Tool: "Edit", Input: `{"file_path":"@PROJ@/two.txt","old_string":"foo","new_string":"bar","replace_all":true}`}},
		}},
		Hooks: []e2e.Hook{
			{Event: "PreToolUse", Matcher: "Write|Edit", Command: hook("mergehook")},
			{Event: "PostToolUse", Matcher: "*"},
		},
		Setup: func(r *e2e.Run) error {
			return os.WriteFile(filepath.Join(r.Project, "two.txt"), []byte("foo 1\nfoo 2\n"), 0o644)
		},
	})
	pre := captures(t, r, "mergehook", "PreToolUse", 2)
	for i, changed := range []string{"content", "new_string"} {
		in := field(t, pre[i].In, "tool_input")
		upd := field(t, pre[i].Out, "hookSpecificOutput", "updatedInput")
		assert.NoError(t, hooktest.CheckPreserved(in, upd, changed))
	}
	out, ok := r.File("out.txt")
	assert.True(t, ok, "Write did not write out.txt")
	assert.Equal(t, "hello \"wörld\"\n(merged)\n", out)
	two, _ := r.File("two.txt")
	assert.Equal(t, "bar-merged 1\nbar-merged 2\n", two, "replace_all kept: both replaced")
	for n := 1; n <= 3; n++ {
		res, ok := r.API.ToolResult(e2e.CallID(n))
		require.True(t, ok)
		assert.False(t, res.IsError, "call %d: %s", n, res.ContentText())
	}
	var posts []e2e.Capture
	all, err := r.CapturesOf("record", "PostToolUse")
	require.NoError(t, err)
	for _, c := range all {
		if c.Tool == "Write" || c.Tool == "Edit" {
			posts = append(posts, c)
		}
	}
	require.Len(t, posts, 2)
	assert.Equal(t, filepath.Join(r.Project, "out.txt"), str(t, field(t, posts[0].In, "tool_input", "file_path")))
	assert.Equal(t, filepath.Join(r.Project, "two.txt"), str(t, field(t, posts[1].In, "tool_input", "file_path")))
	assert.Equal(t, "true", string(field(t, posts[1].In, "tool_input", "replace_all")))
}

// TestBlockAndFailClosed: hook.Block (exit 2) blocks and the model gets the
// reason; a fail-closed hook whose handler panics blocks too; an ordinary
// call through the same hook runs.
func TestBlockAndFailClosed(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{
			{bash(t, "echo hi > blocked.txt # BLOCK")},
			{bash(t, "echo hi > panicked.txt # PANIC")},
			{bash(t, "echo ok > fine.txt")},
		}},
		Hooks: []e2e.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: hook("faulthook", "-closed")}},
	})
	pre := captures(t, r, "faulthook", "PreToolUse", 3)
	assert.Equal(t, 2, pre[0].Code)
	assert.Equal(t, "faulthook blocked this command on purpose\n", string(pre[0].Err))
	assert.Empty(t, pre[0].Out)
	assert.Equal(t, 2, pre[1].Code, "a fail-closed panic exits 2")
	assert.Contains(t, string(pre[1].Err), "faulthook panics on purpose")
	assert.Equal(t, 0, pre[2].Code)

	for i, want := range []string{"faulthook blocked this command on purpose", "faulthook panics on purpose"} {
		res, ok := r.API.ToolResult(e2e.CallID(i + 1))
		require.True(t, ok)
		assert.True(t, res.IsError)
		text := res.ContentText()
		assert.True(t, strings.HasPrefix(text, "PreToolUse:Bash hook error: ["), text)
		assert.Contains(t, text, want)
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
	needE2E(t)
	t.Parallel()
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{{bash(t, "echo hi > open.txt # PANIC")}}},
		Hooks:  []e2e.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: hook("faulthook")}},
	})
	pre := captures(t, r, "faulthook", "PreToolUse", 1)
	assert.Equal(t, 1, pre[0].Code)
	assert.Contains(t, string(pre[0].Err), "faulthook panics on purpose")
	out, ok := r.File("open.txt")
	assert.True(t, ok, "the call did not go on")
	assert.Equal(t, "hi\n", out)
	res, ok := r.API.ToolResult(e2e.CallID(1))
	require.True(t, ok)
	assert.False(t, res.IsError, res.ContentText())
	assert.False(t, r.API.ModelSaw("panics on purpose"), "the model was told about the failure")
}

// TestProtectfiles: protectfiles denies a Read of .env and a Write of
// .env.local with its reason, so the secret never reaches the model and
// nothing is written; .env.example is read as usual.
func TestProtectfiles(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, e2e.Case{
		Script: e2e.Script{Turns: []e2e.Turn{
			{{Tool: "Read", Input: `{"file_path":"@PROJ@/.env"}`}},
			{{Tool: "Write", Input: `{"file_path":"@PROJ@/.env.local","content":"TOKEN=x\n"}`}},
			{{Tool: "Read", Input: `{"file_path":"@PROJ@/.env.example"}`}},
		}},
		Hooks: []e2e.Hook{{Event: "PreToolUse", Matcher: "Read|Write|Edit|NotebookEdit", Command: hook("protectfiles")}},
		Setup: func(r *e2e.Run) error {
			if err := os.WriteFile(filepath.Join(r.Project, ".env"), []byte("TOKEN=SECRET-VALUE-17\n"), 0o600); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(r.Project, ".env.example"), []byte("TOKEN=EXAMPLE-LINE\n"), 0o644)
		},
	})
	pre := captures(t, r, "protectfiles", "PreToolUse", 3)
	for i, want := range []string{
		"protectfiles blocked Read of " + filepath.Join(r.Project, ".env") + ": it looks like a secret (.env file)",
		"protectfiles blocked Write of " + filepath.Join(r.Project, ".env.local") + ": it looks like a secret (.env file)",
	} {
		reason := str(t, field(t, pre[i].Out, "hookSpecificOutput", "permissionDecisionReason"))
		assert.Contains(t, reason, want)
		res, ok := r.API.ToolResult(e2e.CallID(i + 1))
		require.True(t, ok)
		assert.True(t, res.IsError)
		assert.Equal(t, "PreToolUse:"+pre[i].Tool+" hook error: "+reason, res.ContentText())
	}
	assert.False(t, r.API.ModelSaw("SECRET-VALUE-17"), "the secret reached the model")
	_, written := r.File(".env.local")
	assert.False(t, written, ".env.local was written")
	assert.Empty(t, pre[2].Out)
	res, ok := r.API.ToolResult(e2e.CallID(3))
	require.True(t, ok)
	assert.False(t, res.IsError, res.ContentText())
	assert.Contains(t, res.ContentText(), "EXAMPLE-LINE")
}
