package hook

// InterruptSource says who stopped a turn.
type InterruptSource string

// The values of [Interrupt.Source].
const (
	// InterruptSourceUser: a person, and any client request or denial that
	// does not say who sent it, such as an SDK program's interrupt().
	InterruptSourceUser InterruptSource = "user"
	// InterruptSourceSession: another session's Claude.
	InterruptSourceSession InterruptSource = "session"
	// InterruptSourceSystem: a PermissionRequest hook, a plugin, a
	// permission check, or an app or service that says it acted by itself.
	InterruptSourceSystem InterruptSource = "system"
)

// InterruptReason says what ended a turn.
type InterruptReason string

// The values of [Interrupt.Reason].
const (
	// InterruptReasonStop: a stop (Esc, Ctrl+C, an interrupt request).
	InterruptReasonStop InterruptReason = "stop"
	// InterruptReasonPermissionDenied: a denied permission.
	InterruptReasonPermissionDenied InterruptReason = "permission_denied"
	// InterruptReasonRewind: a return to an earlier message, or to edit
	// the prompt.
	InterruptReasonRewind InterruptReason = "rewind"
	// InterruptReasonOther: anything else.
	InterruptReasonOther InterruptReason = "other"
)

// InterruptVia says how a stop arrived.
type InterruptVia string

// The values of [Interrupt.Via].
const (
	// InterruptViaTerminal: at the terminal Claude Code runs in.
	InterruptViaTerminal InterruptVia = "terminal"
	// InterruptViaClient: as a request from an app, a phone, an SDK
	// program or a service (a stream-json control request, for one).
	InterruptViaClient InterruptVia = "client"
)

// EventInterrupt fires when an interrupt ended the main conversation's turn.
const EventInterrupt = "Interrupt"

// Interrupt fires once when an interrupt ends the main conversation's turn
// (Esc or Ctrl+C, an SDK program's or app's interrupt request, a denied
// permission that stops the turn, a rewind), except where the work goes on
// by itself or Claude Code is exiting. The matcher is tested against
// Source. Nothing can be decided: Claude Code ignores the exit code and
// the answer (see [InterruptOutput]); the hook has 30 seconds.
//
// Codex sends Interrupt too, with turn_id and model (read them with
// [Event.Field]) and without Source, Reason or Via.
type Interrupt struct {
	Event
	// Source says who stopped the turn.
	Source InterruptSource `json:"source"`
	// Reason says what ended the turn.
	Reason InterruptReason `json:"reason"`
	// Via says how the stop arrived, where Claude Code knows it; empty
	// otherwise.
	Via InterruptVia `json:"via,omitempty"`
}

// InterruptOutput is the answer to an [Interrupt] event: only the common
// fields. Claude Code ignores every one of them; Codex reads SystemMessage
// and refuses the others.
type InterruptOutput struct {
	Common
}
