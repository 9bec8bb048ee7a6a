package hook

func (o *SubagentStartOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventSubagentStart); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common, specific: contextOnly(EventSubagentStart, o.AdditionalContext)})
}

// join merges n into a as [Chain] combines SubagentStart answers: contexts
// joined.
func (a *SubagentStartOutput) join(n *SubagentStartOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
	return false, nil
}

func (o *SubagentStopOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventSubagentStop); err != nil {
		return dst, err
	}
	return appendStop(dst, &o.Common, o.Block, o.Reason, EventSubagentStop, o.AdditionalContext)
}

// join merges n into a as [Chain] combines SubagentStop answers: every handler
// runs, a block from any blocks, reasons and contexts joined.
func (a *SubagentStopOutput) join(n *SubagentStopOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinFeedback(&a.Block, &a.Reason, &a.AdditionalContext, n.Block, n.Reason, n.AdditionalContext)
	return false, nil
}
