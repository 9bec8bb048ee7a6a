package agent

import "fmt"

// NotServed returns the one-line message a hook gives when an agent the
// library does not serve calls it: it names the agent and says what the
// hook did. blocked says whether the hook blocks the call (a fail-closed
// hook) or lets it proceed (a fail-open one). It returns "" for a served
// agent.
func (a Agent) NotServed(blocked bool) string {
	if a.Served() {
		return ""
	}
	fix := ""
	if a == CopilotCLICamel {
		// The same hook serves Copilot once it is configured so.
		fix = " (Copilot sends this shape for hooks configured under camelCase event names, and for permissionRequest under either; configure them under PascalCase names such as PreToolUse)"
	}
	if blocked {
		return fmt.Sprintf("hook: blocked: this hook serves Claude Code, Codex and GitHub Copilot CLI's PascalCase hooks, and %s called it with a payload it cannot read%s; it fails closed", a, fix)
	}
	return fmt.Sprintf("hook: not run: this hook serves Claude Code, Codex and GitHub Copilot CLI's PascalCase hooks, and %s called it with a payload it cannot read%s; it did nothing and let the call proceed", a, fix)
}
