package hook

func (o *StopOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	return appendStop(dst, &o.Common, o.Block, o.Reason, EventStop, o.AdditionalContext)
}

// join merges n into a as [Chain] combines Stop answers: every handler
// runs, a block from any blocks, reasons and contexts joined.
func (a *StopOutput) join(n *StopOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinFeedback(&a.Block, &a.Reason, &a.AdditionalContext, n.Block, n.Reason, n.AdditionalContext)
	return false, nil
}

// appendStop writes the answer of a Stop or SubagentStop event. A block
// whose reason is blank carries the default reason, as every block does:
// refusing it would leave the agent free to stop, and Codex takes a blank
// reason for a failed hook.
func appendStop(dst []byte, c *Common, block bool, reason, name, context string) ([]byte, error) {
	decision, reason, err := blockFields(block, reason)
	if err != nil {
		return dst, err
	}
	return appendWire(dst, answer{common: c, decision: decision, reason: reason, specific: contextOnly(name, context)})
}

// StopError is the kind of API error that ended a turn.
type StopError string

// The values of [StopFailure.Error].
const (
	StopErrorAuthenticationFailed StopError = "authentication_failed"
	StopErrorOAuthOrgNotAllowed   StopError = "oauth_org_not_allowed"
	StopErrorAccountOnHold        StopError = "account_on_hold"
	StopErrorVerificationRequired StopError = "verification_required"
	StopErrorBillingError         StopError = "billing_error"
	StopErrorRateLimit            StopError = "rate_limit"
	StopErrorOverloaded           StopError = "overloaded"
	StopErrorInvalidRequest       StopError = "invalid_request"
	StopErrorModelNotFound        StopError = "model_not_found"
	StopErrorServerError          StopError = "server_error"
	StopErrorUnknown              StopError = "unknown"
	StopErrorMaxOutputTokens      StopError = "max_output_tokens"
	StopErrorCloudCredentialError StopError = "cloud_credential_error"
)
