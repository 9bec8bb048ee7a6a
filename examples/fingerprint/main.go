// Command fingerprint is the seed case of the hook library: a PreToolUse
// hook for the MCP tool listen_here (of any server) that adds a fingerprint
// of the session's working directory to the call's arguments and allows
// the call. Every member Claude sent, the room above all, reaches the
// server byte for byte, because the update is built with hook.Merge from
// the incoming tool_input.
//
// Any other tool or event: exit 0, nothing printed.
//
//	go run ./examples/fingerprint < examples/fingerprint/testdata/listen_here.json
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(Handler())
}

// Handler returns the fingerprint hook.
func Handler() hook.Handler {
	return hook.PreToolUseFunc(fingerprint)
}

func fingerprint(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	if _, tool, ok := hook.SplitMCPToolName(e.ToolName); !ok || tool != "listen_here" {
		return nil, nil
	}
	upd, err := e.Merge(map[string]string{"fingerprint": Fingerprint(e.Cwd)})
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
}

// Fingerprint returns the first 16 lowercase hex digits of the SHA-256 of
// dir.
func Fingerprint(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:8])
}
