package hook

// Everything about an event is written by hand in its own file, one per
// event or group: its name constant (EventPreToolUse = "PreToolUse") with
// the doc that says when it fires, the declarations of the event struct,
// its answer and its hookSpecificOutput with their docs, the named value
// types of its fields, and the answer's methods — appendForm (validation
// and the wire form), join (how [Chain] combines it with the answers
// before it) and, where the event has them, its rewrite and its own
// refusal rule:
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
//	interrupt.go             Interrupt
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
// The protocol table in internal/protocol holds the facts of each event,
// and `go generate ./...` turns them into code: into events_gen.go the
// list of events in the Agent SDK's order, knownEvent, canBlock,
// eventNames, the matcher fields, the block forms and which events honour
// a halt, and into adapters_gen.go the typed adapters ([PreToolUseFunc]
// and one per event) with the answer methods a table row implies
// (combine, appendAnswer's event check, the deny and feedback block
// forms, the plain-text forms, and appendForm and join where the Answer
// column says the answer's fields decide them). The generator reads the
// name constants from the files above and refuses a row whose constant is
// missing, misspelt, undocumented or not in the file of its input struct.
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
