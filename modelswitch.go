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

// EventPreModelSwitch fires before a requested model switch.
const EventPreModelSwitch = "PreModelSwitch"

// PreModelSwitch fires before a requested model switch. The matcher is
// tested against the canonical id of ToModel. The answer can allow the
// switch without the interactive cache-miss confirmation, cancel it, or
// ask the user (see [PreModelSwitchOutput]); exit code 2 ([Block])
// cancels it, with stderr shown to the user.
type PreModelSwitch struct {
	Event
	// FromModel is the resolved id of the model before the switch.
	FromModel string `json:"from_model"`
	// ToModel is the resolved id of the model after the switch.
	ToModel string `json:"to_model"`
	// RequestedModel is what was asked for: an alias such as "opus" or a
	// full id; empty for the default model (null on the wire).
	RequestedModel string `json:"requested_model"`
	// Source says how the switch was requested (command, picker or sdk).
	Source ModelSwitchSource `json:"source"`
	// ContextTokens is the number of prompt tokens the next request
	// re-sends.
	ContextTokens int64 `json:"context_tokens"`
	// PromptCacheWarm is true when the current model's prompt cache is
	// probably still warm (the switch then forfeits it).
	PromptCacheWarm bool `json:"prompt_cache_warm"`
	// CacheTTL is the prompt cache's lifetime.
	CacheTTL CacheTTL `json:"cache_ttl"`
	// EstimatedCacheWriteUSD is the estimated cost of re-caching
	// ContextTokens on ToModel, in US dollars.
	EstimatedCacheWriteUSD float64 `json:"estimated_cache_write_usd"`
	// Pricing says where that estimate's prices came from.
	Pricing Pricing `json:"pricing"`
}

// PreModelSwitchOutput is the answer to a [PreModelSwitch] event.
type PreModelSwitchOutput struct {
	Common

	// Decision is [Allow] (switch without the interactive cache-miss
	// confirmation), [Deny] (cancel the switch) or [Ask] (ask the user to
	// confirm; a headless session refuses instead). This event has no
	// Defer.
	Decision PermissionDecision
	// Reason explains the decision.
	Reason string
}

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

// EventPostModelSwitch fires after the model changed.
const EventPostModelSwitch = "PostModelSwitch"

// PostModelSwitch fires after the model changed. The matcher is tested
// against the canonical id of ToModel. Nothing can be decided; the answer
// can add context for the next request to the new model, as JSON or as
// plain text (see [PostModelSwitchOutput]).
type PostModelSwitch struct {
	Event
	// FromModel is the resolved id of the model before the switch.
	FromModel string `json:"from_model"`
	// ToModel is the resolved id of the model after the switch.
	ToModel string `json:"to_model"`
	// RequestedModel is what was asked for; empty for the default model
	// (null on the wire).
	RequestedModel string `json:"requested_model"`
	// Source says how the switch happened.
	Source ModelSwitchSource `json:"source"`
	// ContextTokens is the number of prompt tokens the next request
	// re-sends.
	ContextTokens int64 `json:"context_tokens"`
	// PromptCacheWarm is true when the previous model's prompt cache was
	// probably still warm.
	PromptCacheWarm bool `json:"prompt_cache_warm"`
	// CacheTTL is the prompt cache's lifetime.
	CacheTTL CacheTTL `json:"cache_ttl"`
	// EstimatedCacheWriteUSD is the estimated cost of re-caching
	// ContextTokens on ToModel, in US dollars.
	EstimatedCacheWriteUSD float64 `json:"estimated_cache_write_usd"`
	// Pricing says where that estimate's prices came from.
	Pricing Pricing `json:"pricing"`
}

// PostModelSwitchOutput is the answer to a [PostModelSwitch] event.
type PostModelSwitchOutput struct {
	Common

	// AdditionalContext reaches the model with the next request the new
	// model serves.
	AdditionalContext string
	// Text, when set, is the whole answer: it is written on stdout as
	// plain text, which Claude Code gives to Claude with the next request.
	// Every other field must be empty; the trimmed text must not start
	// with "{".
	Text string
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
