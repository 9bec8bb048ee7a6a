package hook

// EventTeammateIdle fires when an agent-team teammate is about to go idle.
const EventTeammateIdle = "TeammateIdle"

// TeammateIdle fires when a teammate of an agent team is about to go idle.
// It has no matcher. Exit code 2 ([Block]) keeps the teammate working,
// with stderr as feedback; Halt in the answer stops the teammate (see
// [TeammateIdleOutput]).
type TeammateIdle struct {
	Event
	// TeammateName is the teammate's name.
	TeammateName string `json:"teammate_name"`
	// TeamName is the team's name (deprecated; still sent).
	TeamName string `json:"team_name"`
}

// TeammateIdleOutput is the answer to a [TeammateIdle] event: only the
// common fields; Halt stops the teammate.
type TeammateIdleOutput struct {
	Common
}

// EventTaskCreated fires when the TaskCreate tool creates a task.
const EventTaskCreated = "TaskCreated"

// TaskCreated fires when the TaskCreate tool creates a task. It has no
// matcher. The answer can refuse the task (see [TaskCreatedOutput]); exit
// code 2 ([Block]) rolls the creation back too, with stderr as the tool
// error Claude sees.
type TaskCreated struct {
	Event
	// TaskID is the task's id.
	TaskID string `json:"task_id"`
	// TaskSubject is the task's title.
	TaskSubject string `json:"task_subject"`
	// TaskDescription is the task's description, if any.
	TaskDescription string `json:"task_description,omitempty"`
	// TeammateName is the teammate creating it, if any.
	TeammateName string `json:"teammate_name,omitempty"`
	// TeamName is the team's name (deprecated).
	TeamName string `json:"team_name,omitempty"`
}

// TaskCreatedOutput is the answer to a [TaskCreated] event. Claude Code
// ignores Halt for this event.
type TaskCreatedOutput struct {
	Common

	// Block writes "decision": "block": the task creation is rolled back.
	Block bool
	// Reason explains the block to Claude; it needs Block.
	Reason string
}

// EventTaskCompleted fires when a task is being marked completed.
const EventTaskCompleted = "TaskCompleted"

// TaskCompleted fires when a task is being marked completed. It has no
// matcher. Exit code 2 ([Block]) refuses the completion, with stderr given
// to the model; Halt in the answer stops the teammate (see
// [TaskCompletedOutput]).
type TaskCompleted struct {
	Event
	// TaskID is the task's id.
	TaskID string `json:"task_id"`
	// TaskSubject is the task's title.
	TaskSubject string `json:"task_subject"`
	// TaskDescription is the task's description, if any.
	TaskDescription string `json:"task_description,omitempty"`
	// TeammateName is the teammate completing it, if any.
	TeammateName string `json:"teammate_name,omitempty"`
	// TeamName is the team's name (deprecated).
	TeamName string `json:"team_name,omitempty"`
}

// TaskCompletedOutput is the answer to a [TaskCompleted] event: only the
// common fields; Halt stops the teammate.
type TaskCompletedOutput struct {
	Common
}
