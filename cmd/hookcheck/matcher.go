package main

import (
	"path"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/rawjson"
)

// matcherFields names, per event, the payload member a settings.json
// matcher is tested against (the project's wire-format reference, §3 and
// §8). The events not listed take no matcher: their hooks run on every
// occurrence, whatever the matcher says.
var matcherFields = map[string]string{
	hook.EventPreToolUse:           "tool_name",
	hook.EventPermissionRequest:    "tool_name",
	hook.EventPermissionDenied:     "tool_name",
	hook.EventPostToolUse:          "tool_name",
	hook.EventPostToolUseFailure:   "tool_name",
	hook.EventPreSkillShellCommand: "tool_name",
	hook.EventNotification:         "notification_type",
	hook.EventUserPromptExpansion:  "command_name",
	hook.EventSessionStart:         "source",
	hook.EventSessionEnd:           "reason",
	hook.EventStopFailure:          "error",
	hook.EventSubagentStart:        "agent_type",
	hook.EventSubagentStop:         "agent_type",
	hook.EventPreCompact:           "trigger",
	hook.EventPostCompact:          "trigger",
	hook.EventPreModelSwitch:       "to_model",
	hook.EventPostModelSwitch:      "to_model",
	hook.EventSetup:                "trigger",
	hook.EventElicitation:          "mcp_server_name",
	hook.EventElicitationResult:    "mcp_server_name",
	hook.EventConfigChange:         "source",
	hook.EventInstructionsLoaded:   "load_reason",
	hook.EventFileChanged:          "file_path",
	hook.EventDirectoryAdded:       "source",
}

// matcherQuery returns what a matcher of a hook for the payload's event
// is tested against, and false when the event takes no matcher. A
// payload without the member gives "" (matched only by "", "*" and
// regular expressions that match the empty string).
func matcherQuery(p *payload) (string, bool) {
	field, ok := matcherFields[p.event]
	if !ok {
		return "", false
	}
	m, _ := rawjson.Find(p.top, field)
	q := unquote(m.Value)
	if p.event == hook.EventFileChanged {
		q = path.Base(q)
	}
	return q, true
}
