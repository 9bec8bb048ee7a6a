package hook

// EventSubagentStart fires when a subagent is spawned.
const EventSubagentStart = "SubagentStart"

// SubagentStart fires when a subagent is spawned. The matcher is tested
// against the agent type. Event.AgentID and Event.AgentType are always
// set. It cannot block; the answer can add context for the subagent (see
// [SubagentStartOutput]). Exit code 2 only shows stderr to the user.
type SubagentStart struct {
	Event
}

// SubagentStartOutput is the answer to a [SubagentStart] event.
type SubagentStartOutput struct {
	Common

	// AdditionalContext is added at the start of the subagent's
	// conversation.
	AdditionalContext string
}

// EventSubagentStop fires when a subagent finished.
const EventSubagentStop = "SubagentStop"

// SubagentStop fires when a subagent has finished. The matcher is tested
// against the agent type; Event.AgentID and Event.AgentType are always
// set. The answer can keep the subagent going (see [SubagentStopOutput]);
// exit code 2 ([Block]) does too, with stderr as its next instruction.
type SubagentStop struct {
	Event
	// StopHookActive is true when the subagent already goes on because of
	// a SubagentStop hook.
	StopHookActive bool `json:"stop_hook_active"`
	// AgentTranscriptPath is the subagent's transcript
	// (…/<session>/subagents/agent-<id>.jsonl); "" in some hosted modes.
	AgentTranscriptPath string `json:"agent_transcript_path"`
	// LastAssistantMessage is the text of the subagent's final message.
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
	// BackgroundTasks is the parent session's background work in flight.
	BackgroundTasks []BackgroundTask `json:"background_tasks,omitempty"`
	// SessionCrons are the parent session's scheduled wake-ups.
	SessionCrons []SessionCron `json:"session_crons,omitempty"`
}

// SubagentStopOutput is the answer to a [SubagentStop] event. All the
// common fields are honoured.
type SubagentStopOutput struct {
	Common

	// Block writes "decision": "block": the subagent does not stop, and
	// Reason is its next instruction. A block whose Reason is blank
	// (empty or only white space) is written with the default reason
	// "blocked by hook", as [Block] is.
	Block bool
	// Reason is the subagent's next instruction; it needs Block.
	Reason string
	// AdditionalContext is feedback for the subagent that is not an
	// error; the subagent goes on so that it can act on it.
	AdditionalContext string
}
