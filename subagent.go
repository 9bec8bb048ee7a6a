package hook

func (o *SubagentStopOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	return appendStop(dst, &o.Common, o.Block, o.Reason, EventSubagentStop, o.AdditionalContext)
}

// join merges n into a as [Chain] combines SubagentStop answers: every handler
// runs, a block from any blocks, reasons and contexts joined.
func (a *SubagentStopOutput) join(n *SubagentStopOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinFeedback(&a.Block, &a.Reason, &a.AdditionalContext, n.Block, n.Reason, n.AdditionalContext)
	return false, nil
}
