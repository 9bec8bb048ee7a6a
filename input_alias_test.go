package hook_test

import (
	"context"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// TestRawMembersCannotChangeTheChecks: raw members handed to a handler
// share the input's bytes; appending to them, or writing into them,
// cannot change what the partial-answer check compares against, nor
// corrupt Raw.
func TestRawMembersCannotChangeTheChecks(t *testing.T) {
	const toolInput = `{"room":"kitchen \"A\"","fp":"old","n":1}`
	overwrite := func(in jsontext.Value) jsontext.Value {
		// Reuses the input's backing array: {"fp":"x"} lands on top of
		// the original tool_input.
		return append(in[:1], `"fp":"x"}`...)
	}
	inPlace := func(in jsontext.Value) jsontext.Value {
		copy(in, `{"fp":"x"}`+string(in[10:])) // keep it valid: overwrite the start
		return jsontext.Value(`{"fp":"x"}`)
	}
	for name, build := range map[string]func(jsontext.Value) jsontext.Value{"append on a prefix": overwrite, "write in place": inPlace} {
		pre := hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: build(e.ToolInput)}, nil
		})
		perm := hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
			return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: build(e.ToolInput)}, nil
		})
		for event, h := range map[string]hook.Handler{hook.EventPreToolUse: pre, hook.EventPermissionRequest: perm} {
			in := badEvent(event, `,"tool_name":"mcp__aisle__listen_here","tool_input":`+toolInput)
			code, stdout, stderr := testutil.Serve(t, h, []byte(in))
			assert.Equal(t, hook.ExitError, code, "%s, %s: %s", name, event, stdout)
			assert.Empty(t, stdout, "%s, %s", name, event)
			assert.Contains(t, stderr, "partial", "%s, %s", name, event)
			assert.Contains(t, stderr, "/room", "%s, %s", name, event)
		}
	}

	// Appending to a raw member copies it: Raw stays the input.
	var raw, field string
	h := hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		_ = append(e.ToolInput, "\n,garbage"...)
		_ = append(e.ToolResponse, "\n,garbage"...)
		f, _ := e.Field("tool_use_id")
		_ = append(f, "garbage"...)
		_ = append(e.Raw(), "garbage"...)
		raw, field = string(e.Raw()), string(f)
		return nil, nil
	})
	in := badEvent(hook.EventPostToolUse, `,"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"x"},"tool_use_id":"toolu_1"`)
	code, _, stderr := testutil.Serve(t, h, []byte(in))
	assert.Equal(t, hook.ExitOK, code, stderr)
	assert.Equal(t, in, raw)
	assert.Equal(t, `"toolu_1"`, field)
}
