package hook

// The event constants, [KnownEvent], [CanBlock], [Events], the matcher
// fields and the typed adapters ([PreToolUseFunc] and one per event) are
// generated into events_gen.go from the protocol table in
// internal/protocol; the event structs, their answers, docs and
// validation are written by hand, one file per event or group.
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
