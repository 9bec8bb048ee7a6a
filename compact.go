package hook

// CompactTrigger says what started a compaction.
type CompactTrigger string

// The values of [PreCompact.Trigger] and [PostCompact.Trigger].
const (
	// CompactManual: the /compact command.
	CompactManual CompactTrigger = "manual"
	// CompactAuto: automatic compaction of a full context.
	CompactAuto CompactTrigger = "auto"
)

// EventPreCompact fires before the conversation is compacted.
const EventPreCompact = "PreCompact"

// PreCompact fires before the conversation is compacted. The matcher is
// tested against Trigger. The answer can block the compaction, or add
// instructions for it as plain text (see [PreCompactOutput]); exit code 2
// ([Block]) blocks it too (for /compact, stderr is shown to the user).
type PreCompact struct {
	Event
	// Trigger says what started the compaction.
	Trigger CompactTrigger `json:"trigger"`
	// CustomInstructions are the instructions given to /compact; empty
	// when there are none (null on the wire).
	CustomInstructions string `json:"custom_instructions"`
}

// PreCompactOutput is the answer to a [PreCompact] event. Claude Code
// discards Halt, StopReason and SystemMessage for this event.
type PreCompactOutput struct {
	Common

	// Block writes "decision": "block": the compaction does not happen.
	Block bool
	// Reason explains the block; it needs Block.
	Reason string
	// Text, when set, is the whole answer: it is written on stdout as
	// plain text, which Claude Code appends to the compaction
	// instructions. Every other field must be empty; the trimmed text
	// must not start with "{".
	Text string
}

func (o *PreCompactOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	if o.Text != "" {
		return appendText(dst, o.Text, otherThanText(o))
	}
	decision, reason, err := blockFields(o.Block, o.Reason)
	if err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common, decision: decision, reason: reason})
}

// join merges n into a as [Chain] combines PreCompact answers: the first
// block wins and stops the chain; texts are joined, and text next to a
// JSON answer is an error (PreCompact has no JSON for it).
func (a *PreCompactOutput) join(n *PreCompactOutput) (stop bool, err error) {
	if n.Block {
		c := a.Common
		*a = *n
		c.join(n.Common)
		a.Common, a.Text = c, ""
		return true, nil
	}
	if err := joinPlainText(&a.Text, nil, a, n, n.Text); err != nil {
		return false, err
	}
	a.Common.join(n.Common)
	return false, nil
}

// EventPostCompact fires after the conversation was compacted.
const EventPostCompact = "PostCompact"

// PostCompact fires after the conversation was compacted. The matcher is
// tested against Trigger. Nothing can be decided; plain stdout is shown
// to the user (see [PostCompactOutput]), and so is stderr on exit code 2.
type PostCompact struct {
	Event
	// Trigger says what started the compaction.
	Trigger CompactTrigger `json:"trigger"`
	// CompactSummary is the conversation summary the compaction produced.
	CompactSummary string `json:"compact_summary"`
}

// PostCompactOutput is the answer to a [PostCompact] event. Claude Code
// discards Halt, StopReason and SystemMessage for this event.
type PostCompactOutput struct {
	Common

	// Text, when set, is the whole answer: it is written on stdout as
	// plain text, which Claude Code shows to the user. Every other field
	// must be empty; the trimmed text must not start with "{".
	Text string
}

func (o *PostCompactOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	if o.Text != "" {
		return appendText(dst, o.Text, otherThanText(o))
	}
	return appendWire(dst, answer{common: &o.Common})
}

// join merges n into a as [Chain] combines PostCompact answers: texts are
// joined, and text next to a JSON answer is an error (PostCompact has no
// JSON for it).
func (a *PostCompactOutput) join(n *PostCompactOutput) (stop bool, err error) {
	if err := joinPlainText(&a.Text, nil, a, n, n.Text); err != nil {
		return false, err
	}
	a.Common.join(n.Common)
	return false, nil
}
