package hook_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/jsonopts"
)

// fuzzHandler returns the hook FuzzServe runs, and where it records the
// tool_input it saw and the members its update changes. What it does
// depends on the PreToolUse tool_name, so that the fuzzer reaches every
// kind of answer: an update by Merge (any tool), a typed edit ("Bash"), a
// deny whose reason is the raw input ("Deny"), a block ("Block"), an error
// ("Error") and a panic ("Panic"). Other events get no answer, except Stop,
// which is blocked.
func fuzzHandler() (h hook.Handler, seen *[]byte, changed *string) {
	seen, changed = new([]byte), new(string)
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		*seen = e.ToolInput
		switch e.ToolName {
		case "Panic":
			panic(e.ToolInput)
		case "Error":
			return nil, errors.New(string(e.ToolInput))
		case "Block":
			return nil, hook.Block(string(e.ToolInput))
		case "Deny":
			return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: string(e.Raw())}, nil
		case "Bash":
			upd, err := hook.Edit(e.ToolInput, func(in *hook.BashInput) error {
				in.Command = "timeout 9 " + in.Command
				return nil
			})
			if err != nil {
				return nil, err
			}
			*changed = "command"
			return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
		}
		upd, err := e.Merge(map[string]bool{"checked": true})
		if err != nil {
			return nil, err
		}
		*changed = "checked"
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd, AdditionalContext: e.ToolName}, nil
	}))
	m.HandleFunc(hook.EventStop, func(ctx context.Context, ev *hook.Event) (hook.Output, error) {
		return nil, hook.Block(ev.SessionID)
	})
	return m, seen, changed
}

// FuzzServe feeds random bytes to Serve, failing open and failing closed,
// and checks the promises that hold for every input (see checkPromises):
// no panic, no stack trace, exit code 0, 1 or 2, stdout only with exit 0
// and then one valid JSON object; and no internal error. When the answer
// carries an updatedInput, every member of the tool_input the hook did not
// change is in it, byte for byte and in order.
//
// The seed corpus is testdata/fuzz/FuzzServe: the inputs of the bad-input
// matrix and events for each of fuzzHandler's branches.
func FuzzServe(f *testing.F) {
	f.Add([]byte(stdinInput))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, closed := range []bool{false, true} {
			h, seen, changed := fuzzHandler()
			srv := hook.Server{Handler: h, FailClosed: closed, MaxInputBytes: 1 << 20}
			var stdout, stderr bytes.Buffer
			code := srv.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr)
			checkPromises(t, code, stdout.Bytes(), stderr.String())
			assert.NotContains(t, stderr.String(), "internal error")
			if code != hook.ExitOK || *changed == "" {
				continue
			}
			var answer struct {
				HookSpecificOutput struct {
					UpdatedInput jsontext.Value `json:"updatedInput"`
				} `json:"hookSpecificOutput"`
			}
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &answer, jsonopts.Lenient()))
			if upd := answer.HookSpecificOutput.UpdatedInput; upd != nil {
				assert.NoError(t, hooktest.CheckPreserved(*seen, upd, *changed))
			}
		}
	})
}
