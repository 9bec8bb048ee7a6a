package hook_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gohooks/hook"
)

// CompileMatcher reads a matcher as Claude Code does: exact lists,
// unanchored JavaScript regular expressions, legacy tool names.
func ExampleCompileMatcher() {
	for _, c := range []struct{ matcher, tool string }{
		{"Edit|Write", "Edit"},
		{"Edit.*", "NotebookEdit"}, // unanchored
		{"^Edit$", "NotebookEdit"},
		{"mcp__memory", "mcp__memory__store"}, // an exact name
		{"mcp__memory__.*", "mcp__memory__store"},
		{"Task", "Agent"}, // the legacy name of Agent
	} {
		m, err := hook.CompileMatcher(hook.EventPreToolUse, c.matcher)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-16s %-19s %v\n", c.matcher, c.tool, m.Match(c.tool))
	}
	_, err := hook.CompileMatcher(hook.EventPreToolUse, "Bash|Read(")
	fmt.Println(errors.Is(err, hook.ErrInvalidMatcher))
	// Output:
	// Edit|Write       Edit                true
	// Edit.*           NotebookEdit        true
	// ^Edit$           NotebookEdit        false
	// mcp__memory      mcp__memory__store  false
	// mcp__memory__.*  mcp__memory__store  true
	// Task             Agent               true
	// true
}

// A Mux routes by event and matcher; every matching registration runs, in
// order, and the answers are combined.
func ExampleMux_patterns() {
	note := func(text string) hook.Handler {
		return hook.PreToolUseFunc(func(context.Context, *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{AdditionalContext: text}, nil
		})
	}
	m := hook.NewMux()
	m.Handle("PreToolUse Bash", note("shell"))
	m.Handle("PreToolUse mcp__.*", note("mcp"))
	m.Handle("PreToolUse *", note("any tool"))

	in := `{"session_id":"s","transcript_path":"t","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}`
	var stdout, stderr strings.Builder
	hook.Serve(context.Background(), strings.NewReader(in), &stdout, &stderr, m)
	fmt.Print(stdout.String())
	// Output: {"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"shell\nany tool"}}
}
