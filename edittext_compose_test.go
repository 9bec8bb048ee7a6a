package hook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/testutil"
)

// replacer is a PostToolUse handler that replaces from by to in every
// text of the result with EditText, answering in the field Codex reads
// under Codex.
func replacer(from, to string) hook.Handler {
	return hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		out, err := hook.EditText(e.ToolResponse, func(s string) (string, error) { return strings.ReplaceAll(s, from, to), nil })
		if e.Agent() == hook.AgentCodex {
			return &hook.PostToolUseOutput{UpdatedMCPToolOutput: out}, err
		}
		return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
	})
}

// TestEditTextComposes: in a Chain and in a Mux, handlers that EditText
// a result and one that Merges a member into it compose in either order:
// the answer holds every handler's change and every other byte of the
// result (escapes, unknown members, the other blocks), under Claude Code
// and under Codex; an EditText that changes nothing adds nothing.
func TestEditTextComposes(t *testing.T) {
	merge := hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		out, err := hook.Merge(e.ToolResponse, map[string]any{"isError": true})
		if e.Agent() == hook.AgentCodex {
			return &hook.PostToolUseOutput{UpdatedMCPToolOutput: out}, err
		}
		return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
	})
	result := `{"content":[{"type":"text","text":"a b \u00e9","_meta":{"k":1}},{"type":"image","data":"aGk=","mimeType":"image/png"}],"structuredContent":{"x":"a b","n":2.50}}`
	want := `{"content":[{"type":"text","text":"A B é","_meta":{"k":1}},{"type":"image","data":"aGk=","mimeType":"image/png"}],"structuredContent":{"x":"A B","n":2.50},"isError":true}`
	mux := func(hs ...hook.Handler) hook.Handler {
		m := hook.NewMux()
		for i, h := range hs {
			pattern := "PostToolUse"
			if i%2 == 0 {
				pattern = "PostToolUse mcp__.*"
			}
			m.Handle(pattern, h)
		}
		return m
	}
	for _, comp := range []struct {
		name string
		of   func(...hook.Handler) hook.Handler
	}{{"Chain", hook.Chain}, {"Mux", mux}} {
		for _, order := range []struct {
			name string
			hs   []hook.Handler
		}{
			{"edit, edit, merge", []hook.Handler{replacer("a", "A"), replacer("b", "B"), merge}},
			{"merge, edit, edit", []hook.Handler{merge, replacer("a", "A"), replacer("b", "B")}},
			{"edit, merge, edit, no-op edit", []hook.Handler{replacer("a", "A"), merge, replacer("b", "B"), replacer("zzz", "y")}},
		} {
			for _, p := range []struct {
				name, field string
				payload     jsontext.Value
			}{
				{"Claude Code", "updatedToolOutput", hooktest.NewPostToolUse("mcp__vault__get", `{"k":"v"}`, result)},
				{"Codex", "updatedMCPToolOutput", hooktest.NewCodexPostToolUse("mcp__vault__get", `{"k":"v"}`, result)},
			} {
				name := comp.name + ": " + order.name + ": " + p.name
				code, stdout, stderr := testutil.Serve(t, comp.of(order.hs...), p.payload)
				require.Equal(t, hook.ExitOK, code, "%s: %s", name, stderr)
				assert.Equal(t, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","`+p.field+`":`+want+"}}\n", stdout, name)
				if p.name == "Codex" {
					assert.NoError(t, agent.CheckCodexAnswer("PostToolUse", []byte(stdout)), name)
				}
			}
		}
	}
}
