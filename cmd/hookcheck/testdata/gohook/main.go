// Command gohook is a good hook built with the hook library: it adds a
// fingerprint of the working directory to listen_here calls with
// hook.Merge, so every other member reaches the tool byte for byte.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		if _, tool, ok := hook.SplitMCPToolName(e.ToolName); !ok || tool != "listen_here" {
			return nil, nil
		}
		sum := sha256.Sum256([]byte(e.Cwd))
		upd, err := e.Merge(map[string]string{"fingerprint": hex.EncodeToString(sum[:8])})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	}))
}
