package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	hk "github.com/gohooks/hook"
)

// tagCalls is how many Bash calls the composition runs make, one a turn.
const tagCalls = 6

// tagScript makes tagCalls Bash calls, each writing its own line to
// tags.txt before the rewriters' lines.
func tagScript(t *testing.T) Script {
	var s Script
	for i := 1; i <= tagCalls; i++ {
		s.Turns = append(s.Turns, Turn{bash(t, fmt.Sprintf("echo call%d >> tags.txt", i))})
	}
	return s
}

// tagsPerCall reads tags.txt: the tags that followed each call's line.
func tagsPerCall(t *testing.T, r *Run) [][]string {
	t.Helper()
	text, ok := r.File("tags.txt")
	require.True(t, ok, "no Bash call ran")
	var calls [][]string
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if strings.HasPrefix(line, "call") {
			calls = append(calls, []string{})
			continue
		}
		require.NotEmpty(t, calls, "a tag before any call: %q", text)
		calls[len(calls)-1] = append(calls[len(calls)-1], line)
	}
	require.Len(t, calls, tagCalls, "tags.txt: %q", text)
	return calls
}

// TestSeparateRewritesRace: three rewriting hooks registered separately on
// Bash. Claude Code runs them in parallel, each sees the original input,
// and it applies one rewrite: on every call two of the three rewrites are
// lost. Which one wins is the client's race; the test logs it.
func TestSeparateRewritesRace(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, Case{
		Script: tagScript(t),
		Hooks: []Hook{
			{Event: "PreToolUse", Matcher: "Bash", Command: hook("tagrewrite", "A"), Label: "A"},
			{Event: "PreToolUse", Matcher: "Bash", Command: hook("tagrewrite", "B"), Label: "B"},
			{Event: "PreToolUse", Matcher: "Bash", Command: hook("tagrewrite", "C"), Label: "C"},
		},
	})
	for _, label := range []string{"A", "B", "C"} {
		cs := captures(t, r, label, "PreToolUse", tagCalls)
		for _, c := range cs {
			assert.NotContains(t, string(c.In), "tags.txt; echo", "%s saw another hook's rewrite", label)
			assert.Contains(t, string(c.Out), "updatedInput", label)
		}
	}
	won := map[string]int{}
	for i, tags := range tagsPerCall(t, r) {
		assert.Len(t, tags, 1, "call %d: separate hooks do not compose; the client applies one rewrite", i+1)
		won[strings.Join(tags, "+")]++
	}
	t.Logf("separate hooks: the rewrite that reached the tool, over %d calls: %v", tagCalls, won)
}

// TestChainRewrites: the same three rewriters as one hook with hook.Chain:
// every rewrite reaches the tool, in order, on every call.
func TestChainRewrites(t *testing.T) {
	needE2E(t)
	t.Parallel()
	r := run(t, Case{
		Script: tagScript(t),
		Hooks:  []Hook{{Event: "PreToolUse", Matcher: "Bash", Command: hook("tagrewrite", "A", "B", "C")}},
	})
	captures(t, r, "tagrewrite", "PreToolUse", tagCalls)
	for i, tags := range tagsPerCall(t, r) {
		assert.Equal(t, []string{"A", "B", "C"}, tags, "call %d", i+1)
	}
}

// clientMatchers are registered in the real client, one recording hook
// each; the tools that fired each are compared with CompileMatcher.
var clientMatchers = []string{
	"*",
	"Bash",
	"Edit, Write",
	"Edit Write",
	"Edit.*",
	"^(Read|Glob)$",
	"ead",
	"Wr.te",
	"mcp__.*",
	"mcp__probe",
	"mcp__probe__listen_here",
	"Task",
	"^Task$",
	"^p:reviewer$",
	"Bash|Read(",
	"(?i)bash",
	"(?i:bash)",
	`\u0042ash`,
	"Bash$",
}

// TestMatchersOnClient: for a dozen and more matchers, the set of tool
// calls each fired on in the real client is the set CompileMatcher
// predicts. (Glob and Grep are left out: in these runs the client does
// not run their PreToolUse hooks.)
func TestMatchersOnClient(t *testing.T) {
	needE2E(t)
	t.Parallel()
	var hooks []Hook
	for i, m := range clientMatchers {
		hooks = append(hooks, Hook{Event: "PreToolUse", Matcher: m, Label: fmt.Sprintf("m%02d", i)})
	}
	// The Agent call is denied before it can start a subagent.
	hooks = append(hooks, Hook{Event: "PreToolUse", Matcher: "Agent", Command: hook("tagrewrite", "-deny"), Label: "deny-agent"})
	calls := []Call{
		bash(t, "echo hi"),
		{Tool: "Read", Input: `{"file_path":"@PROJ@/a.txt"}`},
		{Tool: "Write", Input: `{"file_path":"@PROJ@/b.txt","content":"b\n"}`},
		{Tool: "Edit", Input: `{"file_path":"@PROJ@/a.txt","old_string":"a","new_string":"A"}`},
		{Tool: ProbeTool, Input: `{"room":"r1","fingerprint":"f"}`},
		{Tool: "Agent", Input: `{"description":"review","prompt":"say hi","subagent_type":"general-purpose"}`},
	}
	var script Script
	for _, c := range calls {
		script.Turns = append(script.Turns, Turn{c})
	}
	r := run(t, Case{
		Script: script,
		Hooks:  hooks,
		Setup: func(r *Run) error {
			return os.WriteFile(filepath.Join(r.Project, "a.txt"), []byte("a\n"), 0o644)
		},
	})
	all, err := r.Captures()
	require.NoError(t, err)
	fired := map[string][]string{}
	for _, c := range all {
		if c.Event == "PreToolUse" {
			fired[c.Label] = append(fired[c.Label], c.Tool)
		}
	}
	require.Equal(t, []string{"Agent"}, fired["deny-agent"], "the Agent call reached PreToolUse")
	require.Equal(t, len(calls), len(fired["m00"]), "every call reached PreToolUse: %v", fired["m00"])
	for i, src := range clientMatchers {
		m, _ := hk.CompileMatcher(hk.EventPreToolUse, src)
		var want []string
		for _, c := range calls {
			if m.Match(c.Tool) {
				want = append(want, c.Tool)
			}
		}
		got := fired[fmt.Sprintf("m%02d", i)]
		slices.Sort(got)
		slices.Sort(want)
		assert.Equal(t, want, got, "matcher %q: the tools it fired on in the client vs CompileMatcher", src)
	}
}

// subagentMatchers are registered for SubagentStart; the run starts one
// subagent of the project's agent type "reviewer".
var subagentMatchers = []string{
	"*",
	"reviewer",
	"reviewer, other",
	"^reviewer$",
	"rev.*",
	"view",
	"review",
	"p:reviewer",
	"^p:reviewer$",
	"general-purpose",
	"(?i:REVIEWER)",
	"reviewer|(",
}

// TestSubagentMatchersOnClient: SubagentStart matchers are tested against
// the agent type; the ones that fired in the real client are the ones
// CompileMatcher predicts for the event the client sent.
func TestSubagentMatchersOnClient(t *testing.T) {
	needE2E(t)
	t.Parallel()
	var hooks []Hook
	for i, m := range subagentMatchers {
		hooks = append(hooks, Hook{Event: "SubagentStart", Matcher: m, Label: fmt.Sprintf("s%02d", i)})
	}
	r := run(t, Case{
		Script: Script{Turns: []Turn{{{Tool: "Agent", Input: `{"description":"review","prompt":"Say ok.","subagent_type":"reviewer"}`}}}},
		Hooks:  hooks,
		Allow:  append(slices.Clone(DefaultAllow), "Agent"),
		Setup: func(r *Run) error {
			dir := filepath.Join(r.Project, ".claude", "agents")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "reviewer.md"), []byte("---\nname: reviewer\ndescription: Reviews code when asked.\n---\nYou review code. Answer ok.\n"), 0o644)
		},
	})
	all, err := r.Captures()
	require.NoError(t, err)
	var starts []Capture
	fired := map[string]bool{}
	for _, c := range all {
		if c.Event == "SubagentStart" {
			starts = append(starts, c)
			fired[c.Label] = true
		}
	}
	require.NotEmpty(t, starts, "no SubagentStart hook ran")
	ev := starts[0]
	assert.Equal(t, `"reviewer"`, string(field(t, ev.In, "agent_type")))
	predicted := map[string]bool{}
	code := hk.Serve(context.Background(), bytes.NewReader(ev.In), io.Discard, io.Discard,
		hk.HandlerFunc(func(_ context.Context, e *hk.Event) (hk.Output, error) {
			for i, src := range subagentMatchers {
				m, _ := hk.CompileMatcher(hk.EventSubagentStart, src)
				predicted[fmt.Sprintf("s%02d", i)] = m.MatchEvent(e)
			}
			return nil, nil
		}))
	require.Equal(t, hk.ExitOK, code)
	for i, src := range subagentMatchers {
		label := fmt.Sprintf("s%02d", i)
		assert.Equal(t, predicted[label], fired[label], "matcher %q: fired in the client vs CompileMatcher", src)
	}
}
