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
