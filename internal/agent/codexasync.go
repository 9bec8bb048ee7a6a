package agent

import (
	"strings"

	"github.com/gohooks/hook/internal/rawjson"
)

// What Codex CodexVersion does with a command hook whose handler says
// "async": true (checked with the real client, e2e/codexasync_test.go):
//
//   - it runs the hook on each event it fires on, like any other, with
//     the same stdin and environment (nothing tells the hook it runs
//     async), but does not wait for it: the event goes on at once as if
//     there were no hook, and no "hook: EVENT" status is reported;
//   - when the hook exits 0 with an answer that is one JSON object that
//     fits the event's closed schema, Codex keeps two of its fields:
//     hookSpecificOutput.additionalContext, added to the conversation as
//     a developer message at the next request to the model, and
//     systemMessage, shown to the user as a warning;
//   - it ignores the rest of the answer — permissionDecision,
//     updatedInput, decision, reason, continue, stopReason,
//     suppressOutput — without a word, and the rules CheckCodexAnswer
//     applies after the schema do not apply;
//   - it drops, without a word, the whole answer of a hook that exits
//     with another code, prints plain text, or breaks the schema;
//   - it stops the async hooks still running when the session ends (in
//     `codex exec`, an async Stop hook was not seen to run at all).

// CheckCodexAsyncAnswer checks the answer a hook that Codex runs async
// writes to event: nil when Codex uses all of it. The error, a
// *CodexError, names what Codex drops: the whole answer when it is not
// one JSON object fitting the event's schema (plain text included), or a
// member that asks for what an async hook cannot do (a decision, a
// rewrite, a stop) and that Codex ignores. An empty answer is accepted.
func CheckCodexAsyncAnswer(event string, answer []byte) error {
	trimmed := strings.TrimSpace(string(answer))
	if trimmed == "" {
		return nil
	}
	top, ok := codexOutputs()[event]
	if !ok {
		if sent, _ := CodexEvents(event); sent {
			return &CodexError{Event: event, Rule: "Codex reads no answer to this event: write nothing"}
		}
		return &CodexError{Event: event, Rule: "Codex sends no " + event + " event, so no answer to it can be read"}
	}
	if trimmed[0] != '{' {
		return &CodexError{Event: event, Rule: "Codex drops plain text from an async hook: give context as hookSpecificOutput.additionalContext"}
	}
	ms, err := rawjson.Members([]byte(trimmed))
	if err != nil {
		return &CodexError{Event: event, Rule: "the answer must be one JSON object (" + err.Error() + "); Codex drops it whole"}
	}
	if err := checkAsyncMember(event, ms); err != nil {
		return err
	}
	if err := checkMembers(event, "", ms, top, nil); err != nil {
		ce := err.(*CodexError)
		ce.Rule += "; Codex drops the whole answer of an async hook that breaks its schema"
		return ce
	}
	ignored := func(field string) error {
		return &CodexError{Event: event, Field: field,
			Rule: "Codex ignores it in the answer of an async hook, which cannot change the event: only additionalContext and systemMessage are used"}
	}
	set := func(ms []rawjson.Member, k string) bool {
		m, ok := rawjson.Find(ms, k)
		return ok && string(m.Value) != "null"
	}
	for _, m := range ms {
		switch v := string(m.Value); m.Key {
		case "systemMessage", "hookSpecificOutput":
		case "continue":
			if v == "false" {
				return ignored(m.Key)
			}
		case "suppressOutput":
			if v == "true" {
				return ignored(m.Key)
			}
		default:
			if v != "null" {
				return ignored(m.Key)
			}
		}
	}
	if hso, ok := rawjson.Find(ms, "hookSpecificOutput"); ok && string(hso.Value) != "null" {
		hs, _ := rawjson.Members(hso.Value)
		for _, m := range hs {
			if m.Key != "hookEventName" && m.Key != "additionalContext" && set(hs, m.Key) {
				return ignored("hookSpecificOutput." + m.Key)
			}
		}
	}
	return nil
}
