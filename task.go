package hook

func (o *TaskCreatedOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	decision, reason, err := blockFields(o.Block, o.Reason)
	if err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common, decision: decision, reason: reason})
}

// join merges n into a as [Chain] combines TaskCreated answers: the first block
// wins and stops the chain.
func (a *TaskCreatedOutput) join(n *TaskCreatedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return joinGate(&a.Block, &a.Reason, n.Block, n.Reason), nil
}
