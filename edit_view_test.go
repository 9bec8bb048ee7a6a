package hook_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
)

// TestEditWithAnotherToolsView: a typed edit with the view of a built-in
// tool's input on another built-in tool's call is refused with an error
// that names both (through hook.Edit, hook.Update and the events' Update
// methods), instead of adding the view's fields (new_string) to the
// input. The right view, an MCP tool's or an unknown tool's call, and a
// value that is not the event's input (the tool is not known) take any
// view.
func TestEditWithAnotherToolsView(t *testing.T) {
	bash := `{"command":"ls","description":"list"}`
	call := func(tool, input string) string {
		return badEvent("PreToolUse", `,"tool_name":"`+tool+`","tool_input":`+input+`,"tool_use_id":"toolu_1"`)
	}
	editView := func(in *hook.EditInput) error { in.NewString = "x"; return nil }
	serve := func(t *testing.T, stdin string, f func(e *hook.PreToolUse) (jsontext.Value, error)) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := hook.Serve(context.Background(), strings.NewReader(stdin), &stdout, &stderr,
			hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
				upd, err := f(e)
				if err != nil {
					return nil, err
				}
				return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
			}))
		return code, stdout.String(), stderr.String()
	}
	refused := []struct {
		name string
		f    func(e *hook.PreToolUse) (jsontext.Value, error)
	}{
		{"Edit", func(e *hook.PreToolUse) (jsontext.Value, error) { return hook.Edit(e.ToolInput, editView) }},
		{"Update", func(e *hook.PreToolUse) (jsontext.Value, error) {
			return hook.Update(e.ToolInput, &hook.EditInput{NewString: "x"})
		}},
		{"PreToolUse.Update", func(e *hook.PreToolUse) (jsontext.Value, error) {
			return e.Update(&hook.WriteInput{Content: "x"})
		}},
	}
	for _, c := range refused {
		t.Run(c.name+" refused on Bash", func(t *testing.T) {
			code, stdout, stderr := serve(t, call("Bash", bash), c.f)
			assert.Equal(t, hook.ExitError, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "input, and this is a Bash call")
		})
		// The served input's tool is known from the name's value, also
		// when the name is written with escapes.
		t.Run(c.name+" refused on an escaped Bash", func(t *testing.T) {
			code, stdout, stderr := serve(t, call(`B\u0061sh`, bash), c.f)
			assert.Equal(t, hook.ExitError, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "input, and this is a Bash call")
		})
	}
	allowed := []struct {
		name, stdin string
		f           func(e *hook.PreToolUse) (jsontext.Value, error)
		want        string
	}{
		{"Bash view on Bash", call("Bash", bash), func(e *hook.PreToolUse) (jsontext.Value, error) {
			return hook.Edit(e.ToolInput, func(in *hook.BashInput) error { in.Command = "ls -a"; return nil })
		}, `{"command":"ls -a","description":"list"}`},
		{"Bash view on PowerShell", call("PowerShell", bash), func(e *hook.PreToolUse) (jsontext.Value, error) {
			return hook.Edit(e.ToolInput, func(in *hook.BashInput) error { in.Command = "dir"; return nil })
		}, `{"command":"dir","description":"list"}`},
		{"Edit view on an MCP tool", call("mcp__files__edit", `{"path":"a"}`), func(e *hook.PreToolUse) (jsontext.Value, error) {
			return hook.Edit(e.ToolInput, editView)
		}, `"new_string":"x"`},
		{"Edit view on an unknown tool", call("Frobnicate", `{"path":"a"}`), func(e *hook.PreToolUse) (jsontext.Value, error) {
			return hook.Edit(e.ToolInput, editView)
		}, `"new_string":"x"`},
		{"Edit view on a copy of the input", call("Bash", bash), func(e *hook.PreToolUse) (jsontext.Value, error) {
			upd, err := hook.Edit(append(jsontext.Value(nil), e.ToolInput...), editView)
			if err != nil {
				return nil, err
			}
			return hook.Remove(upd, "new_string") // the test only shows the edit ran
		}, ``},
	}
	for _, c := range allowed {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := serve(t, c.stdin, c.f)
			require.Equal(t, hook.ExitOK, code, stderr)
			assert.Contains(t, stdout, c.want)
		})
	}
	// The view check needs no Serve when the event says its tool.
	_, err := (&hook.PermissionRequest{ToolName: "Bash", ToolInput: jsontext.Value(bash)}).Update(&hook.ReadInput{FilePath: "/a"})
	assert.ErrorContains(t, err, "ReadInput is a view of the Read tool's input, and this is a Bash call")
}
