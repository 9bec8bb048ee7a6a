package main

import (
	"fmt"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/settings"
)

// codexTurnEvents are the events every headless codex exec run fires
// (checked on Codex 0.171.0), with the value their matcher is tested
// against where Codex reads one: the source of SessionStart, the reason
// of SessionEnd.
var codexTurnEvents = map[string]string{
	"SessionStart": "startup", "UserPromptSubmit": "", "Stop": "", "SessionEnd": "other",
	"PreModelRequest": "", "PostModelRequest": "",
}

// codexShellCall is the call of Codex's shell tool (exec_command) that
// writes the marker file in the project: hooks see it as the tool "Bash"
// with the tool_input {"command": …}.
func codexShellCall(fail bool) clientrun.Call {
	cmd := "echo '" + markerText + "' > " + markerFile
	if fail {
		cmd += "; exit 3"
	}
	return clientrun.Call{Tool: "exec_command", Input: string(marshalValue(map[string]any{"cmd": cmd, "login": false}))}
}

// codexPlanFor returns what verify does to make the Codex hook h fire in
// a headless codex exec run in the project proj.
func codexPlanFor(h settings.Hook, proj string) verifyPlan {
	switch h.Handler.Type {
	case "", settings.TypeCommand:
	default:
		return verifyPlan{Skip: fmt.Sprintf("a %s hook: Codex runs command hooks only", h.Handler.Type)}
	}
	if !agent.CodexConfigEvent(h.Event) {
		return verifyPlan{Skip: fmt.Sprintf("%q is not a Codex %s hook event", h.Event, agent.CodexVersion)}
	}
	var m hook.Matcher
	if agent.CodexMatcherUsed(h.Event) {
		var err error
		if m, err = hook.CompileMatcher(h.Event, h.Matcher); err != nil {
			return verifyPlan{Skip: "matcher: " + err.Error()}
		}
	}
	if v, ok := codexTurnEvents[h.Event]; ok {
		if agent.CodexMatcherUsed(h.Event) && !m.Match(v) {
			what := map[string]string{"SessionStart": "source", "SessionEnd": "reason"}[h.Event]
			return verifyPlan{Skip: fmt.Sprintf("matcher %q does not match %q, the only %s of a headless codex exec run", h.Matcher, v, what)}
		}
		return verifyPlan{}
	}
	switch h.Event {
	case "PreToolUse", "PostToolUse":
	case "PermissionRequest":
		// Checked on Codex 0.171.0: codex exec runs with the approval
		// policy "never" whatever config.toml says, and rejects a call
		// asking for escalation ("approval policy is Never"), so it never
		// asks and PermissionRequest never fires in a headless run.
		return verifyPlan{Skip: "Codex fires PermissionRequest only when it asks for approval, and codex exec never asks (its approval policy is \"never\": it rejects a call that needs approval), so a headless run cannot fire it"}
	default:
		return verifyPlan{Skip: fmt.Sprintf("verify cannot fire %s in a headless codex exec run yet", h.Event)}
	}
	if m.Match("Bash") {
		c := codexShellCall(false)
		return verifyPlan{Call: &c}
	}
	if server, tool, ok := mcpToolFor(h.Matcher, m); ok {
		return verifyPlan{Server: server, Tool: tool, Call: &clientrun.Call{Tool: "mcp__" + server + "__" + tool, Input: `{"probe":"hookctl verify"}`}}
	}
	return verifyPlan{Skip: fmt.Sprintf("matcher %q catches no tool verify calls harmlessly under Codex (Bash, its shell; an MCP tool)", h.Matcher)}
}
