package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/rawjson"
)

// The kinds of finding, as the JSON report spells them.
const (
	kindLost       = "lost"           // a tool_input member missing from updatedInput
	kindMangled    = "mangled"        // a member's value or escapes changed
	kindInvalid    = "invalid-stdout" // stdout Claude Code cannot read
	kindRejected   = "rejected"       // an answer Claude Code would reject
	kindExit2      = "exit2-stdout"   // exit code 2 with an answer on stdout
	kindStackTrace = "stack-trace"    // a crash on stderr: panic, traceback, stack
	kindCrash      = "crash"          // no start, a kill, an unknown exit code, or exit 1 where the hook must not fail
	kindTimeout    = "timeout"        // killed after -timeout
	kindBlocked    = "blocked"        // exit 2 on a tricky value the fixture's type allows
)

// kindOrder is the order of kinds in reports, and their labels.
var kindOrder = []struct{ kind, label string }{
	{kindLost, "member lost"},
	{kindMangled, "member mangled"},
	{kindInvalid, "invalid stdout"},
	{kindRejected, "answer rejected"},
	{kindExit2, "exit 2 with stdout"},
	{kindStackTrace, "stack trace"},
	{kindCrash, "crash"},
	{kindTimeout, "timeout"},
	{kindBlocked, "blocked by a tricky value"},
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
}

// updated returns the updatedInput of the run's answer, or nil.
func (o *outcome) updated() jsontext.Value {
	if o.res.rec == nil || o.res.timedOut || o.res.rec.Code == hook.ExitBlock {
		return nil // Claude Code does not act on stdout then
	}
	return o.res.rec.UpdatedInput
}

// analyze finds what is wrong with every run. Changes to the members
// named in changed, and to members the hook owns (see ownedMembers), are
// not reported. It returns the members the hook owns, per payload.
func analyze(outs []*outcome, changed []string) map[*payload][]string {
	owned := ownedMembers(outs)
	for _, o := range outs {
		o.findings = runFindings(o.c, o.res)
		if upd := o.updated(); upd != nil && o.c.toolInput != nil {
			skip := append(slices.Clone(changed), owned[o.c.p]...)
			o.findings = append(memberFindings(o.c.toolInput, upd, skip), o.findings...)
		}
	}
	return owned
}

// runFindings checks how the run ended and the rules its answer breaks
// (hooktest.CheckAnswer); lost and changed members are left to
// memberFindings, which knows which members the hook owns.
func runFindings(c *testCase, res result) []finding {
	switch {
	case res.rec == nil:
		return []finding{{Kind: kindCrash, Detail: "did not start", Message: fmt.Sprintf("the command did not start: %v", res.err)}}
	case res.timedOut:
		return []finding{{Kind: kindTimeout, Detail: "killed", Message: fmt.Sprintf("no exit after %v; the process group was killed (Claude Code discards a timed-out hook's output)", res.elapsed.Round(timeRound))}}
	}
	var fs []finding
	switch code := res.rec.Code; {
	case code == hook.ExitError && (c.field < 0 || sameType(c)):
		what := "the payload as Claude Code sends it"
		if c.field >= 0 {
			what = fmt.Sprintf("a %s in a member that holds a %s", rawjson.KindName(c.value.JSON), rawjson.KindName(c.p.fields[c.field].Value))
		}
		fs = append(fs, finding{Kind: kindCrash, Detail: "exit 1",
			Message: fmt.Sprintf("exit code 1 on %s: Claude Code shows a hook error and goes on without the hook%s", what, firstLine(res.rec.Stderr))})
	case code == hook.ExitBlock && c.field >= 0 && sameType(c) && c.p.controlCode == hook.ExitOK:
		fs = append(fs, finding{Kind: kindBlocked, Detail: "exit 2",
			Message: fmt.Sprintf("exit code 2 on a %s in a member that holds a %s, where the payload as it is exits 0: Claude Code blocks the action%s",
				rawjson.KindName(c.value.JSON), rawjson.KindName(c.p.fields[c.field].Value), firstLine(res.rec.Stderr))})
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
		case hooktest.RuleExitCode:
			f.Kind = kindCrash
		case hooktest.RuleCrash:
			f.Kind = kindStackTrace
		case hooktest.RuleBlockStdout:
			f.Kind = kindExit2
		case hooktest.RuleStdout:
			f.Kind = kindInvalid
		default:
			f.Kind = kindRejected
		}
		fs = append(fs, f)
	}
	return fs
}

// sameType reports whether the tricky value of a tricky case has the
// JSON type of the member's value in the fixture (a string where there was
// a string). A hook must cope with any value of that type; it may refuse
// a number where it takes a string.
func sameType(c *testCase) bool {
	return rawjson.KindName(c.value.JSON) == rawjson.KindName(c.p.fields[c.field].Value)
}

// firstLine returns ": " and the first non-empty line of b, or "".
func firstLine(b []byte) string {
	for l := range strings.Lines(string(b)) {
		if l = strings.TrimSpace(l); l != "" {
			return ": " + clip(l, 120)
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

// ownedMembers returns, per payload, the tool_input members the hook
// owns: in every run of the payload whose answer carries an updatedInput
// with the member, the member has one and the same value (whitespace
// aside), and in at least one of them the input held another value, not
// merely the same value written otherwise (that is a rewrite). Such
// a member is the hook's own (a fingerprint it computes, a flag it
// forces): it sets it whatever the input, and changing it is what the
// hook is for. The control run alone shows it when the hook sets the
// member to something else than the fixture holds; the tricky runs, which
// put other values there, show it when the fixture's value happens to be
// the hook's.
func ownedMembers(outs []*outcome) map[*payload][]string {
	type seen struct {
		out     []byte // the one value seen so far
		varies  bool   // the answers disagree
		differs bool   // an input differed from the answer
	}
	byPayload := map[*payload]map[string]*seen{}
	for _, o := range outs {
		upd := o.updated()
		if upd == nil || len(o.c.p.fields) == 0 {
			continue
		}
		ims, err1 := rawjson.Members(o.c.toolInput)
		oms, err2 := rawjson.Members(upd)
		if err1 != nil || err2 != nil {
			continue
		}
		m := byPayload[o.c.p]
		if m == nil {
			m = map[string]*seen{}
			byPayload[o.c.p] = m
		}
		for _, im := range ims {
			om, ok := rawjson.Find(oms, im.Key)
			if !ok {
				continue
			}
			out := compact(om.Value)
			s := m[im.Key]
			if s == nil {
				s = &seen{out: out}
				m[im.Key] = s
			}
			s.varies = s.varies || !bytes.Equal(s.out, out)
			s.differs = s.differs || !rawjson.SameValue(im.Value, out)
		}
	}
	owned := map[*payload][]string{}
	for p, m := range byPayload {
		for _, f := range p.fields {
			if s := m[f.Key]; s != nil && !s.varies && s.differs {
				owned[p] = append(owned[p], f.Key)
			}
		}
	}
	return owned
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
// hook answered, skipping the members in skip. A member whose value only
// differs in whitespace is kept; a member that moved is not reported
// (Claude Code reads the object by name).
func memberFindings(in, out jsontext.Value, skip []string) []finding {
	err := hooktest.CheckPreserved(in, out, skip...)
	if err == nil {
		return nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var fs []finding
	for _, e := range errs {
		var me *hooktest.MemberError
		if !errors.As(e, &me) {
			fs = append(fs, finding{Kind: kindRejected, Detail: "updatedInput unreadable", Message: e.Error()})
			continue
		}
		f := finding{Pointer: "/tool_input" + me.Pointer, Detail: me.Problem, Message: "/tool_input" + e.Error()}
		switch me.Problem {
		case hooktest.ProblemLost:
			f.Kind = kindLost
		case hooktest.ProblemMoved:
			continue
		default:
			if bytes.Equal(compact(me.In), compact(me.Out)) {
				continue // only whitespace inside the value differs
			}
			f.Kind = kindMangled
		}
		fs = append(fs, f)
	}
	return fs
}
