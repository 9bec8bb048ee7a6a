package main

import (
	"os"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
)

func TestBackup(t *testing.T) {
	rewritten := map[string]string{
		"sed -i 's/a/b/' f.txt":                  "sed -i.bak 's/a/b/' f.txt",
		"sed -i s/a/b/g f.txt":                   "sed -i.bak s/a/b/g f.txt",
		"sed -E -i 's/(a)/\\1x/' f.txt":          "sed -E -i.bak 's/(a)/\\1x/' f.txt",
		"sed --in-place -e 's/a/b/' f.txt":       "sed --in-place=.bak -e 's/a/b/' f.txt",
		"  sed\t-i 's/a;b/c|d/' \"my file.txt\"": "  sed\t-i.bak 's/a;b/c|d/' \"my file.txt\"",
		"sed -e 's/i/j/' -i f.txt":               "sed -e 's/i/j/' -i.bak f.txt",
	}
	for in, want := range rewritten {
		got, ok := Backup(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
		again, ok := Backup(got)
		assert.False(t, ok, "a backup suffix twice: %q", got)
		assert.Equal(t, got, again)
	}
	for _, in := range []string{
		"sed 's/a/b/' f.txt",              // not in place
		"sed -i.orig 's/a/b/' f.txt",      // a suffix already
		"sed -ni 's/a/b/p' f.txt",         // -i among other flags
		"sed --in-place=.x 's/a/b/' f",    // a suffix already
		"sed -i 's/a/b/' f.txt && ls",     // a list
		"sed -i 's/a/b/' f.txt > g",       // a redirection
		"cat f | sed -i 's/a/b/'",         // a pipeline
		"sed -i \"s/$HOME/x/\" f",         // a substitution
		"sed -i 's/a/b/ f.txt",            // an unclosed quote
		"sed -i s/a/b/ *.txt",             // a glob
		"sed -- -i f.txt",                 // -i is an operand
		"gsed -i 's/a/b/' f.txt",          // another program
		"echo sed -i",                     // not sed's flag
		"sed -i 's/a/b/' f.txt # comment", // a comment
		"", "sed", "   ",
	} {
		got, ok := Backup(in)
		assert.False(t, ok, in)
		assert.Equal(t, in, got, in)
	}
}

// claudeCall and codexCall are a sed call as Claude Code and Codex send
// it; copilotCall as the GitHub Copilot CLI does, with its command and
// description.
func claudeCall(cmd string) []byte {
	return hooktest.NewPreToolUse(hook.ToolBash, map[string]any{"command": cmd, "description": "Fix \"it\" — Köln\t", "timeout": 120000})
}
func codexCall(cmd string) []byte {
	return hooktest.NewCodexPreToolUse(hook.ToolBash, map[string]any{"command": cmd})
}

const copilotCall = `{"hook_event_name":"PreToolUse","session_id":"196062a2-fb03-4186-aea1-dffeceacfe17","timestamp":"2026-12-04T17:00:06.800Z","cwd":"/home/dev/proj","tool_name":"Bash","tool_input":{"command":"sed -i 's/a/b/' f.txt","description":"edit \"f\"\tin place"}}`

// TestLeavesTheDecisionToTheUser: under Claude Code and Copilot the
// answer is the rewrite alone, every other member kept; under Codex it is
// what -codex chose, each an answer Codex accepts, and the zero value is
// never what the hook writes.
func TestLeavesTheDecisionToTheUser(t *testing.T) {
	for _, choice := range []hook.CodexRewrite{hook.CodexRewriteDeny, hook.CodexRewriteSkip, hook.CodexRewriteAllow} {
		h := Handler(choice)
		for name, p := range map[string][]byte{"Claude Code": claudeCall("sed -i 's/a/b/' f.txt"), "Copilot": []byte(copilotCall)} {
			rec := hooktest.Record(h, p)
			require.NoError(t, rec.Err(), name)
			require.NotNil(t, rec.UpdatedInput, name)
			cmd, _ := hooktest.Field(rec.UpdatedInput, "command")
			assert.Equal(t, `"sed -i.bak 's/a/b/' f.txt"`, string(cmd), name)
			in, _ := hooktest.Field(jsontext.Value(p), "tool_input")
			assert.NoError(t, hooktest.CheckPreserved(in, rec.UpdatedInput, "command"), name)
			assert.Empty(t, rec.PermissionDecision, "%s: no permission decision", name)
			assert.NotContains(t, string(rec.Stdout), "permissionDecision", name)
			assert.NoError(t, hooktest.CheckAnswer(jsontext.Value(p), rec.Code, rec.Stdout, rec.Stderr), name)
		}
		rec := hooktest.Record(h, codexCall("sed -i 's/a/b/' f.txt"))
		require.NoError(t, rec.Err())
		require.Equal(t, hook.ExitOK, rec.Code, string(rec.Stderr))
		switch choice {
		case hook.CodexRewriteDeny:
			assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"portablerewrite: run sed -i with a backup suffix, as in: sed -i.bak 's/a/b/' f.txt"}}`+"\n", string(rec.Stdout))
		case hook.CodexRewriteSkip:
			assert.Empty(t, rec.Stdout)
		case hook.CodexRewriteAllow:
			assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"portablerewrite: sed keeps a .bak backup","updatedInput":{"command":"sed -i.bak 's/a/b/' f.txt"}}}`+"\n", string(rec.Stdout))
		}
		if len(rec.Stdout) > 0 {
			assert.NoError(t, agent.CheckCodexAnswer("PreToolUse", rec.Stdout))
		}
	}
}

// TestNothingToRewrite: a command that needs no backup gets no answer
// under any agent: no deny under Codex either.
func TestNothingToRewrite(t *testing.T) {
	for _, p := range [][]byte{claudeCall("sed -i.bak 's/a/b/' f.txt"), codexCall("ls -la"), codexCall("sed -i.bak s/a/b/ f")} {
		rec := hooktest.Record(Handler(hook.CodexRewriteDeny), p)
		require.NoError(t, rec.Err())
		assert.Equal(t, hook.ExitOK, rec.Code)
		assert.Empty(t, rec.Stdout, "%s", p)
	}
}

func TestCodexFlag(t *testing.T) {
	for s, want := range map[string]hook.CodexRewrite{"deny": hook.CodexRewriteDeny, "skip": hook.CodexRewriteSkip, "allow": hook.CodexRewriteAllow} {
		got, err := codexChoice(s)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := codexChoice("")
	assert.Error(t, err)
	_, err = codexChoice("yes")
	assert.Error(t, err)
}

func TestPropertyKeepsMembers(t *testing.T) {
	for _, choice := range []hook.CodexRewrite{hook.CodexRewriteDeny, hook.CodexRewriteSkip, hook.CodexRewriteAllow} {
		hooktest.CheckHandler(t, Handler(choice), &hooktest.Options{Changes: []string{"command"}})
		hooktest.CheckHandler(t, Handler(choice), &hooktest.Options{Changes: []string{"command"}, Fixtures: hooktest.CodexFixtures()})
	}
}

func TestExampleFile(t *testing.T) {
	b, err := os.ReadFile("testdata/sed.json")
	require.NoError(t, err)
	rec := hooktest.Record(Handler(hook.CodexRewriteDeny), b)
	require.NoError(t, rec.Err())
	cmd, ok := hooktest.Field(rec.UpdatedInput, "command")
	require.True(t, ok)
	assert.Equal(t, `"sed -i.bak 's/colour/color/g' README.md"`, string(cmd))
	assert.Empty(t, rec.PermissionDecision)
}
