// Command redact is a PostToolUse hook that takes credentials out of what
// Claude reads of a tool's result: API keys (sk-…, GitHub, AWS, Slack
// tokens) and PEM private keys become "[redacted]". It changes only the
// texts that hold one: every other member of the result, every other
// content block of an MCP result, escapes, numbers and members this
// program does not know reach Claude byte for byte, because the rewrite
// is built from the incoming tool_response with hook.EditText (an MCP
// result of any shape, a text result) or hook.Edit and the tool's typed
// view (Bash, PowerShell, Read, Grep, WebFetch). A result without a
// credential gets no answer.
//
// The tool already ran: the credential was printed, and the rewrite only
// keeps it out of the conversation. Under Codex, which replaces only an
// MCP tool's result (with updatedMCPToolOutput), and under GitHub
// Copilot CLI, which replaces none, a result it cannot rewrite is
// answered with a block whose reason tells the model not to repeat the
// credential. Register it for the tools whose results may hold one:
//
//	{"hooks": {"PostToolUse": [{"matcher": "Bash|PowerShell|Read|Grep|WebFetch|mcp__.*",
//	  "hooks": [{"type": "command", "command": "/path/to/redact"}]}]}}
//
// Try it:
//
//	go run ./examples/redact < examples/redact/testdata/mcp-vault.json
package main

import (
	"context"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
)

func main() {
	hook.Run(Handler())
}

// credential matches the credentials redact takes out.
var credential = regexp.MustCompile(`sk-(?:live|test|proj|ant)-[0-9A-Za-z_-]{6,}` +
	`|gh[pousr]_[0-9A-Za-z]{36,}|github_pat_[0-9A-Za-z_]{22,}` +
	`|(?:AKIA|ASIA)[0-9A-Z]{16}` +
	`|xox[abprs]-[0-9A-Za-z-]{10,}` +
	`|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\z)`)

// Redact returns s with every credential replaced by "[redacted]".
func Redact(s string) string { return credential.ReplaceAllString(s, "[redacted]") }

// Handler returns the redaction hook.
func Handler() hook.Handler {
	return hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		mcp := strings.HasPrefix(e.ToolName, "mcp__")
		found := 0
		redact := func(s string) string {
			r := Redact(s)
			if r != s {
				found++
			}
			return r
		}
		text := func(s string) (string, error) { return redact(s), nil }
		var out jsontext.Value
		var err error
		switch {
		case mcp, e.ToolResponse.Kind() == '"', e.Agent() == hook.AgentCopilot:
			// An MCP result of any shape; a text result, such as the
			// shell output Codex sends; Copilot's result of any tool,
			// whose text for the model EditText finds.
			out, err = hook.EditText(e.ToolResponse, text)
		case e.ToolName == hook.ToolBash || e.ToolName == hook.ToolPowerShell:
			out, err = hook.Edit(e.ToolResponse, func(r *hook.BashResponse) error {
				r.Stdout, r.Stderr = redact(r.Stdout), redact(r.Stderr)
				return nil
			})
		case e.ToolName == hook.ToolRead:
			out, err = hook.Edit(e.ToolResponse, func(r *hook.ReadResponse) error {
				r.File.Content = redact(r.File.Content)
				return nil
			})
		case e.ToolName == hook.ToolGrep:
			out, err = hook.Edit(e.ToolResponse, func(r *hook.GrepResponse) error {
				r.Content = redact(r.Content)
				return nil
			})
		case e.ToolName == hook.ToolWebFetch:
			out, err = hook.Edit(e.ToolResponse, func(r *hook.WebFetchResponse) error {
				r.Result = redact(r.Result)
				return nil
			})
		default:
			return nil, nil
		}
		if err != nil || found == 0 {
			return nil, err
		}
		switch agent := e.Agent(); {
		case agent == hook.AgentCopilot, agent == hook.AgentCodex && !mcp:
			// The result cannot be replaced: say so to the model.
			return &hook.PostToolUseOutput{Block: true, Reason: "redact: this result holds a credential (an API key, token or private key). Do not repeat, store or use it; tell the user it was printed."}, nil
		case agent == hook.AgentCodex:
			// Codex replaces an MCP tool's result with the legacy field only.
			return &hook.PostToolUseOutput{UpdatedMCPToolOutput: out}, nil
		}
		return &hook.PostToolUseOutput{UpdatedToolOutput: out}, nil
	})
}
