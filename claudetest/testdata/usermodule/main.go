// Command norm is the hook of the user module that claudetest's
// TestAUserModule and codextest's TestCodexInAUserModule build in a module
// of their own: a PreToolUse hook that
// denies a Bash rm, so that deletions go through git rm.
package main

import (
	"context"
	"strings"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil || !strings.HasPrefix(in.Command, "rm ") {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: "norm: use git rm, so that it can be undone"}, nil
	}))
}
