// Command golobby is the seed bug's effect in a hook built with the
// library: it keeps every member with hook.Merge, but sets the room to
// "lobby" whatever room the model chose.
package main

import (
	"context"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if _, tool, ok := hook.SplitMCPToolName(e.ToolName); !ok || tool != "listen_here" {
			return nil, nil
		}
		upd, err := e.Merge(map[string]string{"room": "lobby"})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	}))
}
