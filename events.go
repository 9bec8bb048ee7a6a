package hook

// The event constants, knownEvent, canBlock, eventNames, the matcher
// fields and the typed adapters ([PreToolUseFunc] and one per event) are
// generated into events_gen.go from the protocol table in
// internal/protocol; the event structs, their answers, docs and
// validation are written by hand, one file per event or group:
//
//	pretooluse.go            PreToolUse
//	permissionrequest.go     PermissionRequest
//	permissiondenied.go      PermissionDenied
//	posttooluse.go           PostToolUse, PostToolUseFailure
//	posttoolbatch.go         PostToolBatch
//	notification.go          Notification
//	prompt.go                UserPromptSubmit, UserPromptExpansion
//	session.go               SessionStart, SessionEnd, Setup
//	stop.go                  Stop, StopFailure
//	subagent.go              SubagentStart, SubagentStop
//	compact.go               PreCompact, PostCompact
//	modelswitch.go           PreModelSwitch, PostModelSwitch
//	task.go                  TeammateIdle, TaskCreated, TaskCompleted
//	elicitation.go           Elicitation, ElicitationResult
//	configchange.go          ConfigChange
//	worktree.go              WorktreeCreate, WorktreeRemove
//	files.go                 InstructionsLoaded, CwdChanged, FileChanged, DirectoryAdded
//	messagedisplay.go        MessageDisplay
//	preskillshellcommand.go  PreSkillShellCommand
//
//go:generate go run ./internal/protocol/gen

// blockForm says how a block is written as a JSON answer (an HTTP hook
// cannot exit 2, and a composed answer may carry a block).
type blockForm int

const (
	// blockNone: only exit 2 blocks the event.
	blockNone blockForm = iota
	// blockDecision: the top-level "decision":"block" with "reason".
	blockDecision
	// blockDeny: the hookSpecificOutput's permission decision "deny".
	blockDeny
)
