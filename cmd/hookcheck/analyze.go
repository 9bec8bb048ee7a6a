package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// The kinds of finding, as the JSON report spells them.
const (
	kindLost       = "lost"           // a tool_input member missing from updatedInput
	kindMangled    = "mangled"        // a member holds another value (or, strict tier, other bytes)
	kindInvalid    = "invalid-stdout" // stdout Claude Code cannot read
	kindRejected   = "rejected"       // an answer Claude Code would reject
	kindExit2      = "exit2-stdout"   // exit code 2 with an answer on stdout
	kindStackTrace = "stack-trace"    // a crash on stderr: panic, traceback, stack
	kindCrash      = "crash"          // no start, a kill, an unknown exit code, or exit 1 where the hook must not fail
	kindTimeout    = "timeout"        // killed after -timeout
	kindBlocked    = "blocked"        // exit 2 on a tricky value the fixture's type allows
	kindOutput     = "output-cap"     // stdout or stderr over -max-output
	kindSurvivors  = "left-running"   // processes left running after the hook ended
	kindStopLoop   = "stop-loop"      // a Stop hook blocking while stop_hook_active
	kindOutputCap  = "over-10000"     // text Claude Code cuts to a preview
	kindCodex      = "codex-rejected" // an answer Codex would refuse (-agent codex)
)

// kindOrder is the order of kinds in reports, and their labels.
var kindOrder = []struct{ kind, label string }{
	{kindLost, "member lost"},
	{kindMangled, "member changed"},
	{kindInvalid, "invalid stdout"},
	{kindRejected, "answer rejected"},
	{kindExit2, "exit 2 with stdout"},
	{kindStackTrace, "stack trace"},
	{kindCrash, "crash"},
	{kindTimeout, "timeout"},
	{kindBlocked, "blocked by a tricky value"},
	{kindOutput, "output over -max-output"},
	{kindSurvivors, "processes left running"},
	{kindStopLoop, "Stop hook loop"},
	{kindOutputCap, "text over 10,000 characters"},
	{kindCodex, "answer Codex would refuse"},
}

// finding is one thing wrong with one run.
type finding struct {
	Kind string `json:"kind"`
	// Pointer is the JSON pointer of what is wrong: a tool_input member
	// ("/tool_input/room") or a place in the answer
	// ("/hookSpecificOutput/hookEventName"); empty for the run as a whole.
	Pointer string `json:"pointer,omitempty"`
	// Detail is a short, stable phrase that groups like findings: the
	// problem of a member, or the rule an answer breaks.
	Detail string `json:"detail,omitempty"`
	// Message says it all for people.
	Message string `json:"message"`
}

// outcome is a case, what its run did, and what is wrong with it.
type outcome struct {
	c        *testCase
	res      result
	findings []finding
	// strict holds the findings of a run on a tricky value Claude Code
	// never sends, without -strict: reported, not failures.
	strict []finding
	// notes are the members respelled (the same value for the agent), and
	// an exit-2 reason that ends like a crash.
	notes []finding
}

// failsOpen reports whether the agent goes on with the call as if there
// were no hook after the run: it did not start, timed out or was killed,
// exited with a code other than 0 and 2, or answered what the agent cannot
// read or rejects (hooktest.Recorder.FailsOpen). Under Codex (codex), so
// does an answer Codex refuses, and exit 2 on an event where Codex takes
// it for a failed hook rather than a block (agent.CodexBlocksOnExit2).
func (o *outcome) failsOpen(codex bool) bool {
	rec := o.res.rec
	if rec == nil || o.res.timedOut || rec.FailsOpen() {
		return true
	}
	if !codex {
		return false
	}
	if rec.Code == hook.ExitBlock {
		return !agent.CodexBlocksOnExit2(o.c.p.event)
	}
	return rec.Code == hook.ExitOK && slices.ContainsFunc(o.findings, func(f finding) bool { return f.Kind == kindCodex })
}

// endedHow says how a run that failed open ended, for the report.
func (o *outcome) endedHow() string {
	rec := o.res.rec
	switch {
	case rec == nil:
		return "did not start"
	case o.res.timedOut:
		return "timed out"
	case rec.Code < 0:
		return "killed"
	case rec.Code == hook.ExitBlock:
		return "exit code 2, which Codex takes for a failed hook on " + o.c.p.event + firstLine(rec.Stderr)
	case rec.Code != hook.ExitOK:
		return fmt.Sprintf("exit code %d%s", rec.Code, firstLine(rec.Stderr))
	}
	for _, f := range slices.Concat(o.findings, o.strict) {
		switch f.Kind {
		case kindInvalid, kindRejected, kindCodex:
			return "answer ignored: " + clip(f.Message, 200)
		}
	}
	return "answer ignored"
}

// updated returns the updatedInput of the run's answer (for a PostToolUse
// payload, its updatedToolOutput or updatedMCPToolOutput), or nil.
func (o *outcome) updated() jsontext.Value {
	if o.res.rec == nil || o.res.timedOut || o.res.rec.Code == hook.ExitBlock {
		return nil // Claude Code does not act on stdout then
	}
	if o.c.p.output {
		return o.res.rec.UpdatedToolOutput
	}
	return o.res.rec.UpdatedInput
}

// update returns the kind of rewrite the run's answer carries, judged as
// Claude Code reads it: its updatedInput against the tool_input sent, or,
// for PostToolUse, its updatedToolOutput against the tool_response.
func (o *outcome) update() verdict.Update {
	rec := o.res.rec
	if rec == nil || o.res.timedOut {
		return verdict.NoUpdate
	}
	if o.c.p.event == hook.EventPostToolUse {
		// Against the tool_response sent, tricky value included.
		return verdict.Rewrite(o.c.toolResponse, rec.UpdatedToolOutput, true)
	}
	return verdict.Rewrite(o.c.toolInput, rec.UpdatedInput, true)
}

// analyze finds what is wrong with every run; given says whether the
// time limit was given with -timeout, codex whether each answer is also
// checked against Codex's rules (-agent codex). Changes to the members
// named in changed are not reported. A member the hook sets to one value
// whatever the model sent (verdict.Constants, the rule hooktest's
// property run applies too) is reported in each run that changed it,
// saying so, unless changed names it: nothing else tells it from the seed
// bug's effect. The runs on tricky values the agent never sends keep
// their findings apart unless strict is set. It returns the constant
// members, per payload.
func analyze(outs []*outcome, changed, changedOutput []string, strict, given, codex bool) map[*payload][]verdict.Constant {
	runs := map[*payload][]verdict.Run{}
	for _, o := range outs {
		switch {
		case o.c.p.output:
			runs[o.c.p] = append(runs[o.c.p], verdict.Run{In: o.c.toolResponse, Out: o.updated()})
		case len(o.c.p.fields) > 0:
			runs[o.c.p] = append(runs[o.c.p], verdict.Run{In: o.c.toolInput, Out: o.updated()})
		}
	}
	consts := map[*payload][]verdict.Constant{}
	for p, rs := range runs {
		if cs := verdict.Constants(rs); len(cs) > 0 {
			consts[p] = cs
		}
	}
	ag := claudeCode
	if codex {
		ag = agent.Codex.String()
	}
	for _, o := range outs {
		o.findings = runFindings(o.c, o.res, given, ag)
		if codex {
			o.findings = append(o.findings, codexFindings(o.c, o.res)...)
		}
		if upd := o.updated(); upd != nil && o.c.p.output {
			fs, notes := outputFindings(o.c, upd, o.res.rec, changedOutput, consts[o.c.p], ag)
			o.findings = append(fs, o.findings...)
			o.notes = notes
		} else if upd != nil && o.c.toolInput != nil {
			fs, notes := memberFindings(o.c, upd, changed, consts[o.c.p], ag)
			o.findings = append(fs, o.findings...)
			o.notes = notes
		}
		if o.res.rec != nil {
			for _, n := range o.res.rec.Notes {
				v, _ := n.(*hooktest.Violation)
				if v != nil {
					o.notes = append(o.notes, finding{Kind: "crash-reason", Detail: v.Rule, Message: v.Detail})
				}
			}
		}
		if o.c.strictTier() && !strict {
			o.findings, o.strict = splitTier(o.c, o.findings)
		}
	}
	return consts
}

// splitTier splits the findings of a run on a tricky value Claude Code
// never sends: a member lost, or changed elsewhere than where the value
// is, does not depend on the value and stays a finding; the rest (the
// value's member changed or respelled, and what concerns the run as a
// whole) is the strict tier.
func splitTier(c *testCase, fs []finding) (normal, strict []finding) {
	held := c.pointer()
	for _, f := range fs {
		member := f.Kind == kindLost || f.Kind == kindMangled
		problem := verdict.Changed
		if f.Kind == kindLost {
			problem = verdict.Lost
		}
		if verdict.InStrictTier(member, problem, f.Pointer, held) {
			strict = append(strict, f)
		} else {
			normal = append(normal, f)
		}
	}
	return normal, strict
}

// runFindings checks how the run ended and the rules its answer breaks
// (hooktest.CheckAnswer); lost and changed members are left to
// memberFindings, which knows which members the hook owns.
func runFindings(c *testCase, res result, given bool, agent string) []finding {
	switch {
	case res.rec == nil:
		return []finding{{Kind: kindCrash, Detail: "did not start", Message: fmt.Sprintf("the command did not start: %v", res.err)}}
	case res.timedOut:
		fs := []finding{{Kind: kindTimeout, Detail: "timed out", Message: timeoutMessage(c, res, given, agent)}}
		if len(res.rec.Survivors) > 0 {
			fs = append(fs, finding{Kind: kindSurvivors, Detail: hooktest.RuleSurvivors, Message: fmt.Sprintf("%d processes outside the hook's process group were killed: %s", len(res.rec.Survivors), strings.Join(res.rec.Survivors, "; "))})
		}
		return fs
	}
	var fs []finding
	refused := slices.ContainsFunc(res.rec.Problems, func(e error) bool {
		v, ok := e.(*hooktest.Violation)
		return ok && v.Rule == hooktest.RuleRefused
	})
	switch code := res.rec.Code; {
	case code == hook.ExitError && refused:
		// Reported below with the library's whole message.
	case c.names && !verdict.OpenSchema(c.p.tool):
		// Claude Code checks the input of its own tools against their
		// schemas: the unusual names test what the hook keeps, not what
		// it must accept.
	case c.names && code == hook.ExitError:
		fs = append(fs, finding{Kind: kindCrash, Detail: "exit 1",
			Message: fmt.Sprintf("exit code 1 on a call of an MCP tool with members of unusual names, which its server's schema may take: %s shows a hook error and goes on without the hook%s", agent, firstLine(res.rec.Stderr))})
	case c.names && code == hook.ExitBlock && c.p.controlCode == hook.ExitOK:
		fs = append(fs, finding{Kind: kindBlocked, Detail: "exit 2",
			Message: fmt.Sprintf("exit code 2 on a call of an MCP tool with members of unusual names, where the call as it is exits 0: %s blocks the action%s", agent, firstLine(res.rec.Stderr))})
	case code == hook.ExitError && (c.field < 0 || sameType(c)):
		what := "the payload as " + agent + " sends it"
		if c.field >= 0 {
			what = fmt.Sprintf("a %s in a member that holds a %s", rawjson.KindName(c.value.JSON), rawjson.KindName(c.p.fields[c.field].Value))
		}
		fs = append(fs, finding{Kind: kindCrash, Detail: "exit 1",
			Message: fmt.Sprintf("exit code 1 on %s: %s shows a hook error and goes on without the hook%s", what, agent, firstLine(res.rec.Stderr))})
	case code == hook.ExitBlock && c.field >= 0 && sameType(c) && c.p.controlCode == hook.ExitOK:
		fs = append(fs, finding{Kind: kindBlocked, Detail: "exit 2",
			Message: fmt.Sprintf("exit code 2 on a %s in a member that holds a %s, where the payload as it is exits 0: %s blocks the action%s",
				rawjson.KindName(c.value.JSON), rawjson.KindName(c.p.fields[c.field].Value), agent, firstLine(res.rec.Stderr))})
	}
	for _, err := range res.rec.Problems {
		var v *hooktest.Violation
		if !errors.As(err, &v) {
			fs = append(fs, finding{Kind: kindRejected, Detail: "unreadable payload", Message: err.Error()})
			continue
		}
		f := finding{Pointer: v.Pointer, Detail: v.Rule, Message: v.Error()}
		switch v.Rule {
		case hooktest.RuleKeep:
			continue
		case hooktest.RuleFields:
			if agent == "Codex" && strings.HasPrefix(v.Detail, "Codex would refuse") {
				continue // a codex-rejected finding of codexFindings
			}
			f.Kind = kindRejected
		case hooktest.RuleExitCode:
			f.Kind = kindCrash
		case hooktest.RuleCrash:
			f.Kind = kindStackTrace
		case hooktest.RuleBlockStdout:
			f.Kind = kindExit2
		case hooktest.RuleStdout:
			f.Kind = kindInvalid
		case hooktest.RuleOutput:
			f.Kind = kindOutput
		case hooktest.RuleSurvivors:
			f.Kind = kindSurvivors
		case hooktest.RuleStopLoop:
			f.Kind = kindStopLoop
		case hooktest.RuleOutputCap:
			f.Kind = kindOutputCap
		default:
			f.Kind = kindRejected
		}
		fs = append(fs, f)
	}
	return fs
}

// timeoutMessage says that the run timed out, and what the limit was.
func timeoutMessage(c *testCase, res result, given bool, agent string) string {
	return fmt.Sprintf("timed out: no exit within %s; hookcheck killed its process tree after %v, as %s kills a hook at its timeout, discards its output and takes no decision",
		describeLimit(res.limit, given, c.p.event, agent), res.elapsed.Round(timeRound), agent)
}

// sameType reports whether the tricky value of a tricky case has the
// JSON type of the member's value in the fixture (a string where there was
// a string). A hook must cope with any value of that type; it may refuse
// a number where it takes a string.
func sameType(c *testCase) bool {
	return rawjson.KindName(c.value.JSON) == rawjson.KindName(c.p.fields[c.field].Value)
}

// firstLine returns ": " and the first non-empty line of b, whole (the
// library's messages are one line of at most 4000 bytes), or "".
func firstLine(b []byte) string {
	for l := range strings.Lines(string(b)) {
		if l = strings.TrimSpace(l); l != "" {
			return ": " + clip(l, 4000)
		}
	}
	return ""
}

// clip shortens s to at most n bytes, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// topMember returns the name of the top-level member that the JSON
// pointer p points into.
func topMember(p string) string {
	tok, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
}

// sortDiff names a difference verdict found at ptr, the place it holds in
// the payload (held is the place of the case's tricky value): its
// hooktest.MemberError problem and its finding kind, and whether it is
// only a note — a respelling, unless the case is of the strict tier and
// ptr is held to the byte there.
func sortDiff(c *testCase, problem, ptr, held string) (memberProblem, kind string, note bool) {
	switch problem {
	case verdict.Lost:
		return hooktest.ProblemLost, kindLost, false
	case verdict.Changed:
		return hooktest.ProblemChanged, kindMangled, false
	}
	note = !c.strictTier() || !verdict.InStrictTier(true, problem, ptr, held)
	return hooktest.ProblemRespelled, kindMangled, note
}

// compact returns v without whitespace, or v itself when it is not JSON.
func compact(v []byte) []byte {
	c := jsontext.Value(slices.Clone(v))
	if err := c.Compact(); err != nil {
		return v
	}
	return c
}

// memberFindings compares the tool_input sent with the updatedInput the
// hook answered, as the agent reads both (see hooktest.CheckSameValue),
// skipping the members in skip: a lost or changed member is a finding
// (one of consts, which the hook sets to one value whatever the model
// sent, says so); a member respelled (the same value, other bytes) is a
// note, except the member that holds a tricky value the agent never
// sends, where it is a finding of the strict tier. Members that moved are
// not reported (the agent reads the object by name).
func memberFindings(c *testCase, out jsontext.Value, skip []string, consts []verdict.Constant, agent string) (fs, notes []finding) {
	ds, err := verdict.Compare(c.toolInput, out, skip)
	if err != nil {
		return []finding{{Kind: kindRejected, Detail: "updatedInput unreadable", Message: "updatedInput: " + err.Error()}}, nil
	}
	held := c.pointer()
	for _, d := range ds {
		me := &hooktest.MemberError{Pointer: d.Pointer, In: d.In, Out: d.Out}
		ptr := "/tool_input" + d.Pointer
		f := finding{Pointer: ptr}
		var note bool
		if me.Problem, f.Kind, note = sortDiff(c, d.Problem, ptr, held); note {
			in, out := verdict.Excerpts(d.In, d.Out, 80)
			notes = append(notes, finding{Kind: "respelled", Pointer: ptr, Detail: me.Problem,
				Message: fmt.Sprintf("%s: %s from %s to %s (the same value for %s: a note)", ptr, me.Problem, in, out, agent)})
			continue
		}
		f.Detail, f.Message = me.Problem, "/tool_input"+me.Error()
		name := topMember(d.Pointer)
		if k, ok := verdict.FindConstant(consts, name); ok && d.Problem == verdict.Changed && d.Pointer == "/"+rawjson.PointerToken(name) {
			// The seed bug's effect, or a member of the hook's own: only
			// the author can say which.
			f.Detail = "member set to one value"
			f.Message += fmt.Sprintf("; the hook sets it to %s whatever the model sent (%d different values in, one out), so the model's value is lost; if the member is the hook's own, give -changed %s", clip(string(k.Value), 80), k.Inputs, name)
		} else if d.Problem == verdict.Changed && (c.field < 0 || c.p.fields[c.field].Key != name) {
			// Not the member holding the tricky value: a change the hook
			// made, which -changed declares.
			f.Message += fmt.Sprintf("; if the hook changes it on purpose, give -changed %s", name)
		}
		fs = append(fs, f)
	}
	return fs, notes
}

// codexFindings checks the answer of a run that exited 0 against the rules
// of Codex: a JSON answer (stdout starting with "{") against
// agent.CheckCodexAnswer — Codex reports a hook whose answer breaks one
// Failed, ignores the answer and runs the call as if there were no hook —
// and plain text against agent.CheckCodexText, since Codex reads plain
// stdout as context on a few events only.
func codexFindings(c *testCase, res result) []finding {
	if res.rec == nil || res.timedOut || res.rec.Code != hook.ExitOK {
		return nil
	}
	out := bytes.TrimLeftFunc(res.rec.Stdout, unicode.IsSpace)
	var err error
	if len(out) > 0 && out[0] != '{' {
		err = agent.CheckCodexText(c.p.event, out)
	} else {
		err = agent.CheckCodexAnswer(c.p.event, res.rec.Stdout)
	}
	if err == nil {
		err = codexOutputRule(c, res.rec)
	}
	if err == nil {
		return nil
	}
	f := finding{Kind: kindCodex, Detail: "Codex would refuse the answer", Message: err.Error() + "; Codex reports the hook Failed or drops the answer, and goes on as if there were no hook"}
	var ce *agent.CodexError
	if errors.As(err, &ce) {
		f.Detail = ce.Rule
		if ce.Field != "" {
			f.Pointer = "/" + strings.ReplaceAll(ce.Field, ".", "/")
		}
	}
	return []finding{f}
}
