package hook_test

import (
	"context"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// copilotResult is the tool_result of the GitHub Copilot CLI, the same
// shape for every tool.
const copilotResult = `{"result_type":"success","text_result_for_llm":"KEY=sk-live-abcdef12\n"}`

// TestResultViewsRefuseCopilotResults: a typed view of a built-in tool's
// result given Copilot's tool_result, which has none of its fields, is
// refused by DecodeView, Edit and Update (a redaction through the view
// would find nothing and let the text through; a guard would read zero
// values), with the way to read it; Claude Code's results and a struct
// of the author's own still decode.
func TestResultViewsRefuseCopilotResults(t *testing.T) {
	type check struct {
		name string
		run  func(jsontext.Value) error
	}
	view := func(name string, decode func(jsontext.Value) error, edit func(jsontext.Value) error, update func(jsontext.Value) error) []check {
		return []check{{name + " DecodeView", decode}, {name + " Edit", edit}, {name + " Update", update}}
	}
	var checks []check
	add := func(cs []check) { checks = append(checks, cs...) }
	add(view("BashResponse",
		func(v jsontext.Value) error { _, err := hook.DecodeView[hook.BashResponse](v); return err },
		func(v jsontext.Value) error {
			_, err := hook.Edit(v, func(*hook.BashResponse) error { return nil })
			return err
		},
		func(v jsontext.Value) error { _, err := hook.Update(v, &hook.BashResponse{}); return err }))
	add(view("ReadResponse",
		func(v jsontext.Value) error { _, err := hook.DecodeView[hook.ReadResponse](v); return err },
		func(v jsontext.Value) error {
			_, err := hook.Edit(v, func(*hook.ReadResponse) error { return nil })
			return err
		},
		func(v jsontext.Value) error { _, err := hook.Update(v, &hook.ReadResponse{}); return err }))
	add(view("WriteResponse",
		func(v jsontext.Value) error { _, err := hook.DecodeView[hook.WriteResponse](v); return err },
		func(v jsontext.Value) error {
			_, err := hook.Edit(v, func(*hook.WriteResponse) error { return nil })
			return err
		},
		func(v jsontext.Value) error { _, err := hook.Update(v, &hook.WriteResponse{}); return err }))
	add(view("GrepResponse",
		func(v jsontext.Value) error { _, err := hook.DecodeView[hook.GrepResponse](v); return err },
		func(v jsontext.Value) error {
			_, err := hook.Edit(v, func(*hook.GrepResponse) error { return nil })
			return err
		},
		func(v jsontext.Value) error { _, err := hook.Update(v, &hook.GrepResponse{}); return err }))
	add(view("WebFetchResponse",
		func(v jsontext.Value) error { _, err := hook.DecodeView[hook.WebFetchResponse](v); return err },
		func(v jsontext.Value) error {
			_, err := hook.Edit(v, func(*hook.WebFetchResponse) error { return nil })
			return err
		},
		func(v jsontext.Value) error { _, err := hook.Update(v, &hook.WebFetchResponse{}); return err }))
	for _, c := range checks {
		err := c.run(jsontext.Value(copilotResult))
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), "text_result_for_llm", c.name)
		assert.Contains(t, err.Error(), "hook.EditText", c.name)
	}
	// A struct of the author's own reads Copilot's result.
	own, err := hook.DecodeView[struct {
		Text string `json:"text_result_for_llm"`
	}](jsontext.Value(copilotResult))
	require.NoError(t, err)
	assert.Equal(t, "KEY=sk-live-abcdef12\n", own.Text)
	// Claude Code's results decode as before.
	_, err = hook.DecodeView[hook.BashResponse](jsontext.Value(`{"stdout":"a","stderr":"","interrupted":false,"isImage":false}`))
	assert.NoError(t, err)

	// Served: a handler that reads the view fails out loud under Copilot.
	h := hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		out, err := hook.Edit(e.ToolResponse, func(r *hook.BashResponse) error { r.Stdout = "x"; return nil })
		return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
	})
	payload := `{"hook_event_name":"PostToolUse","session_id":"s","timestamp":"2026-12-04T17:00:06.914Z","cwd":"/p","tool_name":"Bash","tool_input":{"command":"env"},"tool_result":` + copilotResult + `}`
	code, stdout, stderr := testutil.Serve(t, h, []byte(payload))
	assert.Equal(t, hook.ExitError, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "text_result_for_llm")
}
