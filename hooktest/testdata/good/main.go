// Command good is a PreToolUse and PermissionRequest hook built the right
// way: it adds a fingerprint of the session's directory to every tool
// call's input with hook.Merge, so every member Claude sent survives byte
// for byte.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/gohooks/hook"
)

func main() {
	m := hook.NewMux()
	m.Handle(hook.EventPreToolUse, hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
		if err != nil {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	}))
	m.Handle(hook.EventPermissionRequest, hook.PermissionRequestFunc(func(ctx context.Context, e *hook.PermissionRequest) (*hook.PermissionRequestOutput, error) {
		upd, err := e.Merge(map[string]string{"fingerprint": fingerprint(e.Cwd)})
		if err != nil {
			return nil, err
		}
		return &hook.PermissionRequestOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
	}))
	hook.Run(m)
}

func fingerprint(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:8])
}
