package hooktest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/jsstr"
	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/internal/rawjson"
)

// The rules [CheckAnswer] checks, as they appear in a [Violation]. The
// texts are stable: tools may group findings by them.
const (
	// RuleExitCode: Claude Code knows exit codes 0 (success), 2 (block)
	// and the rest (non-blocking error); a hook uses 0, 1 or 2. A process
	// killed by a signal or a timeout counts as exit code -1.
	RuleExitCode = "a hook must exit with 0, 1 or 2"
	// RuleCrash: the hook crashed: with an exit code other than 2, stderr
	// shows a Go panic, a Python traceback or a Node.js stack trace; with
	// exit code 2, stderr is nothing but the Go runtime's crash report
	// (a Go program that panics exits with 2). Exit code 2 with a reason
	// of the hook's own that quotes a crash (a feedback hook quoting test
	// output) is a block, not a crash.
	RuleCrash = "a hook must not crash"
	// RuleBlockStdout: with exit code 2 Claude Code blocks with stderr and
	// does not act on stdout; whatever is there is lost or contradicts the
	// block.
	RuleBlockStdout = "a hook that exits with 2 must print nothing on stdout"
	// RuleStdout: Claude Code reads stdout as plain text unless it is one
	// JSON object; a broken object is an error, and JSON after a banner or
	// several JSON values are read as plain text, so the answer is lost.
	RuleStdout = "stdout must be empty, plain text, or exactly one JSON object"
	// RuleNull: Claude Code rejects null in an optional field and then
	// ignores the whole answer.
	RuleNull = "an answer must leave an optional field out, never set it to null"
	// RuleEventName: hookSpecificOutput needs hookEventName, and it must be
	// the event that ran; otherwise Claude Code ignores the whole answer.
	RuleEventName = "hookSpecificOutput.hookEventName must name the event that ran"
	// RuleFields: a field of the wrong type or a value outside its enum
	// makes Claude Code reject the answer; an unknown field is dropped
	// silently.
	RuleFields = "an answer must use only the fields, types and values its event accepts"
	// RuleUpdatedInput: updatedInput replaces the whole tool input; it
	// must be a non-empty object, given only where the event applies it.
	RuleUpdatedInput = "updatedInput must be a non-empty object, on an event that applies it"
	// RuleNoEffect: the answer relies on something the event ignores, such
	// as exit code 2 on PermissionRequest.
	RuleNoEffect = "an answer must not rely on what its event ignores"
	// RuleRefused: a hook built with this library gave an answer the
	// library refused before writing it ("hook: invalid answer …" on
	// stderr, exit code 1): a Stop block without a reason, a partial
	// updatedInput. Claude Code gets no answer at all.
	RuleRefused = "a hook's answer must be one the library can write"
	// RuleStopLoop: a Stop or SubagentStop hook blocked although
	// stop_hook_active is true: Claude already goes on because of a stop
	// hook, and blocking again loops until the user interrupts.
	RuleStopLoop = "a Stop hook must not block again while stop_hook_active is true"
)

// NoteCrashReason is the rule of a note (see [Recorder.Notes]): the hook
// exited with 2, so the agent blocked the call and gave stderr to the
// model as the reason, but stderr ends the way a crash ends — the Go
// runtime's crash report after text of the hook's own, a shell's syntax
// error, an interpreter that could not open the script — which a reason
// that quotes one cannot be told from. It is not a failure: read the
// reason.
const NoteCrashReason = "an exit-2 reason that ends like a crash is the hook's reason or its crash (a note)"

// Violation is one rule that a hook's result breaks, as found by
// [CheckAnswer] and [Recorder]. For [RuleKeep] it wraps the [*MemberError]
// that names the member.
type Violation struct {
	// Rule is the rule broken: [RuleKeep] or one of the Rule constants of
	// this file. It is stable.
	Rule string
	// Pointer locates the problem in the JSON answer on stdout (RFC 6901),
	// e.g. "/hookSpecificOutput/updatedInput/room"; it is empty when the
	// problem concerns the result as a whole (exit code, stdout, stderr).
	Pointer string
	// Detail says what is wrong, e.g. "member lost". Its wording is not
	// stable.
	Detail string
	// Err is the underlying error, if any (a *MemberError for RuleKeep).
	Err error
}

// Error returns "<pointer>: <detail> (<rule>)", or "<detail> (<rule>)"
// without a pointer, e.g.
//
//	/hookSpecificOutput/updatedInput/room: member lost (a hook must keep every tool_input member it did not change)
func (v *Violation) Error() string {
	if v.Pointer == "" {
		return v.Detail + " (" + v.Rule + ")"
	}
	return v.Pointer + ": " + v.Detail + " (" + v.Rule + ")"
}

// Unwrap returns v.Err.
func (v *Violation) Unwrap() error { return v.Err }

// CheckAnswer checks one result of a hook — its exit code, stdout and
// stderr — for the event in in, the payload the hook received, against
// the rules Claude Code 2.1.336 applies (the project's wire-format
// reference, §5 and §6). It returns nil, or one [*Violation] per problem,
// joined with errors.Join, in this order: exit code, stderr, stdout. The
// checks:
//   - the exit code is 0, 1 or 2 ([RuleExitCode]); the hook did not crash
//     ([RuleCrash]): with an exit code other than 2, stderr shows no Go
//     panic, Python traceback or Node.js stack frames; with exit code 2,
//     which blocks with stderr as the reason, stderr is not the Go
//     runtime's crash report alone (a Go panic exits with 2; Python and
//     Node.js exit with 1 on an uncaught error, so a traceback or stack
//     quoted in an exit-2 reason is the hook's own text, as is a Go panic
//     after text of the hook's own);
//   - with exit code 2, stdout is empty ([RuleBlockStdout]); exit code 2
//     does nothing on PermissionRequest ([RuleNoEffect]);
//   - stdout is empty, plain text, or exactly one JSON object (optionally
//     after an async announcement on its first line); text starting with
//     "{" that is not one object, several JSON values on several lines, or
//     a banner before a JSON object are reported ([RuleStdout]);
//   - the object has only the fields the event takes, with the right types
//     and enum values ([RuleFields]), no null in an optional field
//     ([RuleNull]), and hookSpecificOutput.hookEventName equal to the event
//     ([RuleEventName]); PermissionRequest's decision object is there;
//   - updatedInput is an object, not empty, on PreToolUse or in a
//     PermissionRequest allow decision ([RuleUpdatedInput]), and keeps every
//     member of in's tool_input ([RuleKeep]): a member present in both
//     with a different value is a change the hook meant, unless the value
//     is the same JSON value written differently (a rewritten number or
//     escape, which marks a decode and re-encode); a missing member is lost;
//     members keep their order;
//   - additionalContext, systemMessage and plain-text stdout stay within
//     [MaxOutputChars] ([RuleOutputCap]).
//
// Unknown fields are reported although Claude Code only drops them: an
// unknown field is almost always a misplaced one. CheckAnswer returns a
// plain error, not a Violation, when in is not a JSON object with a
// hook_event_name. For an event it does not know it checks only what all
// events share.
func CheckAnswer(in jsontext.Value, code int, stdout, stderr []byte) error {
	c, err := newChecker(in)
	if err != nil {
		return err
	}
	c.check(code, stdout, stderr)
	return c.err()
}

// checker collects the violations of one result.
type checker struct {
	event     string
	toolInput []rawjson.Member // nil when in has no tool_input object
	hasTI     bool
	// meant reports whether a tool_input member present in the answer with
	// other bytes was changed on purpose.
	meant func(name string, in, out []byte) bool
	// removed are the tool_input members the answer drops on purpose.
	removed []string
	// noKeep leaves the members of updatedInput unchecked (the property
	// run judges them itself).
	noKeep bool
	// stopActive is the payload's stop_hook_active.
	stopActive bool
	// client names the agent that sent the payload, as messages name it.
	client string
	// tool is the payload's tool_name, if any.
	tool string
	vs   []*Violation
	// notes are what the agent accepts but a reader should look at
	// ([NoteCrashReason]).
	notes []*Violation
}

func newChecker(in jsontext.Value) (*checker, error) {
	ms, err := rawjson.Members(in)
	if err != nil {
		return nil, fmt.Errorf("hooktest: the payload: %w", err)
	}
	ev, ok := stringMember(ms, "hook_event_name")
	if !ok {
		return nil, errors.New("hooktest: the payload has no hook_event_name string")
	}
	c := &checker{event: ev, meant: changedOnPurpose, client: claudeCode}
	if a := agent.DetectMembers(ms); a != agent.Unknown {
		c.client = a.String()
	}
	c.tool, _ = stringMember(ms, "tool_name")
	if m, ok := rawjson.Find(ms, "stop_hook_active"); ok && string(m.Value) == "true" {
		c.stopActive = ev == hook.EventStop || ev == hook.EventSubagentStop
	}
	if ti, ok := rawjson.Find(ms, "tool_input"); ok && jsontext.Value(ti.Value).Kind() == '{' {
		c.toolInput, err = rawjson.Members(ti.Value)
		c.hasTI = err == nil
	}
	return c, nil
}

// changedOnPurpose is the default judgement of CheckAnswer: a member whose
// new value is not the old value written differently.
func changedOnPurpose(_ string, in, out []byte) bool { return !rawjson.SameValue(in, out) }

// add adds a violation. The messages say how Claude Code reads an answer;
// for a payload of another agent (Codex), which reads it the same way in
// what these rules check, they name that agent instead.
func (c *checker) add(rule, ptr, format string, args ...any) {
	format = strings.ReplaceAll(format, claudeCode, c.client)
	c.vs = append(c.vs, &Violation{Rule: rule, Pointer: ptr, Detail: fmt.Sprintf(format, args...)})
}

// claudeCode is the agent the messages name unless the payload is
// another's.
const claudeCode = "Claude Code"

func (c *checker) err() error {
	errs := make([]error, len(c.vs))
	for i, v := range c.vs {
		errs[i] = v
	}
	return errors.Join(errs...)
}

// check checks one result.
func (c *checker) check(code int, stdout, stderr []byte) {
	switch {
	case code < 0:
		c.add(RuleExitCode, "", "the hook was killed (by a signal or a timeout) instead of exiting")
	case code > 2:
		c.add(RuleExitCode, "", "exit code %d; Claude Code treats it as a non-blocking error like 1", code)
	}
	c.checkCrash(code, stderr)
	if code == hook.ExitError {
		if line := refusal(stderr); line != "" {
			c.add(RuleRefused, "", "%s; %s got no answer", line, c.client)
		}
	}
	text := trimJS(stdout)
	if c.stopActive && code == hook.ExitBlock {
		c.add(RuleStopLoop, "", "exit code 2 with stop_hook_active true: Claude goes on again, and the hook blocks again")
	}
	if code == hook.ExitBlock {
		if len(text) > 0 {
			c.add(RuleBlockStdout, "", "exit code 2 with %d bytes on stdout (%s); Claude Code blocks with stderr and does not act on them", len(text), clip(firstLine(text)))
		}
		if c.event == hook.EventPermissionRequest && !(c.client == agent.Codex.String() && agent.CodexBlocksOnExit2(c.event)) {
			c.add(RuleNoEffect, "", "exit code 2 does not deny a PermissionRequest; Claude Code ignores it (answer a decision with behavior deny)")
		}
		if c.event == hook.EventInterrupt && c.client == "Claude Code" {
			c.add(RuleNoEffect, "", "exit code 2 has no effect on Interrupt: the turn has already ended, and Claude Code ignores the exit code and the answer")
		}
		return
	}
	if len(text) == 0 {
		return
	}
	if c.event == hook.EventInterrupt && c.client == "Claude Code" {
		c.add(RuleNoEffect, "", "Claude Code ignores an Interrupt hook's answer: stdout has no effect there")
	}
	if c.event == hook.EventWorktreeCreate {
		if text[0] == '{' {
			c.add(RuleNoEffect, "", "a WorktreeCreate command hook prints the worktree path as its last line; Claude Code does not read JSON from it")
		}
		return
	}
	if text[0] == '{' {
		first := firstLine(text)
		if ms, ok := asyncAnnouncement(first); ok {
			c.checkFields("", ms, asyncFields, nil)
			text = trimJS(text[len(first):])
			if len(text) == 0 {
				return
			}
		}
	}
	c.checkStdout(text)
}

// dupDetail starts the detail of an answer with a member name twice.
const dupDetail = "the answer holds a member name twice"

// checkCrash reports a crash on stderr. Exit code 2 blocks the call with
// stderr as the reason the model reads, so there only the Go runtime's
// crash report with nothing of the hook's own before it is a crash (the
// Go runtime exits with 2 after it); a reason that ends like a crash is a
// note. With any other exit code, a stack trace on stderr is the hook's
// crash: Python and Node.js exit with 1 on an uncaught error, and a hook
// that exits 0 after one caught its own failure and went on without its
// answer.
func (c *checker) checkCrash(code int, stderr []byte) {
	if code != hook.ExitBlock {
		if kind, line := crashIn(stderr); kind != "" {
			c.add(RuleCrash, "", "stderr shows a %s: %s", kind, clipLine([]byte(line)))
		}
		return
	}
	if at, ok := goCrashReport(stderr); ok {
		line := clipLine(stderr[at:])
		if len(bytes.TrimSpace(stderr[:at])) == 0 {
			c.add(RuleCrash, "", "exit code 2 with nothing on stderr but the Go runtime's crash report (%s): the program panicked, and %s blocks the call and shows the model the stack trace as the reason", line, c.client)
			return
		}
		c.note("exit code 2 with a reason that ends with a Go crash report (%s): a quote of the hook's own, or the hook panicked after writing the rest; %s blocks the call either way", line, c.client)
		return
	}
	if l := launchFailure.Find(stderr); l != nil {
		c.note("exit code 2 with a reason that reads like the hook's script failing to run (%s); %s blocks the call with it", clipLine(l), c.client)
	}
}

func (c *checker) note(format string, args ...any) {
	c.notes = append(c.notes, &Violation{Rule: NoteCrashReason, Detail: fmt.Sprintf(format, args...)})
}

// checkStdout classifies the trimmed stdout text the way Claude Code does
// and checks a JSON answer.
func (c *checker) checkStdout(text []byte) {
	if text[0] != '{' {
		if text[0] == '[' && jsontext.Value(text).IsValid(jsonopts.Lenient()) {
			c.add(RuleStdout, "", "stdout is a JSON array; Claude Code reads it as plain text, not as an answer")
			return
		}
		if n := bannerLine(text); n > 0 {
			c.add(RuleStdout, "", "stdout has text before its JSON object (the object starts on line %d); Claude Code reads it all as plain text and ignores the answer", n)
		}
		c.checkCapText(text)
		return // plain text
	}
	if err := validJSON(text); err != nil {
		switch n := jsonLines(text); {
		case n > 1:
			c.add(RuleStdout, "", "stdout holds %d JSON values on %d lines; Claude Code wants exactly one object", n, n)
		case text[len(text)-1] == '}':
			c.add(RuleStdout, "", "stdout looks like a JSON object but is not valid JSON (%v); Claude Code reports a hook error and ignores it", syntaxError(err))
		default:
			c.add(RuleStdout, "", "stdout starts with { but is not one JSON object (%v); Claude Code reads it as plain text and ignores the answer", syntaxError(err))
		}
		return
	}
	ms, err := rawjson.Members(text)
	if err != nil {
		c.add(RuleStdout, "", dupDetail+" (%v); %s keeps only the last", err, c.client)
		return
	}
	c.checkAnswer(ms)
}

// checkAnswer checks the members of a JSON answer.
func (c *checker) checkAnswer(ms []rawjson.Member) {
	c.checkFields("", ms, topFields, topLevelHint)
	c.checkCapMembers("", ms)
	if m, ok := rawjson.Find(ms, "decision"); ok {
		d, _ := decodeString(m.Value)
		if d == "block" && c.stopActive {
			c.add(RuleStopLoop, "/decision", `"block" with stop_hook_active true: Claude goes on again, and the hook blocks again`)
		}
		switch {
		case d == "allow" || d == "deny" || d == "ask":
			for _, v := range c.vs {
				if v.Pointer == "/decision" {
					v.Detail += "; the top-level decision is the legacy approve/block field, use hookSpecificOutput.permissionDecision"
				}
			}
		case d == "approve" && c.event != hook.EventPreToolUse && knownEvent(c.event):
			c.add(RuleNoEffect, "/decision", `"approve" only has an effect on PreToolUse (legacy), not on %s`, c.event)
		case d == "block" && c.event == hook.EventPermissionRequest:
			c.add(RuleNoEffect, "/decision", "PermissionRequest ignores the top-level decision; answer hookSpecificOutput.decision with behavior deny")
		case d == "block" && !blockDecisionEvents[c.event] && knownEvent(c.event):
			c.add(RuleNoEffect, "/decision", `"block" has no effect on %s`, c.event)
		}
	}
	if m, ok := rawjson.Find(ms, "hookSpecificOutput"); ok && jsontext.Value(m.Value).Kind() == '{' {
		c.checkSpecific("/hookSpecificOutput", m.Value)
	}
}

// topLevelHint explains an unknown top-level field.
func topLevelHint(name string) string {
	for _, fs := range specificFields {
		for _, f := range fs {
			if f.name == name {
				return "; it belongs in hookSpecificOutput"
			}
		}
	}
	switch name {
	case "hookEventName":
		return "; it belongs in hookSpecificOutput"
	case "async", "asyncTimeout":
		return "; an async announcement must be the first line of stdout, compact"
	}
	return ""
}

// checkSpecific checks hookSpecificOutput.
func (c *checker) checkSpecific(ptr string, v []byte) {
	ms, _ := rawjson.Members(v)
	m, ok := rawjson.Find(ms, "hookEventName")
	if !ok {
		c.add(RuleEventName, ptr, "hookSpecificOutput lacks hookEventName; Claude Code rejects the answer")
		return
	}
	name, ok := decodeString(m.Value)
	switch {
	case !ok:
		c.add(RuleEventName, ptr+"/hookEventName", "must be a string, not %s", kindName(m.Value))
		return
	case !knownEvent(c.event):
		return // an event this kit does not know: nothing to compare with
	case specificFields[name] == nil && name == c.event:
		c.add(RuleEventName, ptr, "%s takes no hookSpecificOutput; Claude Code rejects the answer", name)
		return
	case specificFields[name] == nil:
		c.add(RuleEventName, ptr+"/hookEventName", "%q is not an event with a hookSpecificOutput; Claude Code rejects the answer (the event is %s)", name, c.event)
		return
	case name != c.event:
		c.add(RuleEventName, ptr+"/hookEventName", "%q, but the event is %s; Claude Code ignores the whole answer", name, c.event)
		return
	}
	rest := slices.DeleteFunc(slices.Clone(ms), func(m rawjson.Member) bool { return m.Key == "hookEventName" })
	c.checkFields(ptr, rest, specificFields[c.event], nil)
	c.checkCapMembers(ptr, rest)
	switch c.event {
	case hook.EventPreToolUse:
		if m, ok := rawjson.Find(ms, "updatedInput"); ok {
			c.checkUpdatedInput(ptr+"/updatedInput", m.Value)
		}
	case hook.EventPreSkillShellCommand:
		if _, ok := rawjson.Find(ms, "updatedInput"); ok {
			c.add(RuleNoEffect, ptr+"/updatedInput", "Claude Code blocks the command when a PreSkillShellCommand hook answers updatedInput")
		}
	case hook.EventPermissionRequest:
		if m, ok := rawjson.Find(ms, "decision"); ok && jsontext.Value(m.Value).Kind() == '{' {
			c.checkPermissionDecision(ptr+"/decision", m.Value)
		}
	case hook.EventPostToolUse:
		if c.client == agent.Codex.String() {
			c.checkCodexToolOutput(ptr, ms)
		}
	}
}

// checkCodexToolOutput checks the rewrite of a tool's result in an answer
// to Codex against Codex's rule (agent.CheckCodexToolOutput): Codex has
// no updatedToolOutput and replaces an MCP tool's result only; it refuses
// the answer otherwise.
func (c *checker) checkCodexToolOutput(ptr string, ms []rawjson.Member) {
	present := func(k string) bool {
		m, ok := rawjson.Find(ms, k)
		return ok && string(m.Value) != "null"
	}
	err := agent.CheckCodexToolOutput(c.tool, present("updatedToolOutput"), present("updatedMCPToolOutput"))
	var ce *agent.CodexError
	if errors.As(err, &ce) {
		p := ptr + "/" + strings.TrimPrefix(ce.Field, "hookSpecificOutput.")
		c.vs = append(c.vs, &Violation{Rule: RuleFields, Pointer: p, Detail: ce.Error() + "; Codex reports the hook Failed and keeps the tool's result"})
	}
}

// checkPermissionDecision checks the decision object of a
// PermissionRequest answer.
func (c *checker) checkPermissionDecision(ptr string, v []byte) {
	ms, _ := rawjson.Members(v)
	fields := permissionAllowFields
	m, ok := rawjson.Find(ms, "behavior")
	b, isString := decodeString(m.Value)
	switch {
	case !ok:
		c.add(RuleFields, ptr, `lacks required field "behavior" ("allow" or "deny")`)
		return
	case jsontext.Value(m.Value).Kind() == 'n':
		c.add(RuleNull, ptr+"/behavior", `is null; it is required: "allow" or "deny"`)
		return
	case !isString || (b != "allow" && b != "deny"):
		c.add(RuleFields, ptr+"/behavior", `must be "allow" or "deny", not %s`, clip(m.Value))
		return
	case b == "deny":
		fields = permissionDenyFields
	}
	c.checkFields(ptr, ms, fields, func(name string) string {
		switch name {
		case "updatedInput", "updatedPermissions":
			return `; it only goes with behavior "allow"`
		case "message", "interrupt":
			return `; it only goes with behavior "deny"`
		}
		return ""
	})
	if b != "allow" {
		return
	}
	if m, ok := rawjson.Find(ms, "updatedInput"); ok {
		c.checkUpdatedInput(ptr+"/updatedInput", m.Value)
	}
	if m, ok := rawjson.Find(ms, "updatedPermissions"); ok && jsontext.Value(m.Value).Kind() == '[' {
		es, _ := elements(m.Value)
		for i, e := range es {
			c.checkPermissionUpdate(fmt.Sprintf("%s/updatedPermissions/%d", ptr, i), e)
		}
	}
}

// checkPermissionUpdate checks one PermissionUpdate.
func (c *checker) checkPermissionUpdate(ptr string, v []byte) {
	if jsontext.Value(v).Kind() != '{' {
		c.add(RuleFields, ptr, "must be an object, not %s", kindName(v))
		return
	}
	ms, _ := rawjson.Members(v)
	m, ok := rawjson.Find(ms, "type")
	t, _ := decodeString(m.Value)
	if !ok || permissionUpdateFields[t] == nil {
		if !ok {
			c.add(RuleFields, ptr, "lacks required field \"type\"")
		} else {
			c.add(RuleFields, ptr+"/type", "must be one of %s, not %s", strings.Join(updateTypes, ", "), clip(m.Value))
		}
		return
	}
	c.checkFields(ptr, ms, permissionUpdateFields[t], nil)
	if m, ok := rawjson.Find(ms, "rules"); ok && jsontext.Value(m.Value).Kind() == '[' {
		es, _ := elements(m.Value)
		for i, e := range es {
			p := fmt.Sprintf("%s/rules/%d", ptr, i)
			if jsontext.Value(e).Kind() != '{' {
				c.add(RuleFields, p, "must be an object, not %s", kindName(e))
				continue
			}
			rms, _ := rawjson.Members(e)
			c.checkFields(p, rms, ruleFields, nil)
		}
	}
}

// checkUpdatedInput checks an updatedInput value against the tool input.
func (c *checker) checkUpdatedInput(ptr string, v []byte) {
	if jsontext.Value(v).Kind() != '{' {
		return // reported by checkFields
	}
	ums, err := rawjson.Members(v)
	if err != nil {
		c.add(RuleUpdatedInput, ptr, "not one valid object: %v", err)
		return
	}
	if len(ums) == 0 {
		c.add(RuleUpdatedInput, ptr, "is empty; Claude Code takes {} as the whole tool input (leave updatedInput out to keep the input)")
		return
	}
	for _, m := range ums {
		if len(m.Key) >= len("__artifact") && strings.EqualFold(m.Key[:len("__artifact")], "__artifact") {
			c.add(RuleUpdatedInput, ptr+"/"+rawjson.PointerToken(m.Key), "names starting with __artifact are reserved; Claude Code denies the call")
		}
	}
	if !c.hasTI || c.noKeep {
		return
	}
	changed := slices.Clone(c.removed)
	for _, im := range c.toolInput {
		if om, ok := rawjson.Find(ums, im.Key); ok && !sameBytes(im.Value, om.Value) && c.meant(im.Key, im.Value, om.Value) {
			changed = append(changed, im.Key)
		}
	}
	for _, me := range checkMembers(c.toolInput, ums, changed) {
		c.vs = append(c.vs, &Violation{Rule: RuleKeep, Pointer: ptr + me.Pointer, Detail: me.detail(), Err: me})
	}
}

// checkFields checks the members ms of the object at ptr against fields:
// unknown names (hint explains them), nulls, types, enums and required
// fields.
func (c *checker) checkFields(ptr string, ms []rawjson.Member, fields []field, hint func(string) string) {
	for _, m := range ms {
		p := ptr + "/" + rawjson.PointerToken(m.Key)
		i := slices.IndexFunc(fields, func(f field) bool { return f.name == m.Key })
		if i < 0 {
			h := ""
			if hint != nil {
				h = hint(m.Key)
			}
			if c.client == agent.Codex.String() {
				// Codex's schemas are closed: the agent-specific check
				// (agent.CheckCodexAnswer) refuses the answer.
				c.add(RuleFields, p, "unknown field; Codex refuses an answer with one%s", h)
			} else {
				c.add(RuleFields, p, "unknown field; Claude Code drops it%s", h)
			}
			continue
		}
		c.checkValue(p, m.Value, fields[i])
	}
	for _, f := range fields {
		if f.required && !slices.ContainsFunc(ms, func(m rawjson.Member) bool { return m.Key == f.name }) {
			c.add(RuleFields, ptr, "lacks required field %q", f.name)
		}
	}
}

// checkValue checks one value against its field.
func (c *checker) checkValue(ptr string, v []byte, f field) {
	k := jsontext.Value(v).Kind()
	if f.typ == tAny {
		return
	}
	if k == 'n' {
		if f.required {
			c.add(RuleNull, ptr, "is null; the field is required and must be %s", f.typ)
		} else {
			c.add(RuleNull, ptr, "is null; leave the field out instead (Claude Code rejects null and ignores the whole answer)")
		}
		return
	}
	ok := false
	switch f.typ {
	case tString:
		ok = k == '"'
	case tBool:
		ok = k == 't' || k == 'f'
	case tNumber:
		ok = k == '0'
	case tObject:
		ok = k == '{'
	case tArray, tStringArray:
		ok = k == '['
	}
	if !ok {
		rule := RuleFields
		if f.name == "updatedInput" {
			rule = RuleUpdatedInput
		}
		c.add(rule, ptr, "must be %s, not %s", f.typ, kindName(v))
		return
	}
	if f.enum != nil {
		if s, _ := decodeString(v); !slices.Contains(f.enum, s) {
			c.add(RuleFields, ptr, "must be one of %s, not %s", strings.Join(f.enum, ", "), clip(v))
		}
	}
	if f.typ == tStringArray {
		es, _ := elements(v)
		for i, e := range es {
			if jsontext.Value(e).Kind() != '"' {
				c.add(RuleFields, fmt.Sprintf("%s/%d", ptr, i), "must be a string, not %s", kindName(e))
			}
		}
	}
}

func knownEvent(name string) bool { return protocol.Known(name) }

// asyncAnnouncement reports whether line is an async announcement: a JSON
// object with "async": true.
func asyncAnnouncement(line []byte) ([]rawjson.Member, bool) {
	line = trimJS(line)
	if len(line) == 0 || line[0] != '{' {
		return nil, false
	}
	ms, err := rawjson.Members(line)
	if err != nil {
		return nil, false
	}
	m, ok := rawjson.Find(ms, "async")
	return ms, ok && string(m.Value) == "true"
}

// bannerLine returns the 1-based number of the line of text (which does
// not start with "{") from which the rest of text is one JSON object, or
// 0 if there is none.
func bannerLine(text []byte) int {
	n := 1
	for rest := text; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			return 0
		}
		rest = rest[i+1:]
		n++
		t := trimJS(rest)
		if len(t) > 0 && t[0] == '{' {
			if jsontext.Value(t).IsValid(jsonopts.Read()) || jsonLines(t) > 1 {
				return n
			}
		}
	}
}

// jsonLines returns the number of non-empty lines of text if each is one
// JSON value, or 0.
func jsonLines(text []byte) int {
	n := 0
	for line := range bytes.Lines(text) {
		line = trimJS(line)
		if len(line) == 0 {
			continue
		}
		if !jsontext.Value(line).IsValid(jsonopts.Read()) {
			return 0
		}
		n++
	}
	return n
}

// validJSON returns nil when text is one JSON value, as JavaScript's
// JSON.parse reads it (lone surrogates and duplicate names allowed), or
// the syntax error.
func validJSON(text []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(text), jsonopts.Read())
	if _, err := dec.ReadValue(); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			return errors.New("data after the JSON value")
		}
		return err
	}
	return nil
}

// syntaxError shortens a jsontext error for a message.
func syntaxError(err error) string {
	return strings.TrimPrefix(err.Error(), "jsontext: ")
}

// firstLine returns text up to and including its first newline, or all
// of it.
func firstLine(text []byte) []byte {
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		return text[:i+1]
	}
	return text
}

// trimJS trims white space the way JavaScript's String.prototype.trim
// does (its white space and line terminators, BOM included, U+0085 not).
func trimJS(b []byte) []byte {
	return bytes.TrimFunc(b, jsstr.IsSpace)
}

var (
	goPanic     = regexp.MustCompile(`(?m)^(panic: .*|fatal error: .*|goroutine \d+ \[running\]:)$`)
	pyTraceback = regexp.MustCompile(`(?m)^Traceback \(most recent call last\):`)
	nodeFrame   = regexp.MustCompile(`(?m)^ {4}at \S.*(:\d+:\d+\)?|\(node:internal.*)$`)
	nodeError   = regexp.MustCompile(`(?m)^node:internal/.*$`)
)

var (
	// goroutineHeader is a goroutine's header in a Go crash report:
	// "goroutine 1 [running]:", with GOTRACEBACK=system "goroutine 1
	// gp=0xc000002380 m=0 mp=0x5a8d40 [running]:".
	goroutineHeader = regexp.MustCompile(`^goroutine \d+ .*\[.*\]:$`)
	// goFrame is a line of a goroutine's stack: a call
	// ("main.main()", "panic({0x4a5e20?, 0xc000012345?})"), the file and
	// line under it ("\t/src/main.go:12 +0x1d"), or a line the runtime
	// writes between them.
	goFrame = regexp.MustCompile(`^(\S.*\(.*\)|\t\S.*:\d+( \+0x[0-9a-f]+)?|created by .*|\.\.\.additional frames elided\.\.\.|\.\.\.\d+ frames elided\.\.\.|runtime stack:|\[.*\]|\s*)$`)
	// launchFailure is the first line of an exit-2 stderr of a script
	// that never ran: a shell's syntax error (bash, dash), or Python
	// unable to open the script.
	launchFailure = regexp.MustCompile(`(?m)^(.+: line \d+: syntax error.*|.+: \d+: Syntax error: .*|.*python[0-9.]*: can't open file .*)$`)
)

// goCrashReport reports whether stderr ends with the Go runtime's crash
// report, and where that report starts: a line that starts with
// "panic: " or "fatal error: " (the last one that does), then, after
// any lines of the panic's value, the dump of one or more goroutines
// ("goroutine N [...]:" and the lines of their stacks, with at least one
// file line), and nothing after it. The runtime writes it and exits with
// 2, so nothing can follow it; a reason that quotes a panic and goes on
// (go test's "FAIL" lines, a hint) does not end with it.
func goCrashReport(stderr []byte) (start int, ok bool) {
	text := string(bytes.TrimRight(stderr, " \t\r\n"))
	lines := strings.Split(text, "\n")
	head := -1
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "panic: ") || strings.HasPrefix(lines[i], "fatal error: ") {
			head = i
			break
		}
	}
	if head < 0 {
		return 0, false
	}
	dump, files := false, 0
	for _, l := range lines[head+1:] {
		l = strings.TrimSuffix(l, "\r")
		switch {
		case goroutineHeader.MatchString(l):
			dump = true
		case !dump:
			// The panic's value may span lines, and a fatal error has
			// lines of its own before the first goroutine.
		case goFrame.MatchString(l):
			if strings.HasPrefix(l, "\t") {
				files++
			}
		default:
			return 0, false
		}
	}
	if !dump || files == 0 {
		return 0, false
	}
	for i := range head {
		start += len(lines[i]) + 1
	}
	return start, true
}

// crashIn returns what kind of crash stderr shows and the line that shows
// it, or "" if it shows none.
func crashIn(stderr []byte) (kind, line string) {
	if len(stderr) == 0 {
		return "", ""
	}
	if l := goPanic.Find(stderr); l != nil {
		return "Go panic", string(l)
	}
	if l := pyTraceback.Find(stderr); l != nil {
		return "Python traceback", lastLine(stderr)
	}
	if l := nodeError.Find(stderr); l != nil {
		return "Node.js crash", string(l)
	}
	if l := nodeFrame.Find(stderr); l != nil {
		return "Node.js stack trace", strings.TrimSpace(string(l))
	}
	return "", ""
}

// refusal returns the line of stderr in which the library refused a
// handler's answer, whole, or "".
func refusal(stderr []byte) string {
	for line := range bytes.Lines(stderr) {
		if l := strings.TrimSpace(string(line)); strings.HasPrefix(l, "hook: invalid answer") {
			return l
		}
	}
	return ""
}

// lastLine returns the last non-empty line of b.
func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
