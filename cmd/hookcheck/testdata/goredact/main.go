// Command goredact is a PostToolUse redaction hook built with the hook
// library: it rewrites secrets (sk-live-…) out of a Bash output with
// hook.Edit, and out of each text block of an MCP tool's result, so
// every other member and block reaches Claude byte for byte. hook.Edit
// takes one object, so the content-block array is split and joined here.
package main

import (
	"context"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

var secret = regexp.MustCompile(`sk-live-[0-9A-Za-z]+`)

func redact(s string) string { return secret.ReplaceAllString(s, "[redacted]") }

func main() {
	hook.Run(hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		switch {
		case e.ToolName == "Bash" && e.ToolResponse.Kind() == '{':
			out, err := hook.Edit(e.ToolResponse, func(r *hook.BashResponse) error {
				r.Stdout, r.Stderr = redact(r.Stdout), redact(r.Stderr)
				return nil
			})
			return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
		case strings.HasPrefix(e.ToolName, "mcp__") && e.ToolResponse.Kind() == '[':
			var blocks []jsontext.Value
			// The blocks are kept as they are, lone surrogates included.
			if err := json.Unmarshal(e.ToolResponse, &blocks, jsontext.AllowInvalidUTF8(true)); err != nil {
				return nil, err
			}
			parts := make([]string, len(blocks))
			for i, b := range blocks {
				parts[i] = string(b)
				if b.Kind() != '{' {
					continue
				}
				nb, err := hook.Edit(b, func(c *hook.ContentBlock) error {
					c.Text = redact(c.Text)
					return nil
				})
				if err != nil {
					return nil, err
				}
				parts[i] = string(nb)
			}
			out := jsontext.Value("[" + strings.Join(parts, ",") + "]")
			if e.Agent() == hook.AgentCodex {
				// Codex replaces an MCP tool's result with the legacy field only.
				return &hook.PostToolUseOutput{UpdatedMCPToolOutput: out}, nil
			}
			return &hook.PostToolUseOutput{UpdatedToolOutput: out}, nil
		}
		return nil, nil
	}))
}
