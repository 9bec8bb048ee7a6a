package hook

func (o *TeammateIdleOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventTeammateIdle); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common})
}

// join merges n into a as [Chain] combines TeammateIdle answers: the common
// fields only.
func (a *TeammateIdleOutput) join(n *TeammateIdleOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return false, nil
}

func (o *TaskCreatedOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventTaskCreated); err != nil {
		return dst, err
	}
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

func (o *TaskCompletedOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventTaskCompleted); err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: &o.Common})
}

// join merges n into a as [Chain] combines TaskCompleted answers: the common
// fields only.
func (a *TaskCompletedOutput) join(n *TaskCompletedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	return false, nil
}
