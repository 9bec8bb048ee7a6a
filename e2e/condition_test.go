package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	hk "github.com/gohooks/hook"
	"github.com/gohooks/hook/claudetest"
)

// clientConditions are "if" fields of PreToolUse hooks registered in the
// real client, each on its own recording hook with matcher "*".
var clientConditions = []string{
	"Bash",
	"Bash(git *)",
	"Bash(echo *)",
	"Bash(ls)",
	"Bash(ls *)",
	"Bash(npm run test:*)",
	"Edit(*.txt)",
	"Write(*.md)",
	"Write(*.txt)",
	"Read",
	"Task",
	"WebFetch(domain:example.com)",
}

// TestConditionsOnClient: the calls each "if" let its hook run on in the
// real client are the calls CompileCondition predicts, judged on the
// events the client sent.
func TestConditionsOnClient(t *testing.T) {
	claudetest.Need(t)
	t.Parallel()
	s := claudetest.Session{
		Files: map[string]string{"a.txt": "a\n"},
		Allow: []string{"Bash", "Read", "Write", "Edit"},
		Turns: []claudetest.Turn{
			{claudetest.Tool("Bash", `{"command":"echo hi && git status","description":"e2e"}`)},
			{claudetest.Tool("Bash", `{"command":"ls -l","description":"e2e"}`)},
			{claudetest.Tool("Bash", `{"command":"ls","description":"e2e"}`)},
			{claudetest.Tool("Read", `{"file_path":"`+claudetest.ProjectDir+`/a.txt"}`)},
			{claudetest.Tool("Write", `{"file_path":"`+claudetest.ProjectDir+`/b.txt","content":"b\n"}`)},
			{claudetest.Tool("Edit", `{"file_path":"`+claudetest.ProjectDir+`/a.txt","old_string":"a","new_string":"A"}`)},
			{claudetest.Tool("Agent", `{"description":"review","prompt":"say hi","subagent_type":"general-purpose"}`)},
		},
	}
	s.Hooks = append(s.Hooks, claudetest.Hook{Event: "PreToolUse", Matcher: "*", Name: "all"})
	for i, c := range clientConditions {
		s.Hooks = append(s.Hooks, claudetest.Hook{Event: "PreToolUse", Matcher: "*", Name: fmt.Sprintf("if%02d", i), Options: map[string]any{"if": c}})
	}
	// The Agent call is denied before it can start a subagent.
	s.Hooks = append(s.Hooks, claudetest.Hook{Event: "PreToolUse", Matcher: "Agent", Command: hook("tagrewrite", "-deny"), Name: "deny-agent"})
	r := claudetest.Run(t, s)

	calls := r.HooksOf("all", "PreToolUse")
	require.Len(t, calls, len(s.Turns), "every call reached PreToolUse")
	ran, skipped := 0, 0
	for i, src := range clientConditions {
		cond, _ := hk.CompileCondition(hk.EventPreToolUse, src)
		var want, got []string
		for _, c := range calls {
			if predict(t, cond, c.In) {
				want = append(want, c.ToolUseID)
			}
		}
		for _, c := range r.HooksOf(fmt.Sprintf("if%02d", i), "PreToolUse") {
			got = append(got, c.ToolUseID)
		}
		slices.Sort(want)
		slices.Sort(got)
		assert.Equal(t, want, got, "if %q: the calls it ran on in the client vs CompileCondition", src)
		ran += len(got)
		skipped += len(calls) - len(got)
	}
	t.Logf("hooks with an if ran %d times and were skipped %d times", ran, skipped)
	assert.Greater(t, ran, 8, "the conditions let hooks run")
	assert.Greater(t, skipped, 40, "the conditions kept hooks from running")
}

// predict reports whether cond matches the event payload in.
func predict(t *testing.T, cond hk.Condition, in []byte) bool {
	t.Helper()
	var hit bool
	code := hk.Serve(context.Background(), bytes.NewReader(in), io.Discard, io.Discard,
		hk.HandlerFunc(func(_ context.Context, e *hk.Event) (hk.Output, error) {
			hit = cond.MatchEvent(e)
			return nil, nil
		}))
	require.Equal(t, hk.ExitOK, code)
	return hit
}
