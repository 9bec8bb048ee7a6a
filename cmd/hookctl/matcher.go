package main

import (
	"strings"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/protocol"
)

// builtinTools are the built-in tool names of Claude Code 2.1.336 (the
// SDK's BUILTIN_TOOL_NAMES, wire-format spec §9), which doctor names when
// it says what a tool matcher matches.
var builtinTools = []string{
	"Agent", "Artifact", "AskUserQuestion", "Bash", "ClaudeDesign", "CronCreate",
	"CronDelete", "CronList", "Edit", "EndConversation", "EnterPlanMode",
	"EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep", "ListAgents",
	"ListMcpResourcesTool", "LSP", "Monitor", "NotebookEdit", "OfferChromeSetup",
	"PowerShell", "Projects", "propose_skills", "PushNotification", "Read",
	"ReadMcpResourceDirTool", "ReadMcpResourceTool", "ReadNotifications",
	"RemoteTrigger", "ReportFindings", "ScheduleWakeup", "SendFeedback",
	"SendMessage", "SendUserFile", "SendUserMessage", "SetGoal",
	"ShareOnboardingGuide", "ShowOnboardingRolePicker", "Skill",
	"SubagentHandback", "TaskCreate", "TaskGet", "TaskList", "TaskStop",
	"TaskUpdate", "TodoWrite", "ToolSearch", "WaitForMcpServers", "WebFetch",
	"WebSearch", "Workflow", "Write",
}

// matcherResult is what doctor says about one matcher.
type matcherResult struct {
	err     error    // from hook.CompileMatcher: the client reads it differently or not at all
	ignored bool     // the event has no matcher: every hook of it runs
	all     bool     // it matches every value
	tools   []string // for tool events: the built-in tools it matches
	mcp     bool     // it can match MCP tools (mcp__...)
	values  []string // for events with a closed set of values (valuesOf): those it matches
}

// checkMatcher reads matcher as Claude Code reads it for event, with the
// library's one matcher compiler, and names the built-in tools it
// matches for the events matched on tool_name, and the values it matches
// for the events whose values are a closed set (valuesOf).
func checkMatcher(event, matcher string) matcherResult {
	var r matcherResult
	if protocol.MatcherOf(event) == "" {
		r.ignored = matcher != "" && matcher != "*"
		return r
	}
	m, err := hook.CompileMatcher(event, matcher)
	r.err = err
	if matcher == "" || matcher == "*" {
		r.all = true
		return r
	}
	if protocol.MatcherOf(event) != "tool_name" {
		for _, v := range valuesOf(event) {
			if m.Match(v) {
				r.values = append(r.values, v)
			}
		}
		return r
	}
	for _, t := range builtinTools {
		if m.Match(t) {
			r.tools = append(r.tools, t)
		}
	}
	r.mcp = strings.Contains(matcher, "mcp__") || m.Match("mcp__server__tool")
	return r
}
