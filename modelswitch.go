package hook

import (
	"fmt"
)

// ModelSwitchSource says how a model switch was requested.
type ModelSwitchSource string

// The values of [PreModelSwitch.Source] and [PostModelSwitch.Source].
const (
	// ModelSwitchCommand: /model, the /config model row, or enabling fast
	// mode.
	ModelSwitchCommand ModelSwitchSource = "command"
	// ModelSwitchPicker: an interactive model picker.
	ModelSwitchPicker ModelSwitchSource = "picker"
	// ModelSwitchSDK: a headless set_model (SDK, Remote Control, IDE).
	ModelSwitchSDK ModelSwitchSource = "sdk"
	// ModelSwitchAuto: an automatic fallback or other programmatic change
	// (PostModelSwitch only).
	ModelSwitchAuto ModelSwitchSource = "auto"
	// ModelSwitchResume: the model was restored on resume (PostModelSwitch
	// only).
	ModelSwitchResume ModelSwitchSource = "resume"
)

// CacheTTL is the lifetime of the prompt cache.
type CacheTTL string

// The values of CacheTTL.
const (
	CacheTTL5m CacheTTL = "5m"
	CacheTTL1h CacheTTL = "1h"
)

// Pricing says where a cost estimate's prices came from.
type Pricing string

// The values of Pricing.
const (
	// PricingConfigured: the managed modelPricing setting.
	PricingConfigured Pricing = "configured"
	// PricingCatalog: list prices.
	PricingCatalog Pricing = "catalog"
	// PricingDefault: the model is unknown; the default tier was assumed.
	PricingDefault Pricing = "default"
)

func (o *PreModelSwitchOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	switch o.Decision {
	case "", Allow, Deny, Ask:
	default:
		return dst, fmt.Errorf("permission decision %q is not one of allow, deny, ask (a model switch cannot be deferred)", o.Decision)
	}
	return appendDecision(dst, &o.Common, EventPreModelSwitch, o.Decision, o.Reason)
}

// join merges n into a as [Chain] combines PreModelSwitch answers: the
// decision by precedence; a deny stops the chain.
func (a *PreModelSwitchOutput) join(n *PreModelSwitchOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinDecision(&a.Decision, &a.Reason, n.Decision, n.Reason)
	return n.Decision == Deny, nil
}

func (o *PostModelSwitchOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	if o.Text != "" {
		return appendText(dst, o.Text, otherThanText(o))
	}
	return appendWire(dst, answer{common: &o.Common, specific: contextOnly(EventPostModelSwitch, o.AdditionalContext)})
}

// join merges n into a as [Chain] combines PostModelSwitch answers: texts
// stay text while every answer is text, contexts joined.
func (a *PostModelSwitchOutput) join(n *PostModelSwitchOutput) (stop bool, err error) {
	if err := joinPlainText(&a.Text, &a.AdditionalContext, a, n, n.Text); err != nil {
		return false, err
	}
	a.Common.join(n.Common)
	a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
	return false, nil
}
