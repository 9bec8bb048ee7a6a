package hook_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"

	"github.com/gohooks/hook"
)

// TestNoOpRewrite: a rewrite byte for byte equal to the value it would
// replace (what hook.Edit returns when the edit changed nothing) is not
// written, on every event with a rewrite; the rest of the answer is, and
// an answer left with nothing writes nothing. A real rewrite still is.
func TestNoOpRewrite(t *testing.T) {
	small := `{"command":"ls","description":"list"}`
	big := `{"command":"echo ` + strings.Repeat("x", 8<<10) + `","description":"list"}`
	response := `{"stdout":"out","stderr":"","interrupted":false}`
	pre := func(input string) string {
		return badEvent("PreToolUse", `,"tool_name":"Bash","tool_input":`+input+`,"tool_use_id":"toolu_1"`)
	}
	perm := badEvent("PermissionRequest", `,"tool_name":"Bash","tool_input":`+small)
	post := badEvent("PostToolUse", `,"tool_name":"Bash","tool_input":`+small+`,"tool_response":`+response+`,"tool_use_id":"toolu_1"`)
	noEdit := func(in *hook.BashInput) error { return nil }
	pt := func(f func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error)) hook.Handler {
		return hook.PreToolUseFunc(func(_ context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) { return f(e) })
	}
	for _, c := range []struct {
		name, stdin string
		h           hook.Handler
		want        string
	}{
		{"PreToolUse Edit that changes nothing, alone", pre(small), pt(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Edit(e.ToolInput, noEdit)
			return &hook.PreToolUseOutput{UpdatedInput: upd}, err
		}), ""},
		{"PreToolUse Edit that changes nothing, with allow", pre(small), pt(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Edit(e.ToolInput, noEdit)
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"PreToolUse Update that changes nothing, with context", pre(small), pt(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			view, err := hook.DecodeView[hook.BashInput](e.ToolInput)
			if err != nil {
				return nil, err
			}
			upd, err := e.Update(view)
			return &hook.PreToolUseOutput{UpdatedInput: upd, AdditionalContext: "seen"}, err
		}), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"seen"}}`},
		{"PreToolUse empty Merge of a large input", pre(big), pt(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := e.Merge(map[string]any{})
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"PreToolUse the input itself, no decision", pre(big), pt(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			return &hook.PreToolUseOutput{UpdatedInput: e.ToolInput}, nil
		}), ""},
		{"PreToolUse a real rewrite", pre(small), pt(func(e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
			upd, err := hook.Edit(e.ToolInput, func(in *hook.BashInput) error { in.Command = "ls -a"; return nil })
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a","description":"list"}}}`},
		{"PermissionRequest Edit that changes nothing", perm, hook.PermissionRequestFunc(func(_ context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
			upd, err := hook.Edit(e.ToolInput, noEdit)
			return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, err
		}), `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"PostToolUse the response itself", post, hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			return &hook.PostToolUseOutput{UpdatedToolOutput: append(jsontext.Value(nil), e.ToolResponse...)}, nil
		}), ""},
		{"PostToolUse the response itself, with context", post, hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			return &hook.PostToolUseOutput{UpdatedToolOutput: e.ToolResponse, AdditionalContext: "seen"}, nil
		}), `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"seen"}}`},
		{"PostToolUse a real rewrite", post, hook.PostToolUseFunc(func(_ context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
			upd, err := hook.Merge(e.ToolResponse, map[string]string{"stdout": "redacted"})
			return &hook.PostToolUseOutput{UpdatedToolOutput: upd}, err
		}), `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"redacted","stderr":"","interrupted":false}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := hook.Serve(context.Background(), strings.NewReader(c.stdin), &stdout, &stderr, c.h)
			assert.Equal(t, hook.ExitOK, code, stderr.String())
			assert.Empty(t, stderr.String())
			want := c.want
			if want != "" {
				want += "\n"
			}
			assert.Equal(t, want, stdout.String())
		})
	}
}
