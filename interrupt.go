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
