package hook

func (o *PermissionDeniedOutput) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, EventPermissionDenied); err != nil {
		return dst, err
	}
	a := answer{common: &o.Common}
	if o.Retry {
		a.specific = &permissionDeniedSpecific{HookEventName: EventPermissionDenied, Retry: true}
	}
	return appendWire(dst, a)
}

// join merges n into a as [Chain] combines PermissionDenied answers: retry
// from any.
func (a *PermissionDeniedOutput) join(n *PermissionDeniedOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	a.Retry = a.Retry || n.Retry
	return false, nil
}
