package hook

func (o *PostToolBatchOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	decision, reason, err := blockFields(o.Block, o.Reason)
	if err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common, decision: decision, reason: reason,
		specific: contextOnly(EventPostToolBatch, o.AdditionalContext)})
}

// join merges n into a as [Chain] combines PostToolBatch answers: every handler
// runs, a block from any blocks, reasons and contexts joined.
func (a *PostToolBatchOutput) join(n *PostToolBatchOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinFeedback(&a.Block, &a.Reason, &a.AdditionalContext, n.Block, n.Reason, n.AdditionalContext)
	return false, nil
}
