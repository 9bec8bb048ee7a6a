package hook

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/inputedit"
)

// EventPreToolUse fires after the model produced a tool call's arguments,
// before the permission check and the call.
const EventPreToolUse = "PreToolUse"

// PreToolUse fires after Claude produced a tool call's arguments and before
// the permission check and the call itself. Its answer can allow, deny, ask
// or defer the call, and can replace the call's input (see
// [PreToolUseOutput]). Exit code 2 ([Block]) denies the call with the
// reason.
type PreToolUse struct {
	Event
	// ToolName is the tool's current name, e.g. "Bash", "Agent" (never the
	// legacy "Task"), or "mcp__<server>__<tool>" for MCP tools.
	ToolName string `json:"tool_name"`
	// ToolInput is the call's arguments, exactly as Claude Code sent them:
	// defaults filled in and file paths made absolute. Decode it with one
	// of the typed views ([BashInput], …); build an update with [Merge],
	// [Edit] or [PreToolUse.Update], never from a decoded copy.
	ToolInput jsontext.Value `json:"tool_input"`
	// ToolUseID is the call's id ("toolu_…").
	ToolUseID string `json:"tool_use_id"`
	// MCPServer says which MCP server serves the tool; nil for built-in
	// tools.
	MCPServer *MCPServer `json:"mcp_server,omitempty"`
}

// Merge returns the call's input with the members of patch set and every
// other member kept byte for byte; see [Merge].
func (e *PreToolUse) Merge(patch any) (jsontext.Value, error) {
	return mergeWith(e.inv.vouched(), e.ToolInput, patch)
}

// Update returns the call's input with only the members changed in the
// typed view edited replaced; see [Update].
func (e *PreToolUse) Update(edited any) (jsontext.Value, error) {
	return updateCall("PreToolUse.Update", e.ToolName, e.ToolInput, edited)
}

// updateCall is [Update] for the method fn of an event that names its
// tool (PreToolUse.Update, PermissionRequest.Update): it refuses a view of
// another built-in tool than the call's, then updates the call's input.
func updateCall(fn, tool string, input jsontext.Value, edited any) (jsontext.Value, error) {
	if err := foreignView(fn, tool, reflect.TypeOf(edited)); err != nil {
		return nil, err
	}
	return Update(input, edited)
}

// PermissionDecision is a PreToolUse (or PreSkillShellCommand,
// PreModelSwitch) permission decision.
type PermissionDecision string

// The permission decisions. Several hooks: deny beats defer beats ask beats
// allow.
const (
	// Allow skips the permission prompt; deny and ask rules still apply,
	// checked against the updated input if there is one.
	Allow PermissionDecision = "allow"
	// Deny refuses the call; the reason goes to Claude.
	Deny PermissionDecision = "deny"
	// Ask forces a permission prompt; in -p mode nobody can answer, so the
	// call is refused.
	Ask PermissionDecision = "ask"
	// Defer stops a -p session with stop_reason "tool_deferred" when the
	// turn has a single tool call; ignored otherwise.
	Defer PermissionDecision = "defer"
)

// CodexRewrite is what a PreToolUse rewrite without a permission decision
// becomes under the OpenAI Codex CLI (see [PreToolUseOutput.CodexRewrite]).
//
// Claude Code and the GitHub Copilot CLI apply an UpdatedInput that comes
// without a Decision and then run their normal permission flow on the new
// input: the user (or the user's rules) still decides. Codex 0.171.0
// applies updatedInput only beside permissionDecision "allow", and an
// allow skips its approval prompt and approval policy for the call; it
// reports a hook that sends updatedInput without it Failed and runs the
// original call. So under Codex a rewrite cannot leave the decision to the
// user, and the hook's author chooses what it becomes instead.
type CodexRewrite uint8

// The choices for a rewrite without a decision under Codex.
const (
	// CodexRewriteUnset, the zero value, chooses nothing: under Codex the
	// answer is an invalid answer whose error states the trade-off and
	// names the other choices. The hook fails (exit 1, Codex runs the
	// original call through its approval policy; exit 2 when it fails
	// closed, which blocks the call). It never approves.
	CodexRewriteUnset CodexRewrite = iota
	// CodexRewriteAllow writes the rewrite with permissionDecision
	// "allow": Codex runs the rewritten call without asking, whatever its
	// approval policy says. Choose it for a rewrite you would approve
	// every time.
	CodexRewriteAllow
	// CodexRewriteSkip writes no rewrite: Codex runs the original call
	// through its approval policy, as if the hook had not rewritten it
	// (AdditionalContext and the common fields are still written).
	// Choose it for a rewrite that is a convenience.
	CodexRewriteSkip
	// CodexRewriteDeny denies the call under Codex, with Reason (the
	// model is told it; "blocked by hook" when blank), and writes no
	// rewrite. Choose it for a rewrite the call must not run without,
	// and say in Reason how the model can make the call itself.
	CodexRewriteDeny
)

// stricter returns the more cautious of two choices for one combined
// rewrite: deny, then unset (a failure), then skip, then allow.
func stricter(a, b CodexRewrite) CodexRewrite {
	rank := func(c CodexRewrite) int {
		switch c {
		case CodexRewriteAllow:
			return 0
		case CodexRewriteSkip:
			return 1
		case CodexRewriteUnset:
			return 2
		}
		return 3
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// MCPServer identifies the MCP server of an MCP tool call.
type MCPServer struct {
	// Name is the server's configuration key (untrusted text).
	Name string `json:"name"`
	// Source says where the server was defined: "sdk", "plugin", "user",
	// "project", "local", "dynamic", "managed", "enterprise", "claudeai",
	// "agent", … Trust this, not the tool-name prefix.
	Source string `json:"source"`
}

// PreToolUseOutput is the answer to a [PreToolUse] event. The zero value
// (or a nil *PreToolUseOutput) makes no decision: the normal permission
// flow runs. Silence never approves.
//
// The answer is refused before anything is written when Claude Code would
// reject or misread it: a decision other than allow, deny, ask and defer,
// a Reason without a Decision, or an UpdatedInput that is not a complete
// rewrite of the incoming tool_input. All the common fields are honoured.
//
// Tools that need the user (AskUserQuestion, ExitPlanMode, MCP tools that
// require interaction) are not satisfied by Allow alone: answer them with
// Allow and an UpdatedInput that carries the answer (for AskUserQuestion,
// add Answers with [Edit] on an [AskUserQuestionInput]).
type PreToolUseOutput struct {
	Common

	// Decision is the permission decision; empty leaves it to the normal
	// permission flow.
	Decision PermissionDecision
	// Reason explains the decision: shown to Claude for Deny, to the user
	// for Allow and Ask, ignored for Defer. A Deny whose Reason is blank
	// (empty or only white space) is written with the default reason
	// "blocked by hook", as [Block] is. Without a Decision, a Reason is
	// refused, except beside a rewrite with a CodexRewrite choice: it is
	// then the reason of the deny ([CodexRewriteDeny]) or allow
	// ([CodexRewriteAllow]) written under Codex, and not written
	// elsewhere.
	Reason string
	// UpdatedInput replaces the call's whole input. Build it from the
	// incoming ToolInput with [Merge], [Edit] or [PreToolUse.Update]: the
	// answer is refused (before anything is written) when it is not an
	// object, is empty, or lacks a member of the incoming input that is
	// not listed in Removed. An UpdatedInput equal to the incoming input
	// byte for byte is not written; under Codex, whose "allow" only
	// carries a rewrite, an Allow beside it (and its Reason) is dropped
	// with it.
	UpdatedInput jsontext.Value
	// Removed lists the tool_input members that UpdatedInput drops on
	// purpose (see [Remove]).
	Removed []string
	// CodexRewrite says what an UpdatedInput without a Decision — a
	// rewrite that leaves the permission decision to the user — becomes
	// under the OpenAI Codex CLI, which applies a rewrite only beside an
	// allow (and an allow skips its approval prompt): see [CodexRewrite].
	// The zero value makes such an answer to Codex an invalid answer that
	// names the choice; it never approves. Claude Code and the GitHub
	// Copilot CLI apply the rewrite and then run their own permission
	// flow on the new input, whatever CodexRewrite says; it is also
	// ignored beside a Decision.
	CodexRewrite CodexRewrite
	// AdditionalContext is added next to the tool result for Claude;
	// ignored with Defer.
	AdditionalContext string
	// Legacy writes Decision in the deprecated top-level form that Claude
	// Code still accepts: "decision": "approve" for [Allow], "decision":
	// "block" for [Deny], with Reason as the top-level "reason" (the deny
	// message; "blocked by hook" when blank). Only Allow and Deny have a
	// legacy form, and it cannot carry UpdatedInput or AdditionalContext.
	// New hooks should leave it false.
	Legacy bool
}

func (o *PreToolUseOutput) appendForm(dst []byte, ev *Event) ([]byte, error) {
	switch o.Decision {
	case "", Allow, Deny, Ask, Defer:
	default:
		return dst, fmt.Errorf("permission decision %q is not one of allow, deny, ask, defer", o.Decision)
	}
	upd, err := checkUpdate(ev, o.UpdatedInput, o.Removed)
	if err != nil {
		return dst, err
	}
	if o.CodexRewrite > CodexRewriteDeny {
		return dst, fmt.Errorf("CodexRewrite %d is not one of the CodexRewrite constants", o.CodexRewrite)
	}
	a := answer{common: &o.Common}
	if o.Legacy {
		return o.appendLegacy(dst, a)
	}
	if o.Reason != "" && o.Decision == "" && (o.CodexRewrite == CodexRewriteUnset || o.UpdatedInput == nil) {
		return dst, errors.New("a permission decision reason needs a decision (or, beside a rewrite, a CodexRewrite choice, whose decision it explains under Codex)")
	}
	decision, reason := o.Decision, o.Reason
	if decision == "" {
		reason = "" // only a CodexRewrite choice under Codex writes it
	}
	if decision == Allow && upd == nil && o.UpdatedInput != nil && ev.agent == AgentCodex {
		// The rewrite changed nothing and is not written (see
		// unchanged). Codex has no plain allow — its "allow" only
		// carries a rewrite, and it refuses one without updatedInput —
		// so the allow and its reason go with the rewrite: Codex then
		// runs the call as it would have with the rewrite applied.
		decision, reason = "", ""
	}
	if decision == "" && upd != nil && ev.agent == AgentCodex {
		// A rewrite that leaves the decision to the user, which Codex
		// cannot apply: the author's choice (see CodexRewrite). Unset,
		// it is written as it is, and checkCodex refuses it naming the
		// choice.
		switch o.CodexRewrite {
		case CodexRewriteAllow:
			decision, reason = Allow, o.Reason
		case CodexRewriteSkip:
			upd = nil
		case CodexRewriteDeny:
			decision, reason, upd = Deny, o.Reason, nil
		}
	}
	if decision == Deny && ev.agent == AgentCodex {
		// Claude Code ignores a rewrite beside a deny; Codex refuses the
		// answer, and would run the call the hook denies.
		upd = nil
	}
	if decision != "" || upd != nil || o.AdditionalContext != "" {
		if decision == Deny {
			reason = reasonOrDefault(reason)
		}
		a.specific = &preToolUseSpecific{
			HookEventName:            EventPreToolUse,
			PermissionDecision:       decision,
			PermissionDecisionReason: reason,
			UpdatedInput:             upd,
			AdditionalContext:        o.AdditionalContext,
		}
	}
	return appendWire(dst, a)
}

// join merges n, the next handler's answer, into a as [Chain] combines
// PreToolUse answers: the decision by precedence, the last rewrite (which
// holds every earlier one), Removed the union; a deny stops the chain.
func (a *PreToolUseOutput) join(n *PreToolUseOutput) (stop bool, err error) {
	a.Common.join(n.Common)
	joinDecision(&a.Decision, &a.Reason, n.Decision, n.Reason)
	a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)
	if n.UpdatedInput != nil {
		// The last rewrite holds every earlier one: under Codex it gets
		// the most cautious choice of the handlers that rewrote, and the
		// reasons of the handlers that chose it (an allow's reason is
		// not a deny's; an unset choice writes none, and a reason
		// beside it would make the answer invalid everywhere).
		prev := a.CodexRewrite
		if a.UpdatedInput == nil {
			prev = n.CodexRewrite
		}
		a.CodexRewrite = stricter(prev, n.CodexRewrite)
		if a.Decision == "" && n.Decision == "" {
			switch {
			case a.CodexRewrite == CodexRewriteUnset, a.UpdatedInput != nil && a.CodexRewrite != prev:
				a.Reason = ""
			}
			if n.CodexRewrite == a.CodexRewrite && a.CodexRewrite != CodexRewriteUnset {
				a.Reason = joinText(a.Reason, n.Reason)
			}
		}
		a.UpdatedInput = n.UpdatedInput
	}
	a.Removed = union(a.Removed, n.Removed)
	a.Legacy = false
	return n.Decision == Deny, nil
}

// rewrite returns the input member the answer rewrites, tool_input, and
// its new value (nil: none).
func (o *PreToolUseOutput) rewrite() (string, jsontext.Value) {
	return "tool_input", o.UpdatedInput
}

// removedMembers returns the members the rewrite drops on purpose.
func (o *PreToolUseOutput) removedMembers() []string { return o.Removed }

// appendLegacy writes the deprecated top-level form of the decision.
func (o *PreToolUseOutput) appendLegacy(dst []byte, a answer) ([]byte, error) {
	switch o.Decision {
	case Allow:
		a.decision = "approve"
	case Deny:
		a.decision = "block"
	default:
		return dst, fmt.Errorf("the legacy form has only approve (Allow) and block (Deny), not %q", o.Decision)
	}
	if o.UpdatedInput != nil || len(o.Removed) > 0 || o.AdditionalContext != "" {
		return dst, errors.New("the legacy form cannot carry UpdatedInput or AdditionalContext; Claude Code would let hookSpecificOutput override its reason (set Legacy to false)")
	}
	a.reason = o.Reason
	if o.Decision == Deny {
		a.reason = reasonOrDefault(a.reason)
	}
	return appendWire(dst, a)
}

// checkUpdate checks an answer's updatedInput, if any, against the
// event's incoming tool_input: the names read before the handler had the
// event when Serve read it, else the tool_input as it is now. It returns
// what the answer is to carry for upd: a copy of upd, a vouched Merge
// result's copy or placeholder, or nil when upd is the incoming tool_input
// byte for byte (see unchanged and inputedit.Vouching.CheckAnswer).
func checkUpdate(ev *Event, upd jsontext.Value, removed []string) (jsontext.Value, error) {
	orig, _ := ev.Field("tool_input")
	return ev.inv.vouched().CheckAnswer(orig, spacedInput(ev), upd, removed)
}

// unchanged reports whether the rewrite upd is byte for byte the event's
// member name, the value it would replace, whitespace between tokens
// aside when the input had some (see spacedInput). Such a rewrite is not
// written (the rest of the answer is): [Edit] returns the input itself
// when the edit changed nothing, and Claude Code applies the rewrites of
// parallel hooks last-wins, so a rewrite that changes nothing could undo
// another hook's real one.
func unchanged(ev *Event, name string, upd []byte) bool {
	orig, _ := ev.Field(name)
	return inputedit.Unchanged(orig, upd, spacedInput(ev))
}

// spacedInput reports whether the tool_input of ev may have whitespace
// between its tokens: not when Serve read the event's tool_input compact
// (a chain's view holds that input or a rewrite of it, which Merge,
// Update and Edit write compact). An Event built outside Serve may.
func spacedInput(ev *Event) bool {
	if ev.inv == nil {
		return true
	}
	root := ev.inv.root()
	return !root.HasInput() || !root.Compact()
}

// rewriteStands reports whether the rewrite can reach the combined
// answer: a deny or defer drops it.
func (o *PreToolUseOutput) rewriteStands() bool {
	return o.Decision != Deny && o.Decision != Defer
}

// finishCombined leaves the rewrite out of a combined final deny or
// defer: the client ignores it there.
func (o *PreToolUseOutput) finishCombined() {
	if o.Decision == Deny || o.Decision == Defer {
		o.UpdatedInput, o.Removed = nil, nil
	}
}

// preToolUseSpecific is the hookSpecificOutput of a PreToolUse answer.
type preToolUseSpecific struct {
	HookEventName            string             `json:"hookEventName"`
	PermissionDecision       PermissionDecision `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string             `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             jsontext.Value     `json:"updatedInput,omitzero"`
	AdditionalContext        string             `json:"additionalContext,omitempty"`
}
