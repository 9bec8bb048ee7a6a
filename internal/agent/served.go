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
	if blocked {
		return fmt.Sprintf("hook: blocked: this hook serves Claude Code and Codex, and %s called it with a payload it cannot read; it fails closed", a)
	}
	return fmt.Sprintf("hook: not run: this hook serves Claude Code and Codex, and %s called it with a payload it cannot read; it did nothing and let the call proceed", a)
}
