package hookhttp_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hookhttp"
)

// quiet logs nothing, not even failures.
var quiet = &hookhttp.Options{Logger: slog.New(slog.DiscardHandler)}

// preToolUse returns a compact PreToolUse payload for tool with the raw
// tool_input toolInput, as Claude Code 2.1.332 writes it (one line, then
// a newline).
func preToolUse(tool, toolInput string) []byte {
	return []byte(`{"session_id":"5d3f2c1a-8b7e-4f6a-9c2d-1e0b7a6f4c3d","transcript_path":"/home/dev/.claude/projects/-home-dev-acme-api/5d3f2c1a.jsonl","cwd":"/home/dev/acme-api","prompt_id":"9b1e4c7a-2f3d-4e5b-8a6c-0d9f1e2a3b4c","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"PreToolUse","tool_name":"` + tool + `","tool_input":` + toolInput + `,"tool_use_id":"toolu_01","mcp_server":{"name":"probe","source":"dynamic"}}` + "\n")
}

// serve runs h on in as a command hook and returns exit code, stdout and
// stderr.
func serve(t *testing.T, h hook.Handler, in []byte) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := hook.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr, h)
	return code, stdout.String(), stderr.String()
}

// addFingerprint is the seed hook: it merges one member into the input.
var addFingerprint = hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	upd, err := e.Merge(map[string]string{"fingerprint": "6689668a49dc648b"})
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
})
