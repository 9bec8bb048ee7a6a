package hook

func (o *PermissionDeniedOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
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
