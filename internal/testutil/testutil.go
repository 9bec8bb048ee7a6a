// Package testutil holds the test helpers that the tests of the root
// package and of hookhttp share: a PreToolUse payload as Claude Code
// writes it, a command-hook run, a seed hook and readers of top-level
// members. Only tests import it.
package testutil

import (
	"bytes"
	"context"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

// PreToolUse returns a compact PreToolUse payload for tool with the raw
// tool_input toolInput, as Claude Code 2.1.332 writes it (one line, then
// a newline).
func PreToolUse(tool, toolInput string) []byte {
	return []byte(`{"session_id":"5d3f2c1a-8b7e-4f6a-9c2d-1e0b7a6f4c3d","transcript_path":"/home/dev/.claude/projects/-home-dev-acme-api/5d3f2c1a.jsonl","cwd":"/home/dev/acme-api","prompt_id":"9b1e4c7a-2f3d-4e5b-8a6c-0d9f1e2a3b4c","permission_mode":"default","effort":{"level":"medium"},"hook_event_name":"PreToolUse","tool_name":"` + tool + `","tool_input":` + toolInput + `,"tool_use_id":"toolu_01","mcp_server":{"name":"probe","source":"dynamic"}}` + "\n")
}

// Serve runs h on in as a command hook and returns exit code, stdout and
// stderr.
func Serve(t testing.TB, h hook.Handler, in []byte) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := hook.Serve(context.Background(), bytes.NewReader(in), &stdout, &stderr, h)
	return code, stdout.String(), stderr.String()
}

// AddFingerprint is the seed hook: it merges one member into the input.
var AddFingerprint = hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	upd, err := e.Merge(map[string]string{"fingerprint": "6689668a49dc648b"})
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
})

// MemberOf returns the raw value of the top-level member name of obj.
func MemberOf(obj []byte, name string) (string, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return "", false
	}
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return "", false
		}
		key := k.String()
		v, err := dec.ReadValue()
		if err != nil {
			return "", false
		}
		if key == name {
			return string(v), true
		}
	}
	return "", false
}

// PathOf returns the raw value reached from obj through the members
// names, one level each.
func PathOf(obj []byte, names ...string) (string, bool) {
	v := string(obj)
	for _, n := range names {
		var ok bool
		if v, ok = MemberOf([]byte(v), n); !ok {
			return "", false
		}
	}
	return v, true
}
