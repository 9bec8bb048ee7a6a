// Command mergehook is the hook bench/run.sh measures next to the
// fingerprint example on every payload: a PreToolUse hook that merges a
// fingerprint of the working directory into the input of every tool call
// (the fingerprint example answers only the MCP tool listen_here), so that
// the cost of Merge and of writing a large updatedInput is measured on the
// Write payloads too.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		sum := sha256.Sum256([]byte(e.Cwd))
		upd, err := e.Merge(map[string]string{"fingerprint": hex.EncodeToString(sum[:8])})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	}))
}
