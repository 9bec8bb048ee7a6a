// Command goredact is a PostToolUse redaction hook built with the hook
// library: it rewrites secrets (sk-live-…) out of a Bash output with
// hook.Edit, and out of every text of an MCP tool's result (content
// blocks, a string, or the result object Codex sends) with hook.EditText,
// so every other member and block reaches Claude byte for byte.
package main

import (
	"context"
	"regexp"
	"strings"

	"github.com/gohooks/hook"
)

var secret = regexp.MustCompile(`sk-live-[0-9A-Za-z]+`)

func redact(s string) (string, error) { return secret.ReplaceAllString(s, "[redacted]"), nil }

func main() {
	hook.Run(hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		switch {
		case e.ToolName == "Bash" && e.ToolResponse.Kind() == '{':
			out, err := hook.Edit(e.ToolResponse, func(r *hook.BashResponse) error {
				r.Stdout, _ = redact(r.Stdout)
				r.Stderr, _ = redact(r.Stderr)
				return nil
			})
			return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
		case strings.HasPrefix(e.ToolName, "mcp__"):
			out, err := hook.EditText(e.ToolResponse, redact)
			if e.Agent() == hook.AgentCodex {
				// Codex replaces an MCP tool's result with the legacy field only.
				return &hook.PostToolUseOutput{UpdatedMCPToolOutput: out}, err
			}
			return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
		}
		return nil, nil
	}))
}
