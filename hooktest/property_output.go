package hooktest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// RuleKeepOutput is the rule a lost or changed member (or array element)
// of a tool's result breaks: an updatedToolOutput (or updatedMCPToolOutput)
// replaces the whole tool_response, so what it lacks is gone for Claude.
const RuleKeepOutput = "a hook must keep every tool_response member it did not change"

// outputShape returns the key that groups PostToolUse fixtures of one
// shape: the tool, and the places of its result the run varies. The
// recorded fixtures repeat many shapes (every Read of a file); one of
// each is enough.
func outputShape(f Fixture, resp jsontext.Value) string {
	var b strings.Builder
	if tn, ok := Field(f.JSON, "tool_name"); ok {
		b.Write(tn)
	}
	b.WriteByte(0)
	b.WriteByte(byte(resp.Kind()))
	for _, s := range verdict.Slots(resp) {
		b.WriteString("\x00" + s.Pointer)
	}
	return b.String()
}

// runOutputFixture runs every case of one PostToolUse fixture, whose
// tool_response is resp, then judges them: the unchanged fixture; each
// tricky value in place of each scalar of resp at every depth (an MCP
// tool's content-block text, a nested file record's content, a string
// result as a whole, where only string values go), and added as the
// member [AddedMember] when resp is an object; and once with members of
// unusual names added to every object of resp.
func runOutputFixture(rep *Report, cfg *config, run func([]byte) (*Recorder, error), f Fixture, resp jsontext.Value) {
	cases := []*propertyCase{{payload: f.JSON, resp: resp}}
	sendable := make([]bool, len(cfg.values))
	for i, v := range cfg.values {
		sendable[i] = v.Sendable()
	}
	slots := verdict.Slots(resp)
	if resp.Kind() == '{' {
		slots = append(slots, verdict.Slot{Pointer: "/" + rawjson.PointerToken(AddedMember)})
	}
	for _, s := range slots {
		added := s.Value == nil
		for j, v := range cfg.values {
			if s.Pointer == "" && v.JSON.Kind() != resp.Kind() {
				continue // a result that is a string is always a string
			}
			var nr []byte
			var ok bool
			if added {
				nr, ok = mergeValue(resp, v.JSON)
			} else {
				nr, ok = verdict.SetAt(resp, s.Pointer, v.JSON)
			}
			if valid, _ := rawjson.Valid(nr); !ok || !valid {
				continue // a tricky value that is not valid JSON
			}
			cases = append(cases, &propertyCase{
				held:    s.Pointer,
				added:   added,
				value:   v,
				strict:  !sendable[j],
				resp:    nr,
				payload: WithField(f.JSON, "tool_response", jsontext.Value(nr)),
			})
		}
	}
	if nr, ok := verdict.WithOddMembers(resp); ok {
		cases = append(cases, &propertyCase{
			added:   true,
			names:   true,
			value:   Tricky{Name: verdict.NamesCase},
			resp:    nr,
			payload: WithField(f.JSON, "tool_response", jsontext.Value(nr)),
		})
	}
	runAndJudge(rep, cfg, run, f, cases)
}

// mergeValue returns the object resp with the member AddedMember set to v.
func mergeValue(resp, v []byte) ([]byte, bool) {
	out, err := hook.Merge(resp, rawObject(AddedMember, v))
	return out, err == nil
}

// judgeOutput checks the updatedToolOutput (or updatedMCPToolOutput) of
// a PostToolUse case against the tool_response it replaces: every member
// and array element, at every depth, kept (as Claude Code reads it, or
// with [Options.Exact] byte for byte), except those declared with
// [Options.OutputChanges] and [Options.OutputRemoves]. It adds the
// violations to chk and returns the notes.
func judgeOutput(chk *checker, c *propertyCase, cfg *config, consts []verdict.Constant) []error {
	upd := c.updated()
	if upd == nil {
		return nil
	}
	ptr := "/hookSpecificOutput/updatedToolOutput"
	if _, ok := c.result.HookSpecificOutput["updatedToolOutput"]; !ok {
		ptr = "/hookSpecificOutput/updatedMCPToolOutput"
	}
	changes := make([]string, len(cfg.outChanges))
	for i, s := range cfg.outChanges {
		changes[i] = verdict.OutputPointer(s)
	}
	removes := make([]string, len(cfg.outRemoves))
	for i, s := range cfg.outRemoves {
		removes[i] = verdict.OutputPointer(s)
	}
	var notes []error
	for _, d := range verdict.CompareOutput(c.resp, upd, changes, removes) {
		me := memberError(d)
		if d.Problem == verdict.Respelled && !cfg.exact && (!c.strict || !verdict.InStrictTier(true, d.Problem, d.Pointer, c.held)) {
			notes = append(notes, &Violation{Rule: NoteRespelled, Pointer: ptr + me.Pointer, Detail: me.detail(), Err: me})
			continue
		}
		if d.Problem == verdict.Respelled {
			me.Problem = ProblemRewritten
		}
		detail := me.detail()
		name := topMember(d.Pointer)
		switch k, ok := verdict.FindConstant(consts, name); {
		case ok && d.Problem == verdict.Changed && d.Pointer == "/"+rawjson.PointerToken(name):
			detail += fmt.Sprintf("; the hook sets it to %s whatever the tool returned (%d different values in, one out), so the tool's value is lost; if the member is the hook's own, declare it in hooktest.Options.OutputChanges: %q", clip(k.Value), k.Inputs, name)
		case d.Problem == verdict.Changed && !c.holds(d.Pointer):
			detail += fmt.Sprintf("; if the hook changes it on purpose, declare it in hooktest.Options.OutputChanges: %q", d.Pointer)
		}
		chk.vs = append(chk.vs, &Violation{Rule: RuleKeepOutput, Pointer: ptr + me.Pointer, Detail: detail, Err: me})
	}
	return notes
}

// record files the judged case c of fixture f in the report: a failure,
// a finding of the strict tier, a run that failed open, notes.
func record(rep *Report, cfg *config, f Fixture, c *propertyCase, errs, notes error) {
	fail := func(err error) *Failure {
		fl := &Failure{Fixture: f.Name, Member: c.member, Added: c.added, Value: c.value.Name, Strict: c.strict, Result: c.result, Err: err}
		switch {
		case c.resp != nil:
			fl.Pointer = "/tool_response" + c.held
		case c.member != "":
			fl.Pointer = "/tool_input/" + rawjson.PointerToken(c.member)
		}
		return fl
	}
	if c.result == nil || c.result.FailsOpen() {
		rep.FailedOpen = append(rep.FailedOpen, fail(nil).Where()+": "+endedHow(c))
	}
	normal, tier := errs, error(nil)
	if c.strict && !cfg.strict {
		normal, tier = splitTier(errs, c.heldPointer())
	}
	if normal != nil {
		rep.Failures = append(rep.Failures, fail(normal))
	}
	if tier != nil {
		rep.StrictFindings = append(rep.StrictFindings, fail(tier))
	}
	if notes != nil {
		rep.Notes = append(rep.Notes, fail(notes))
	}
}

// holds reports whether the place p of the tool_response holds the
// case's tricky value, or is within it or around it: a change there is
// the value mangled, not a change the hook makes anyway.
func (c *propertyCase) holds(p string) bool {
	if c.value.Name == "" || c.names {
		return false
	}
	return verdict.Within(p, c.held) || verdict.Within(c.held, p)
}

// heldPointer is the JSON pointer, in the value the hook answers a
// rewrite of (the tool_input, or the tool_response), of the place that
// holds the case's tricky value.
func (c *propertyCase) heldPointer() string {
	if c.resp != nil {
		return c.held
	}
	return "/" + rawjson.PointerToken(c.member)
}

// errNoFixture is the Detail of the failure of a run without a fixture.
var errNoFixture = errors.New("no fixture is a PreToolUse or PermissionRequest payload with a tool_input object, nor a PostToolUse payload with a tool_response, so nothing was tested")

// toolsHint names what reaches the events the run sent: for PreToolUse
// and PermissionRequest, the calls of Options.Tools; for PostToolUse, the
// calls of Options.Tools with a Response.
func toolsHint(inputs, outputs bool) string {
	call := "{Name: \"mcp__server__tool\", Input: `{\"room\":\"lobby\"}`"
	resp := "Response: `[{\"type\":\"text\",\"text\":\"joined\"}]`"
	if outputs && !inputs {
		return "point the run at the results of the tools the hook handles with hooktest.Options.Tools, each call with its Response, which adds a PostToolUse payload of the call, e.g. Tools: []hooktest.Tool{" + call + ", " + resp + "}}"
	}
	hint := "point the run at the tools the hook handles with hooktest.Options.Tools, e.g. Tools: []hooktest.Tool{" + call + "}}"
	if outputs {
		hint += " (for a PostToolUse hook, give each call's result too, e.g. " + resp + ": that adds a PostToolUse payload of the call)"
	}
	return hint
}
