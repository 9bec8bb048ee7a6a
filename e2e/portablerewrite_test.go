package e2e_test

// examples/portablerewrite, the one documented way to rewrite a call and
// leave the permission decision to the user, under the three real
// clients: Claude Code and the GitHub Copilot CLI apply its rewrite
// without a decision and then run their own permission flow; under Codex
// its answer is what -codex chose. docs/agents.md ("Portable rewrites")
// records the runs.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/clientrun"
)

// sedCall is the model's in-place edit of name, which the example
// rewrites to keep name.bak.
func sedCall(name string) string { return "sed -i s/colour/color/ " + name }

// TestPortableRewriteClaudeCode: the rewrite reaches Claude Code without
// a decision, and Claude Code's permission rules are checked against the
// rewritten command: one allowed only in its rewritten form runs (and
// keeps its backup); another, which no rule allows, is refused in -p, as
// the user would have been asked, with the rewritten input.
func TestPortableRewriteClaudeCode(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	bin := hooktest.BuildGo(t, "../examples/portablerewrite")
	r := claudetest.Run(t, claudetest.Session{
		Files: map[string]string{"a.txt": "colour\n", "b.txt": "colour\n"},
		Turns: []claudetest.Turn{
			{claudetest.Tool("Bash", `{"command":"`+sedCall("a.txt")+`","description":"Fix \"a\" — Köln\t"}`)},
			{claudetest.Tool("Bash", `{"command":"`+sedCall("b.txt")+`","description":"Fix b"}`)},
		},
		// Only a's call, and only as rewritten.
		Allow: []string{"Bash(sed -i.bak s/colour/color/ a.txt)"},
		Hooks: []claudetest.Hook{
			{Event: "PreToolUse", Matcher: "Bash", Command: []string{bin}},
			{Event: "PostToolUse", Matcher: "*"},
		},
	})
	pre := hookRuns(t, r, "portablerewrite", "PreToolUse", 2)
	for i, p := range pre {
		_, decided := p.Output("hookSpecificOutput", "permissionDecision")
		assert.False(t, decided, "call %d: a decision in %s", i+1, p.Out)
		upd := output(t, p, "hookSpecificOutput", "updatedInput")
		assert.NoError(t, hooktest.CheckPreserved(input(t, p, "tool_input"), upd, "command"))
	}
	a, _ := r.File("a.txt")
	assert.Equal(t, "color\n", a, "the allowed rewritten call did not run")
	bak, ok := r.File("a.txt.bak")
	assert.True(t, ok, "the call ran without its backup")
	assert.Equal(t, "colour\n", bak)
	post, ok := r.Call(1).Hook("record", "PostToolUse")
	require.True(t, ok)
	assert.Equal(t, "sed -i.bak s/colour/color/ a.txt", str(t, field(t, input(t, post, "tool_input"), "command")))

	b, _ := r.File("b.txt")
	assert.Equal(t, "colour\n", b, "a call no rule allows ran: the rewrite approved it")
	_, ok = r.File("b.txt.bak")
	assert.False(t, ok)
	require.Len(t, r.Denials, 1, "the permission flow refused b's call")
	assert.Equal(t, "sed -i.bak s/colour/color/ b.txt", str(t, field(t, r.Denials[0].Input, "command")), "refused as rewritten")
}

// TestPortableRewriteCopilot: the GitHub Copilot CLI applies the rewrite
// without a decision: the rewritten command runs, its backup kept, and
// the original does not.
func TestPortableRewriteCopilot(t *testing.T) {
	bin := needCopilot(t)
	t.Parallel()
	hook := hooktest.BuildGo(t, "../examples/portablerewrite")
	r := runCopilot(t, bin, clientrun.Script{Turns: [][]clientrun.Call{{copilotShell(t, sedCall("a.txt"))}}},
		copilotHooks(t, "PreToolUse", hook), func(_, project string) {
			require.NoError(t, os.WriteFile(filepath.Join(project, "a.txt"), []byte("colour\n"), 0o644))
		})
	a, err := os.ReadFile(filepath.Join(r.Project, "a.txt"))
	require.NoError(t, err)
	assert.Equal(t, "color\n", string(a))
	bak, err := os.ReadFile(filepath.Join(r.Project, "a.txt.bak"))
	told, _ := r.API.ToolResult(clientrun.ChatCallID(1))
	require.NoError(t, err, "the rewrite was not applied; told the model: %s", told)
	assert.Equal(t, "colour\n", string(bak))
}

// TestPortableRewriteCodex: under Codex the same hook's answer is what
// -codex chose, and Codex does it: deny (the default) blocks the call
// with the reason, nothing edited; skip lets the original call run, no
// backup; allow runs the rewritten call.
func TestPortableRewriteCodex(t *testing.T) {
	bin := needCodex(t)
	hook := hooktest.BuildGo(t, "../examples/portablerewrite")
	for _, c := range []struct {
		args           []string
		status         string
		edited, backup bool
	}{
		{nil, "Blocked", false, false},
		{[]string{"-codex=skip"}, "Completed", true, false},
		{[]string{"-codex=allow"}, "Completed", true, true},
	} {
		name := "deny"
		if c.args != nil {
			name = c.args[0]
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runCodex(t, bin, codexSession{
				Turns: []any{execCommand(sedCall("a.txt")), map[string]any{"say": "ok"}},
				Hooks: codexHooks(t, append([]string{hook}, c.args...)...),
				Setup: func(_, project string) {
					require.NoError(t, os.WriteFile(filepath.Join(project, "a.txt"), []byte("colour\n"), 0o644))
				},
			})
			assert.Equal(t, []string{c.status}, r.hookStatuses("PreToolUse"), "stderr:\n%s", r.Stderr)
			a, err := os.ReadFile(filepath.Join(r.Project, "a.txt"))
			require.NoError(t, err)
			_, bakErr := os.Stat(filepath.Join(r.Project, "a.txt.bak"))
			assert.Equal(t, c.edited, string(a) == "color\n", "a.txt: %q", a)
			assert.Equal(t, c.backup, bakErr == nil, "a.txt.bak")
			if c.status == "Blocked" {
				assert.Contains(t, r.toolOutput(t, "call_1"), "portablerewrite: run sed -i with a backup suffix, as in: sed -i.bak s/colour/color/ a.txt")
			}
		})
	}
}

// TestPortableRewriteCopilotAsks: the rewrite leaves the decision to
// Copilot's permission flow: with no rule allowing sed, Copilot asks for
// the rewritten call, which -p cannot answer, so it is refused and
// nothing is edited. The control: the same rewrite with an allow
// (shellhook's allow mode: Merge with an Allow) skips the prompt and runs.
func TestPortableRewriteCopilotAsks(t *testing.T) {
	bin := needCopilot(t)
	example := hooktest.BuildGo(t, "../examples/portablerewrite")
	control := hooktest.BuildGo(t, "./testdata/shellhook")
	for name, c := range map[string]struct {
		hook []string
		ran  bool
	}{
		"no decision": {[]string{example}, false},
		"allow":       {[]string{control, filepath.Join(t.TempDir(), "payloads.log"), "allow", "sed -i.bak s/colour/color/ a.txt"}, true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// Only echo is allowed without asking.
			r := runCopilotWith(t, bin, []string{"--allow-tool", "shell(echo)"},
				clientrun.Script{Turns: [][]clientrun.Call{{copilotShell(t, sedCall("a.txt"))}}},
				copilotHooks(t, "PreToolUse", c.hook...), func(_, project string) {
					require.NoError(t, os.WriteFile(filepath.Join(project, "a.txt"), []byte("colour\n"), 0o644))
				})
			a, err := os.ReadFile(filepath.Join(r.Project, "a.txt"))
			require.NoError(t, err)
			_, bakErr := os.Stat(filepath.Join(r.Project, "a.txt.bak"))
			told, _ := r.API.ToolResult(clientrun.ChatCallID(1))
			if c.ran {
				assert.Equal(t, "color\n", string(a), "told the model: %s", told)
				assert.NoError(t, bakErr, "the rewritten call ran")
				return
			}
			assert.Equal(t, "colour\n", string(a), "the call ran without the user's approval")
			assert.Error(t, bakErr)
			assert.Contains(t, told, "Permission denied because no interactive user response was available")
		})
	}
}
