package agent

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/gohooks/hook/internal/rawjson"
)

// CodexVersion is the Codex CLI release whose hook schemas and answer
// rules CheckCodexAnswer applies (npm @openai/codex, the
// <event>.command.output schemas embedded in its binary and the rules of
// its output parser; see docs/agents.md).
const CodexVersion = "0.171.0"

// CodexError is an answer Codex would refuse or misread: Field is the
// answer's member path (such as "hookSpecificOutput.permissionDecision"),
// Rule what Codex requires of it.
type CodexError struct {
	Event string
	Field string
	Rule  string
}

// Error says which field of which answer breaks which rule.
func (e *CodexError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("Codex would refuse this %s answer: %s", e.Event, e.Rule)
	}
	return fmt.Sprintf("Codex would refuse this %s answer: %s: %s", e.Event, e.Field, e.Rule)
}

// kind is the JSON type a field of a Codex answer takes.
type kind uint8

const (
	kString kind = iota // a string, or null where Codex reads an Option
	kBool               // true or false; null is refused
	kAny                // any JSON value
	kObject             // an object described by spec.members
)

// spec describes one field of a Codex answer, as its schema does.
type spec struct {
	kind     kind
	nullable bool            // Codex reads it as an Option: null means absent
	enum     []string        // allowed string values, when closed
	members  map[string]spec // for kObject: its closed set of members
	required []string        // for kObject: members it must have
}

var (
	str      = spec{kind: kString, nullable: true}
	boolean  = spec{kind: kBool}
	anyValue = spec{kind: kAny, nullable: true}
)

// universal are the members every Codex answer but Interrupt's accepts.
func universal(extra map[string]spec) map[string]spec {
	m := map[string]spec{"continue": boolean, "stopReason": str, "suppressOutput": boolean, "systemMessage": str}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// specific is the hookSpecificOutput of event with the members extra.
func specific(event string, extra map[string]spec) spec {
	m := map[string]spec{"hookEventName": {kind: kString, enum: []string{event}}}
	for k, v := range extra {
		m[k] = v
	}
	return spec{kind: kObject, nullable: true, members: m, required: []string{"hookEventName"}}
}

var blockOnly = spec{kind: kString, nullable: true, enum: []string{"block"}}

// codexOutputs returns the <event>.command.output schemas of Codex
// CodexVersion: every object is closed (additionalProperties: false).
// SessionEnd has an input schema and no output: Codex reads no answer.
// The table is built on first use rather than at start-up: a command
// hook that never meets Codex pays nothing for it.
func codexOutputs() map[string]map[string]spec {
	codexOutputsOnce.Do(func() { codexOutputsTable = buildCodexOutputs() })
	return codexOutputsTable
}

var (
	codexOutputsOnce  sync.Once
	codexOutputsTable map[string]map[string]spec
)

// buildCodexOutputs builds the table codexOutputs returns.
func buildCodexOutputs() map[string]map[string]spec {
	withContext := map[string]spec{"additionalContext": str}
	return map[string]map[string]spec{
		"PreToolUse": universal(map[string]spec{
			"decision": {kind: kString, nullable: true, enum: []string{"approve", "block"}},
			"reason":   str,
			"hookSpecificOutput": specific("PreToolUse", map[string]spec{
				"additionalContext":        str,
				"permissionDecision":       {kind: kString, nullable: true, enum: []string{"allow", "deny", "ask"}},
				"permissionDecisionReason": str,
				"updatedInput":             anyValue,
			}),
		}),
		"PermissionRequest": universal(map[string]spec{
			"hookSpecificOutput": specific("PermissionRequest", map[string]spec{
				"decision": {kind: kObject, nullable: true, required: []string{"behavior"}, members: map[string]spec{
					"behavior":           {kind: kString, enum: []string{"allow", "deny"}},
					"interrupt":          boolean,
					"message":            str,
					"updatedInput":       anyValue,
					"updatedPermissions": anyValue,
				}},
			}),
		}),
		"PostToolUse": universal(map[string]spec{
			"decision": blockOnly,
			"reason":   str,
			"hookSpecificOutput": specific("PostToolUse", map[string]spec{
				"additionalContext":    str,
				"updatedMCPToolOutput": anyValue,
			}),
		}),
		"UserPromptSubmit": universal(map[string]spec{
			"decision":           blockOnly,
			"reason":             str,
			"hookSpecificOutput": specific("UserPromptSubmit", withContext),
		}),
		"Stop":          universal(map[string]spec{"decision": blockOnly, "reason": str}),
		"SubagentStop":  universal(map[string]spec{"decision": blockOnly, "reason": str}),
		"SessionStart":  universal(map[string]spec{"hookSpecificOutput": specific("SessionStart", withContext)}),
		"SubagentStart": universal(map[string]spec{"hookSpecificOutput": specific("SubagentStart", withContext)}),
		"PreCompact":    universal(nil),
		"PostCompact":   universal(nil),
		"Interrupt":     {"systemMessage": str},
	}
}

// CodexEvents returns whether Codex sends event to a hook, and whether it
// reads an answer to it.
func CodexEvents(event string) (sent, answered bool) {
	if event == "SessionEnd" {
		return true, false
	}
	_, ok := codexOutputs()[event]
	return ok, ok
}

// CheckCodexAnswer checks the encoded answer to event (a Claude Code event
// name, as Codex uses the same names) against what Codex accepts: the
// closed <event>.command.output schema (every member known, of its type
// and values) and the rules Codex applies after parsing, under which it
// reports the hook Failed and ignores the answer, or misreads it:
//
//   - PreToolUse: no continue:false, stopReason or suppressOutput:true; a
//     permissionDecision "allow" only with updatedInput, and updatedInput
//     only with "allow"; no "ask"; "deny" with a non-blank
//     permissionDecisionReason, which needs a permissionDecision; the
//     legacy decision "block" with a non-blank reason, no "approve", no
//     reason without a decision.
//   - PermissionRequest: no continue:false, stopReason or
//     suppressOutput:true; a decision without updatedInput,
//     updatedPermissions or interrupt:true.
//   - PostToolUse: no suppressOutput:true; decision "block" with a
//     non-blank reason; no reason without decision while continuing.
//   - UserPromptSubmit, Stop, SubagentStop: decision "block" with a
//     non-blank reason.
//   - SessionEnd: no answer at all (Codex reads none).
//
// An empty answer (no output, or only white space) is always accepted. The
// error is a *CodexError naming the field and the rule. These are the
// rules of a hook Codex waits for; one whose handler says "async": true
// is checked by CheckCodexAsyncAnswer (an answer CheckCodexAnswer accepts
// fits its schema too).
func CheckCodexAnswer(event string, answer []byte) error {
	if len(strings.TrimSpace(string(answer))) == 0 {
		return nil
	}
	top, ok := codexOutputs()[event]
	if !ok {
		if sent, _ := CodexEvents(event); sent {
			return &CodexError{Event: event, Rule: "Codex reads no answer to this event: write nothing"}
		}
		return &CodexError{Event: event, Rule: "Codex sends no " + event + " event, so no answer to it can be read"}
	}
	ms, err := rawjson.Members(answer)
	if err != nil {
		return &CodexError{Event: event, Rule: "the answer must be one JSON object (" + err.Error() + ")"}
	}
	if err := checkAsyncMember(event, ms); err != nil {
		return err
	}
	if err := checkMembers(event, "", ms, top, nil); err != nil {
		return err
	}
	return checkCodexRules(event, ms)
}

// checkMembers checks the members ms of the object at prefix against
// allowed, a closed schema with the required members required.
func checkMembers(event, prefix string, ms []rawjson.Member, allowed map[string]spec, required []string) error {
	for _, m := range ms {
		name := prefix + m.Key
		sp, ok := allowed[m.Key]
		if !ok {
			return &CodexError{Event: event, Field: name, Rule: "not a field of Codex's " + event + " answer (its objects are closed: " + fieldList(allowed) + ")"}
		}
		if err := checkValue(event, name, m.Value, sp); err != nil {
			return err
		}
	}
	for _, r := range required {
		if _, ok := rawjson.Find(ms, r); !ok {
			return &CodexError{Event: event, Field: prefix + r, Rule: "required"}
		}
	}
	return nil
}

// checkValue checks the raw value v of the field name against sp.
func checkValue(event, name string, v []byte, sp spec) error {
	if string(v) == "null" {
		if sp.nullable {
			return nil
		}
		return &CodexError{Event: event, Field: name, Rule: "must not be null"}
	}
	switch sp.kind {
	case kBool:
		if string(v) != "true" && string(v) != "false" {
			return &CodexError{Event: event, Field: name, Rule: "must be true or false, not " + rawjson.KindName(v)}
		}
	case kString:
		if v[0] != '"' {
			return &CodexError{Event: event, Field: name, Rule: "must be a string, not " + rawjson.KindName(v)}
		}
		if sp.enum != nil {
			s := string(rawjson.AppendExactUnquote(nil, v))
			for _, e := range sp.enum {
				if s == e {
					return nil
				}
			}
			return &CodexError{Event: event, Field: name, Rule: fmt.Sprintf("%q is not one of %s", s, quoteList(sp.enum))}
		}
	case kObject:
		ms, err := rawjson.Members(v)
		if err != nil {
			return &CodexError{Event: event, Field: name, Rule: "must be an object, not " + rawjson.KindName(v)}
		}
		return checkMembers(event, name+".", ms, sp.members, sp.required)
	}
	return nil
}

// checkCodexRules applies the rules Codex checks after parsing an answer
// that fits its schema (its hook output parser).
func checkCodexRules(event string, ms []rawjson.Member) error {
	fail := func(field, rule string) error { return &CodexError{Event: event, Field: field, Rule: rule} }
	present := func(ms []rawjson.Member, k string) bool {
		m, ok := rawjson.Find(ms, k)
		return ok && string(m.Value) != "null"
	}
	isTrue := func(ms []rawjson.Member, k string) bool {
		m, ok := rawjson.Find(ms, k)
		return ok && string(m.Value) == "true"
	}
	stopping := func() bool { m, ok := rawjson.Find(ms, "continue"); return ok && string(m.Value) == "false" }
	// universalRules are what PreToolUse and PermissionRequest refuse of
	// the fields every answer has: they cannot stop or hide anything.
	universalRules := func() error {
		switch {
		case stopping():
			return fail("continue", "Codex does not support continue:false here (the hook is reported Failed); block with a decision instead")
		case present(ms, "stopReason"):
			return fail("stopReason", "Codex does not support stopReason here")
		case isTrue(ms, "suppressOutput"):
			return fail("suppressOutput", "Codex does not support suppressOutput:true here")
		}
		return nil
	}
	// blockNeedsReason is the rule of every decision:"block".
	blockNeedsReason := func() error {
		if str := stringMember(ms, "decision"); str == "block" && isBlank(stringMember(ms, "reason")) {
			return fail("reason", `decision "block" needs a non-blank reason`)
		}
		return nil
	}
	hso, _ := rawjson.Find(ms, "hookSpecificOutput")
	var hs []rawjson.Member
	if len(hso.Value) > 0 && string(hso.Value) != "null" {
		hs, _ = rawjson.Members(hso.Value) // validated by checkMembers
	}

	switch event {
	case "PreToolUse":
		if err := universalRules(); err != nil {
			return err
		}
		if present(hs, "permissionDecision") || present(hs, "permissionDecisionReason") || present(hs, "updatedInput") {
			decision := stringMember(hs, "permissionDecision")
			switch {
			case present(hs, "updatedInput") && decision != "allow":
				return fail("hookSpecificOutput.updatedInput", `Codex applies updatedInput only with permissionDecision "allow": without it the hook is reported Failed and the original input runs`)
			case decision == "allow" && !present(hs, "updatedInput"):
				return fail("hookSpecificOutput.permissionDecision", `Codex does not support "allow" without updatedInput (write no answer to let the call proceed)`)
			case decision == "ask":
				return fail("hookSpecificOutput.permissionDecision", `Codex does not support "ask"`)
			case decision == "deny" && isBlank(stringMember(hs, "permissionDecisionReason")):
				return fail("hookSpecificOutput.permissionDecisionReason", `permissionDecision "deny" needs a non-blank permissionDecisionReason`)
			case decision == "" && present(hs, "permissionDecisionReason"):
				return fail("hookSpecificOutput.permissionDecisionReason", "permissionDecisionReason needs a permissionDecision")
			}
			return nil
		}
		switch stringMember(ms, "decision") {
		case "approve":
			return fail("decision", `Codex does not support decision "approve"`)
		case "":
			if present(ms, "reason") {
				return fail("reason", "reason needs a decision")
			}
		}
		return blockNeedsReason()
	case "PermissionRequest":
		if err := universalRules(); err != nil {
			return err
		}
		d, _ := rawjson.Find(hs, "decision")
		if len(d.Value) == 0 || string(d.Value) == "null" {
			return nil
		}
		dm, _ := rawjson.Members(d.Value)
		switch {
		case present(dm, "updatedInput"):
			return fail("hookSpecificOutput.decision.updatedInput", "Codex does not support rewriting the input in a PermissionRequest answer (rewrite it in PreToolUse)")
		case present(dm, "updatedPermissions"):
			return fail("hookSpecificOutput.decision.updatedPermissions", "Codex does not support updatedPermissions")
		case isTrue(dm, "interrupt"):
			return fail("hookSpecificOutput.decision.interrupt", "Codex does not support interrupt:true")
		}
	case "PostToolUse":
		if isTrue(ms, "suppressOutput") {
			return fail("suppressOutput", "Codex does not support suppressOutput:true here")
		}
		if err := blockNeedsReason(); err != nil {
			return err
		}
		if stringMember(ms, "decision") == "" && !stopping() && present(ms, "reason") {
			return fail("reason", "reason needs a decision")
		}
	case "UserPromptSubmit", "Stop", "SubagentStop":
		return blockNeedsReason()
	}
	return nil
}

// isBlank reports whether s is empty or only white space, as Codex's
// trim() sees it.
func isBlank(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }

// fieldList returns the names of m, sorted, for a message.
func fieldList(m map[string]spec) string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// quoteList returns the strings of l quoted and joined, for a message.
func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// checkAsyncMember refuses Claude Code's answer that detaches a hook
// ({"async": true}, hook.Async): Codex has no such answer, and its closed
// schema makes it report the hook Failed and ignore the answer.
func checkAsyncMember(event string, ms []rawjson.Member) error {
	for _, k := range []string{"async", "asyncTimeout"} {
		if _, ok := rawjson.Find(ms, k); ok {
			return &CodexError{Event: event, Field: k,
				Rule: `Codex has no answer that detaches a hook (hook.Async): it runs a hook in the background only when its handler says "async": true (hookctl install -agent codex -async); this answer breaks its schema, and Codex ignores it`}
		}
	}
	return nil
}
