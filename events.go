package hook

// The names of the hook events of Claude Code 2.1.332, spelled as in
// hook_event_name, in the order of the Agent SDK's HOOK_EVENTS.
const (
	EventPreToolUse           = "PreToolUse"
	EventPostToolUse          = "PostToolUse"
	EventPostToolUseFailure   = "PostToolUseFailure"
	EventPostToolBatch        = "PostToolBatch"
	EventNotification         = "Notification"
	EventUserPromptSubmit     = "UserPromptSubmit"
	EventUserPromptExpansion  = "UserPromptExpansion"
	EventSessionStart         = "SessionStart"
	EventSessionEnd           = "SessionEnd"
	EventStop                 = "Stop"
	EventStopFailure          = "StopFailure"
	EventSubagentStart        = "SubagentStart"
	EventSubagentStop         = "SubagentStop"
	EventPreCompact           = "PreCompact"
	EventPostCompact          = "PostCompact"
	EventPreModelSwitch       = "PreModelSwitch"
	EventPostModelSwitch      = "PostModelSwitch"
	EventPermissionRequest    = "PermissionRequest"
	EventPermissionDenied     = "PermissionDenied"
	EventSetup                = "Setup"
	EventTeammateIdle         = "TeammateIdle"
	EventTaskCreated          = "TaskCreated"
	EventTaskCompleted        = "TaskCompleted"
	EventElicitation          = "Elicitation"
	EventElicitationResult    = "ElicitationResult"
	EventConfigChange         = "ConfigChange"
	EventWorktreeCreate       = "WorktreeCreate"
	EventWorktreeRemove       = "WorktreeRemove"
	EventInstructionsLoaded   = "InstructionsLoaded"
	EventCwdChanged           = "CwdChanged"
	EventFileChanged          = "FileChanged"
	EventDirectoryAdded       = "DirectoryAdded"
	EventMessageDisplay       = "MessageDisplay"
	EventPreSkillShellCommand = "PreSkillShellCommand"
)

// KnownEvent reports whether name is one of the 34 hook events of Claude
// Code 2.1.332.
func KnownEvent(name string) bool {
	switch name {
	case EventPreToolUse,
		EventPostToolUse,
		EventPostToolUseFailure,
		EventPostToolBatch,
		EventNotification,
		EventUserPromptSubmit,
		EventUserPromptExpansion,
		EventSessionStart,
		EventSessionEnd,
		EventStop,
		EventStopFailure,
		EventSubagentStart,
		EventSubagentStop,
		EventPreCompact,
		EventPostCompact,
		EventPreModelSwitch,
		EventPostModelSwitch,
		EventPermissionRequest,
		EventPermissionDenied,
		EventSetup,
		EventTeammateIdle,
		EventTaskCreated,
		EventTaskCompleted,
		EventElicitation,
		EventElicitationResult,
		EventConfigChange,
		EventWorktreeCreate,
		EventWorktreeRemove,
		EventInstructionsLoaded,
		EventCwdChanged,
		EventFileChanged,
		EventDirectoryAdded,
		EventMessageDisplay,
		EventPreSkillShellCommand:
		return true
	}
	return false
}

// CanBlock reports whether exit code 2 blocks (or otherwise changes) the
// action behind the event name, as Claude Code 2.1.332 documents it (spec
// §3, "Exit 2 blocks?"). For the other events, exit 2 only shows stderr
// somewhere or is ignored.
func CanBlock(name string) bool {
	switch name {
	case EventPreToolUse,
		EventPostToolBatch,
		EventUserPromptSubmit,
		EventUserPromptExpansion,
		EventStop,
		EventSubagentStop,
		EventPreCompact,
		EventPreModelSwitch,
		EventTeammateIdle,
		EventTaskCreated,
		EventTaskCompleted,
		EventElicitation,
		EventElicitationResult,
		EventConfigChange,
		EventWorktreeCreate,
		EventPreSkillShellCommand:
		return true
	}
	return false
}
