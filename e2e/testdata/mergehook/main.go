// Command mergehook is a PreToolUse hook for the end-to-end tests that
// changes Write and Edit calls with hook.Merge, naming only the member it
// changes, and allows them:
//
//   - Write: content gets "(merged)\n" appended;
//   - Edit: new_string gets "-merged" appended.
//
// file_path, replace_all and every other member must reach the tool as the
// model sent them.
package main

import (
	"context"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(hook.PreToolUseFunc(merge))
}

func merge(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	var patch map[string]string
	switch e.ToolName {
	case hook.ToolWrite:
		in, err := hook.DecodeView[hook.WriteInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		patch = map[string]string{"content": in.Content + "(merged)\n"}
	case hook.ToolEdit:
		in, err := hook.DecodeView[hook.EditInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		patch = map[string]string{"new_string": in.NewString + "-merged"}
	default:
		return nil, nil
	}
	upd, err := e.Merge(patch)
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
}
