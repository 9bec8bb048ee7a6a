package hook

import (
	"errors"
	"fmt"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/rawjson"
)

// Agent is the coding agent that sent an event, as [Event.Agent] tells it
// from the members of the payload (docs/agents.md lists what each agent
// sends). Its String method returns the agent's product name.
//
// Claude Code's types are the library's API. The OpenAI Codex CLI speaks a
// close dialect of them, and so does the GitHub Copilot CLI with its hooks
// configured under PascalCase event names: a hook serves them with the
// same types, and every answer to their payloads is checked against what
// that agent does with it before it is written (see [Server.Serve]).
// Cursor, Gemini CLI and Copilot CLI's camelCase hooks send payloads of
// their own: Serve refuses them without running the handler.
type Agent uint8

// The agents [Event.Agent] tells apart.
const (
	// AgentUnknown is a payload no known agent would send, such as a
	// hand-written one without session_id; Serve answers it as Claude
	// Code's.
	AgentUnknown Agent = Agent(agent.Unknown)
	// AgentClaudeCode is Anthropic's Claude Code.
	AgentClaudeCode Agent = Agent(agent.ClaudeCode)
	// AgentCodex is the OpenAI Codex CLI: served, with its answers
	// checked against Codex's rules.
	AgentCodex Agent = Agent(agent.Codex)
	// AgentCursor is the Cursor editor's agent: not served.
	AgentCursor Agent = Agent(agent.Cursor)
	// AgentGemini is Google's Gemini CLI: not served.
	AgentGemini Agent = Agent(agent.GeminiCLI)
	// AgentCopilot is the GitHub Copilot CLI with its hooks configured
	// under PascalCase event names (PreToolUse, …): Claude-shaped
	// payloads, served, with its answers checked against what Copilot
	// does with them. Its PostToolUse result (tool_result) is the
	// typed event's ToolResponse. Detected only on evidence Claude Code
	// cannot send (docs/agents.md); its other payloads are served as
	// Claude Code's.
	AgentCopilot Agent = Agent(agent.CopilotCLI)
	// AgentCopilotCamel is the GitHub Copilot CLI with its hooks
	// configured under camelCase event names (preToolUse, …), and its
	// permissionRequest under either: payloads of another shape
	// (sessionId, toolName, toolArgs), not served.
	AgentCopilotCamel Agent = Agent(agent.CopilotCLICamel)
)

// Agent returns the coding agent that sent the event, told from the
// members of its payload. For an Event that [Serve] read it is the agent
// found at the read; for one built otherwise it is found from [Event.Raw]
// (AgentUnknown when there is none).
func (e *Event) Agent() Agent {
	if e.agent != AgentUnknown || e.raw == nil {
		return e.agent
	}
	return Agent(agent.Detect(e.raw))
}

// String returns the agent's product name, such as "Claude Code" or
// "Codex", as a message to a user names it.
func (a Agent) String() string { return agent.Agent(a).String() }

// Served reports whether the library serves the agent's payloads: Claude
// Code, Codex and the GitHub Copilot CLI's PascalCase hooks, and payloads
// of no known agent (AgentUnknown), which are served as Claude Code's.
func (a Agent) Served() bool { return a == AgentUnknown || agent.Agent(a).Served() }

// notServedError is the read's failure for a payload of an agent the
// library does not serve. Serve answers it without running the handler:
// a block naming the agent when the hook fails closed, otherwise exit 0
// with one stderr line saying the hook did nothing.
type notServedError struct{ agent Agent }

func (e *notServedError) Error() string { return agent.Agent(e.agent).NotServed(false) }

// notServed returns the outcome for a payload of agent a, which the
// library does not serve: closed reports whether the hook fails closed.
func notServed(a Agent, closed bool) outcome {
	if closed {
		return outcome{code: ExitBlock, stderr: agent.Agent(a).NotServed(true)}
	}
	return outcome{code: ExitOK, stderr: agent.Agent(a).NotServed(false)}
}

// checkCodex checks the JSON answer b to event for Codex, which reports a
// hook Failed and ignores its answer (the call then runs as if there were
// no hook) when the answer breaks one of its rules. The error names the
// field, the rule and, where the library's types have one, the way to
// answer under Codex.
func checkCodex(event string, b []byte) error {
	err := agent.CheckCodexAnswer(event, b)
	if err == nil {
		return nil
	}
	hint := ""
	var ce *agent.CodexError
	if errors.As(err, &ce) && event == EventPreToolUse && ce.Field == "hookSpecificOutput.updatedInput" && !decided(b) {
		hint = "; " + codexRewriteHint
	}
	return fmt.Errorf("hook: invalid answer to %s for Codex %s: %w%s", event, agent.CodexVersion, err, hint)
}

// codexRewriteHint is the end of the refusal of a PreToolUse rewrite
// without a decision under Codex: the trade-off, and the author's choices.
const codexRewriteHint = "under Codex a rewrite applies only beside an allow, and an allow skips Codex's approval prompt " +
	"(its approval policy) for the call, where Claude Code and Copilot CLI still ask the user; without one the rewrite is not applied. " +
	"Choose with PreToolUseOutput.CodexRewrite: hook.CodexRewriteAllow (rewrite and approve), " +
	"hook.CodexRewriteSkip (run the original call, through Codex's approval) or hook.CodexRewriteDeny (refuse the call, with Reason)"

// decided reports whether the PreToolUse answer b carries a
// permissionDecision.
func decided(b []byte) bool {
	ms, err := rawjson.Members(b)
	if err != nil {
		return false
	}
	hs, ok := rawjson.Find(ms, "hookSpecificOutput")
	if !ok {
		return false
	}
	hms, err := rawjson.Members(hs.Value)
	if err != nil {
		return false
	}
	_, ok = rawjson.Find(hms, "permissionDecision")
	return ok
}

// checkCodexText checks the plain-text answer b to event for Codex, which
// reads plain stdout as context on a few events only and drops it, or
// reports the hook Failed, elsewhere.
func checkCodexText(event string, b []byte) error {
	if err := agent.CheckCodexText(event, b); err != nil {
		return fmt.Errorf("hook: invalid answer to %s for Codex %s: %w", event, agent.CodexVersion, err)
	}
	return nil
}

// checkCopilot checks the JSON answer b to event for the GitHub Copilot
// CLI, which would drop in silence a part of it that the handler meant to
// act (see agent.CheckCopilotAnswer).
func checkCopilot(event string, b []byte) error {
	if err := agent.CheckCopilotAnswer(event, b); err != nil {
		return fmt.Errorf("hook: invalid answer to %s for GitHub Copilot CLI %s: %w", event, agent.CopilotVersion, err)
	}
	return nil
}

// checkCopilotText checks the plain-text answer b to event for the
// GitHub Copilot CLI, which hands no plain text to the model.
func checkCopilotText(event string, b []byte) error {
	if err := agent.CheckCopilotText(event, b); err != nil {
		return fmt.Errorf("hook: invalid answer to %s for GitHub Copilot CLI %s: %w", event, agent.CopilotVersion, err)
	}
	return nil
}

// copilotDeny returns o, an exit-2 block of a GitHub Copilot CLI call on
// an event where Copilot tells the model "hook exited with code 2" and
// not the reason, as the deny answer that carries the reason (exit 0,
// the same line on stderr). Any other outcome is returned unchanged.
func (o outcome) copilotDeny() outcome {
	if o.code != ExitBlock || o.stdout != nil || o.ev == nil || o.ev.agent != AgentCopilot ||
		!agent.CopilotBlockReasonLost(o.ev.HookEventName) || o.ev.HookEventName != EventPreToolUse {
		return o
	}
	b, err := (&PreToolUseOutput{Decision: Deny, Reason: o.stderr}).appendAnswer(nil, o.ev)
	if err != nil {
		return o
	}
	o.code, o.stdout = ExitOK, append(b, '\n')
	return o
}

// canBlock reports whether a failure on e can block the agent that sent
// it: exit code 2 stops the action. Codex blocks on exit 2 on its own set
// of events (PermissionRequest and PostToolUse among them, where Claude
// Code does not), so a hook that fails closed exits 2 there under Codex.
func (e *Event) canBlock() bool {
	if e.agent == AgentCodex {
		return agent.CodexBlocksOnExit2(e.HookEventName)
	}
	return canBlock(e.HookEventName)
}
