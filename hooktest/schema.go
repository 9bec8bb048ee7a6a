package hooktest

import "github.com/gohooks/hook"

// This file describes the answers Claude Code 2.1.336 accepts (the
// project's wire-format reference, §5.2 and §5.5).

// jsonType is the type a field of an answer must have.
type jsonType int

const (
	tString jsonType = iota
	tBool
	tNumber
	tObject
	tStringArray
	tArray
	tAny // any JSON value, null included
)

func (t jsonType) String() string {
	switch t {
	case tString:
		return "a string"
	case tBool:
		return "a boolean"
	case tNumber:
		return "a number"
	case tObject:
		return "an object"
	case tStringArray:
		return "an array of strings"
	case tArray:
		return "an array"
	}
	return "any value"
}

// field is one field of an answer object.
type field struct {
	name     string
	typ      jsonType
	enum     []string // allowed values of a string field; nil: any
	required bool
}

// topFields are the top-level fields of a synchronous answer.
var topFields = []field{
	{name: "continue", typ: tBool},
	{name: "stopReason", typ: tString},
	{name: "suppressOutput", typ: tBool},
	{name: "decision", typ: tString, enum: []string{"approve", "block"}},
	{name: "reason", typ: tString},
	{name: "systemMessage", typ: tString},
	{name: "terminalSequence", typ: tString},
	{name: "hookSpecificOutput", typ: tObject},
}

// asyncFields are the fields of an async announcement.
var asyncFields = []field{
	{name: "async", typ: tBool, required: true},
	{name: "asyncTimeout", typ: tNumber},
}

var (
	decisions4 = []string{"allow", "deny", "ask", "defer"}
	actions    = []string{"accept", "decline", "cancel"}
	ctxOnly    = []field{{name: "additionalContext", typ: tString}}
)

// specificFields are the hookSpecificOutput variants, by hookEventName,
// without hookEventName itself. The fields of PermissionRequest's decision
// object are checked apart (see checkPermissionRequest). Events without an
// entry have no variant: Claude Code rejects a hookSpecificOutput that
// names them.
var specificFields = map[string][]field{
	hook.EventPreToolUse: {
		{name: "permissionDecision", typ: tString, enum: decisions4},
		{name: "permissionDecisionReason", typ: tString},
		{name: "updatedInput", typ: tObject},
		{name: "additionalContext", typ: tString},
		{name: "permissionDisplay", typ: tAny}, // internal; bad values are dropped silently
	},
	hook.EventPermissionRequest: {
		{name: "decision", typ: tObject, required: true},
	},
	hook.EventPermissionDenied: {{name: "retry", typ: tBool}},
	hook.EventPostToolUse: {
		{name: "additionalContext", typ: tString},
		{name: "classifierContext", typ: tString},
		{name: "updatedToolOutput", typ: tAny},
		{name: "updatedMCPToolOutput", typ: tAny},
	},
	hook.EventPostToolUseFailure: ctxOnly,
	hook.EventPostToolBatch:      ctxOnly,
	hook.EventUserPromptSubmit: {
		{name: "additionalContext", typ: tString},
		{name: "sessionTitle", typ: tString},
		{name: "suppressOriginalPrompt", typ: tBool},
	},
	hook.EventUserPromptExpansion: {
		{name: "additionalContext", typ: tString},
		{name: "suppressOriginalPrompt", typ: tBool},
	},
	hook.EventSessionStart: {
		{name: "additionalContext", typ: tString},
		{name: "initialUserMessage", typ: tString},
		{name: "sessionTitle", typ: tString},
		{name: "watchPaths", typ: tStringArray},
		{name: "reloadSkills", typ: tBool},
	},
	hook.EventSetup:           ctxOnly,
	hook.EventSubagentStart:   ctxOnly,
	hook.EventStop:            ctxOnly,
	hook.EventSubagentStop:    ctxOnly,
	hook.EventNotification:    ctxOnly,
	hook.EventPostModelSwitch: ctxOnly,
	hook.EventElicitation: {
		{name: "action", typ: tString, enum: actions},
		{name: "content", typ: tObject},
	},
	hook.EventElicitationResult: {
		{name: "action", typ: tString, enum: actions},
		{name: "content", typ: tObject},
	},
	hook.EventCwdChanged:     {{name: "watchPaths", typ: tStringArray}},
	hook.EventFileChanged:    {{name: "watchPaths", typ: tStringArray}},
	hook.EventWorktreeCreate: {{name: "worktreePath", typ: tString, required: true}},
	hook.EventMessageDisplay: {{name: "displayContent", typ: tString}},
	hook.EventPreModelSwitch: {
		{name: "permissionDecision", typ: tString, enum: []string{"allow", "deny", "ask"}},
		{name: "permissionDecisionReason", typ: tString},
	},
	hook.EventPreSkillShellCommand: {
		{name: "permissionDecision", typ: tString, enum: decisions4},
		{name: "permissionDecisionReason", typ: tString},
		{name: "updatedInput", typ: tObject},
	},
}

// permissionAllowFields and permissionDenyFields are the fields of a
// PermissionRequest decision object, after "behavior".
var (
	permissionAllowFields = []field{
		{name: "behavior", typ: tString, required: true},
		{name: "updatedInput", typ: tObject},
		{name: "updatedPermissions", typ: tArray},
	}
	permissionDenyFields = []field{
		{name: "behavior", typ: tString, required: true},
		{name: "message", typ: tString},
		{name: "interrupt", typ: tBool},
	}
)

// Fields of a PermissionUpdate, by type.
var (
	destinations    = []string{"userSettings", "projectSettings", "localSettings", "session", "cliArg"}
	ruleBehaviors   = []string{"allow", "deny", "ask"}
	permissionModes = []string{"default", "acceptEdits", "bypassPermissions", "plan", "dontAsk", "auto", "manual"}
	updateTypes     = []string{"addRules", "replaceRules", "removeRules", "setMode", "addDirectories", "removeDirectories"}
	ruleUpdate      = []field{
		{name: "type", typ: tString, required: true},
		{name: "rules", typ: tArray, required: true},
		{name: "behavior", typ: tString, enum: ruleBehaviors, required: true},
		{name: "destination", typ: tString, enum: destinations, required: true},
	}
	permissionUpdateFields = map[string][]field{
		"addRules":     ruleUpdate,
		"replaceRules": ruleUpdate,
		"removeRules":  ruleUpdate,
		"setMode": {
			{name: "type", typ: tString, required: true},
			{name: "mode", typ: tString, enum: permissionModes, required: true},
			{name: "destination", typ: tString, enum: destinations, required: true},
		},
		"addDirectories": {
			{name: "type", typ: tString, required: true},
			{name: "directories", typ: tStringArray, required: true},
			{name: "destination", typ: tString, enum: destinations, required: true},
		},
		"removeDirectories": {
			{name: "type", typ: tString, required: true},
			{name: "directories", typ: tStringArray, required: true},
			{name: "destination", typ: tString, enum: destinations, required: true},
		},
	}
	ruleFields = []field{
		{name: "toolName", typ: tString, required: true},
		{name: "ruleContent", typ: tString},
	}
)

// blockDecisionEvents are the events on which a top-level
// "decision": "block" has an effect (§7).
var blockDecisionEvents = map[string]bool{
	hook.EventPreToolUse: true, hook.EventPostToolUse: true, hook.EventPostToolBatch: true,
	hook.EventUserPromptSubmit: true, hook.EventUserPromptExpansion: true,
	hook.EventStop: true, hook.EventSubagentStop: true, hook.EventPreCompact: true,
	hook.EventConfigChange: true, hook.EventTaskCreated: true,
	hook.EventElicitation: true, hook.EventElicitationResult: true,
}
