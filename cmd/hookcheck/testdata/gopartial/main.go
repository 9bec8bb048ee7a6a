// Command gopartial is the seed bug written with the hook library: its
// updatedInput holds only the fingerprint. The library refuses the answer
// before writing it (exit 1, "hook: invalid answer …" on stderr), so
// Claude Code gets none; hookcheck reports the library's whole message.
package main

import (
	"context"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: jsontext.Value(`{"fingerprint":"0123456789abcdef"}`)}, nil
	}))
}
