package agent

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/gohooks/hook/internal/rawjson"
)

// CopilotVersion is the GitHub Copilot CLI release whose hook payloads
// and answer rules CheckCopilotAnswer applies (npm @github/copilot, run
// headless against a stand-in model; docs/agents.md records the runs).
const CopilotVersion = "1.0.102"

// CopilotError is an answer the GitHub Copilot CLI would ignore in part
// or misread: Field is the answer's member path (such as
// "hookSpecificOutput.additionalContext"), Rule what Copilot does with it.
type CopilotError struct {
	Event string
	Field string
	Rule  string
}

// Error says which field of which answer Copilot would not honour.
func (e *CopilotError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("GitHub Copilot CLI would not honour this %s answer: %s", e.Event, e.Rule)
	}
	return fmt.Sprintf("GitHub Copilot CLI would not honour this %s answer: %s: %s", e.Event, e.Field, e.Rule)
}

// copilotDecisions are the permissionDecision values Copilot CopilotVersion
// was seen to act on: allow runs the call, deny blocks it with the
// reason, ask asks the user (headless, with no one to ask, it denies with
// "unable to ask user for confirmation" and the reason).
var copilotDecisions = []string{"allow", "deny", "ask"}

// copilotContext are the events whose hookSpecificOutput.additionalContext
// Copilot CopilotVersion hands to the model (as a user message
// "Additional context from preToolUse hook:\n…"); on the others it
// drops it.
func copilotContext(event string) bool { return event == "PreToolUse" }

// CheckCopilotAnswer checks the JSON answer to event against what the
// GitHub Copilot CLI CopilotVersion, with hooks in its PascalCase ("VS
// Code compatible") configuration, was seen to do with it. It refuses
// what Copilot would drop in silence where the hook's author meant it to
// act: continue:false (the session goes on), additionalContext outside
// PreToolUse (the model never sees it), a rewrite of a tool's result
// (updatedToolOutput, updatedMCPToolOutput: the model sees the original)
// and a permissionDecision Copilot does not know. systemMessage,
// suppressOutput and stopReason are not shown by Copilot headless and are
// let through: they change nothing the call does. An empty answer is
// nil.
func CheckCopilotAnswer(event string, answer []byte) error {
	if len(strings.TrimSpace(string(answer))) == 0 {
		return nil
	}
	ms, err := rawjson.Members(answer)
	if err != nil {
		return &CopilotError{Event: event, Rule: "the answer must be one JSON object (" + err.Error() + ")"}
	}
	fail := func(field, rule string) error { return &CopilotError{Event: event, Field: field, Rule: rule} }
	if m, ok := rawjson.Find(ms, "continue"); ok && string(m.Value) == "false" {
		return fail("continue", "Copilot ignores continue:false (the session goes on); block with a decision instead")
	}
	hso, ok := rawjson.Find(ms, "hookSpecificOutput")
	if !ok || string(hso.Value) == "null" {
		return nil
	}
	hs, err := rawjson.Members(hso.Value)
	if err != nil {
		return fail("hookSpecificOutput", "must be an object, not "+rawjson.KindName(hso.Value))
	}
	for _, m := range hs {
		if string(m.Value) == "null" {
			continue
		}
		name := "hookSpecificOutput." + m.Key
		switch m.Key {
		case "additionalContext":
			if !copilotContext(event) && !isBlank(string(rawjson.AppendExactUnquote(nil, m.Value))) {
				return fail(name, "Copilot hands a hook's context to the model on PreToolUse only; on "+event+" the model never sees it")
			}
		case "updatedToolOutput", "updatedMCPToolOutput":
			return fail(name, "Copilot ignores a rewrite of the tool's result: the model sees the original (block with decision \"block\" and a reason instead, which replaces the result with \"Tool result blocked: <reason>\")")
		case "permissionDecision":
			if event != "PreToolUse" {
				continue
			}
			s := stringMember(hs, "permissionDecision")
			known := false
			for _, d := range copilotDecisions {
				known = known || s == d
			}
			if !known {
				return fail(name, fmt.Sprintf("%q is not a decision Copilot acts on (%s)", s, quoteList(copilotDecisions)))
			}
		}
	}
	return nil
}

// CheckCopilotText checks a plain-text answer to event, which Claude Code
// takes as context on SessionStart and UserPromptSubmit: Copilot
// CopilotVersion hands no hook context to the model on those events, as
// JSON or otherwise. Blank text is nil.
func CheckCopilotText(event string, text []byte) error {
	if strings.TrimLeftFunc(string(text), unicode.IsSpace) == "" {
		return nil
	}
	return &CopilotError{Event: event, Rule: "Copilot hands no hook context to the model on " + event + ": the text would be dropped"}
}

// CopilotBlockReasonLost reports whether Copilot CopilotVersion loses the
// reason of an exit-2 block on event: it blocks, but tells the model "hook
// exited with code 2" instead of the hook's stderr. A hook that blocks
// there must answer with a decision and its reason to be understood.
func CopilotBlockReasonLost(event string) bool { return event == "PreToolUse" }
