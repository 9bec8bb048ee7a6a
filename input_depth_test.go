package hook_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/testutil"
)

// nested returns a JSON value nested d levels deep.
func nested(d int) string {
	return strings.Repeat(`{"k":[`, d/2) + strings.Repeat(`{"k":1}`, d%2) + strings.Repeat(`]}`, d/2)
}

// TestDeepInputIsAnswerable: input the read accepts can be answered with
// every answer that carries its values, however deep; deeper input is
// refused at the read with a message that says why.
func TestDeepInputIsAnswerable(t *testing.T) {
	echoPerm := hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		upd, err := e.Merge(map[string]bool{"checked": true})
		if err != nil {
			return nil, err
		}
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	})
	// The event is 1 level; tool_input {"deep": X} 1 more.
	deepest := hook.MaxInputDepth - 2
	for _, tc := range []struct {
		event string
		h     hook.Handler
	}{{hook.EventPreToolUse, badEcho}, {hook.EventPermissionRequest, echoPerm}} {
		in := badEvent(tc.event, `,"tool_name":"mcp__x__y","tool_input":{"deep":`+nested(deepest)+`}`)
		code, stdout, stderr := testutil.Serve(t, tc.h, []byte(in))
		assert.Equal(t, hook.ExitOK, code, "%s: %.300s", tc.event, stderr)
		assert.Contains(t, stdout, `"checked":true`, tc.event)

		in = badEvent(tc.event, `,"tool_name":"mcp__x__y","tool_input":{"deep":`+nested(deepest+1)+`}`)
		code, stdout, stderr = testutil.Serve(t, tc.h, []byte(in))
		assert.Equal(t, hook.ExitError, code, tc.event)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "nested 9999 levels deep", tc.event)
		code, _, _ = testutil.Serve(t, hook.FailClosed(tc.h), []byte(in))
		assert.Equal(t, hook.ExitBlock, code, tc.event)
	}
}
