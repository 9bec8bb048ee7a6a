package hook

// EventStop fires when the main agent finished its turn.
const EventStop = "Stop"

// Stop fires when Claude (the main agent) has finished its turn. It has
// no matcher. The answer can keep Claude going with an instruction or with
// feedback (see [StopOutput]); exit code 2 ([Block]) keeps it going too,
// with stderr as the reason. Check StopHookActive to avoid loops: Claude
// Code ends the turn anyway after 8 consecutive continuations.
type Stop struct {
	Event
	// StopHookActive is true when the turn already goes on because of a
	// Stop hook.
	StopHookActive bool `json:"stop_hook_active"`
	// LastAssistantMessage is the text of Claude's final message.
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
	// BackgroundTasks is the background work still in flight (empty when
	// none), so a hook can tell "done" from "waiting for background work".
	BackgroundTasks []BackgroundTask `json:"background_tasks,omitempty"`
	// SessionCrons are the session's scheduled wake-ups.
	SessionCrons []SessionCron `json:"session_crons,omitempty"`
}

// BackgroundTask summarises one piece of background work in flight.
type BackgroundTask struct {
	// ID is the task's id.
	ID string `json:"id"`
	// Type is a friendly label: "shell", "subagent", "monitor",
	// "workflow", "teammate", "cloud session", "MCP task", or a raw kind.
	Type string `json:"type"`
	// Status is the task's status, e.g. "running".
	Status string `json:"status"`
	// Description describes the task (capped at 1000 characters with a
	// "… [+N chars]" marker).
	Description string `json:"description"`
	// Command is the shell command line (shell tasks only; capped too).
	Command string `json:"command,omitempty"`
	// AgentType is the subagent's type (subagent tasks only).
	AgentType string `json:"agent_type,omitempty"`
	// Server is the MCP server (monitor and MCP tasks only).
	Server string `json:"server,omitempty"`
	// Tool is the MCP tool (monitor and MCP tasks only).
	Tool string `json:"tool,omitempty"`
	// Name is the workflow's name (workflow tasks only).
	Name string `json:"name,omitempty"`
}

// SessionCron summarises one scheduled wake-up of the session (CronCreate,
// ScheduleWakeup, /loop).
type SessionCron struct {
	// ID is the job's id.
	ID string `json:"id"`
	// Schedule is a 5-field cron schedule.
	Schedule string `json:"schedule"`
	// Recurring is true for a repeating job.
	Recurring bool `json:"recurring"`
	// Prompt is the prompt the job runs (capped at 1000 characters).
	Prompt string `json:"prompt"`
}

// StopOutput is the answer to a [Stop] event. All the common fields are
// honoured; Halt stops everything.
type StopOutput struct {
	Common

	// Block writes "decision": "block": Claude does not stop, and Reason
	// is its next instruction. A block whose Reason is blank (empty or
	// only white space) is written with the default reason "blocked by
	// hook", as [Block] is.
	Block bool
	// Reason is Claude's next instruction; it needs Block.
	Reason string
	// AdditionalContext is feedback for Claude that is not an error: the
	// conversation goes on so that Claude can act on it ("Stop hook
	// feedback"). It counts towards the 8-continuation cap.
	AdditionalContext string
}

// StopError is the kind of API error that ended a turn.
type StopError string

// The values of [StopFailure.Error].
const (
	StopErrorAuthenticationFailed StopError = "authentication_failed"
	StopErrorOAuthOrgNotAllowed   StopError = "oauth_org_not_allowed"
	StopErrorAccountOnHold        StopError = "account_on_hold"
	StopErrorVerificationRequired StopError = "verification_required"
	StopErrorBillingError         StopError = "billing_error"
	StopErrorRateLimit            StopError = "rate_limit"
	StopErrorOverloaded           StopError = "overloaded"
	StopErrorInvalidRequest       StopError = "invalid_request"
	StopErrorModelNotFound        StopError = "model_not_found"
	StopErrorServerError          StopError = "server_error"
	StopErrorUnknown              StopError = "unknown"
	StopErrorMaxOutputTokens      StopError = "max_output_tokens"
	StopErrorCloudCredentialError StopError = "cloud_credential_error"
)

// EventStopFailure fires when a turn ended on an API error instead of Stop.
const EventStopFailure = "StopFailure"

// StopFailure fires instead of Stop when the turn ended because of an API
// error. The matcher is tested against Error. Nothing can be decided:
// Claude Code ignores the exit code and every answer field except
// TerminalSequence.
type StopFailure struct {
	Event
	// Error is the kind of error.
	Error StopError `json:"error"`
	// ErrorDetails gives details, e.g. "429 Too Many Requests".
	ErrorDetails string `json:"error_details,omitempty"`
	// LastAssistantMessage is the rendered error text, e.g. "API Error:
	// Rate limit reached".
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
}

// StopFailureOutput is the answer to a [StopFailure] event: only the
// common fields, of which Claude Code only uses TerminalSequence.
type StopFailureOutput struct {
	Common
}
