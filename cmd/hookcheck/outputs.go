package main

import (
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// outputFindings compares the tool_response sent with the
// updatedToolOutput (or updatedMCPToolOutput) the hook answered, as the
// agent reads both, at every depth (verdict.CompareOutput): a lost member
// or array element, or a changed one, is a finding, except at the places
// changed names (-changed-output: member names or JSON pointers, which
// must still be there) — one of consts, which the hook sets to one value
// whatever the tool returned, says so; a place respelled is a note,
// except the one that holds a tricky value the agent never sends.
func outputFindings(c *testCase, out jsontext.Value, rec *hooktest.Recorder, changed []string, consts []verdict.Constant, agent string) (fs, notes []finding) {
	field := "/updatedToolOutput"
	if _, ok := rec.HookSpecificOutput["updatedToolOutput"]; !ok {
		field = "/updatedMCPToolOutput"
	}
	ptrs := make([]string, len(changed))
	for i, s := range changed {
		ptrs[i] = verdict.OutputPointer(s)
	}
	held := c.pointer()
	for _, d := range verdict.CompareOutput(c.toolResponse, out, ptrs, nil) {
		ptr := "/tool_response" + d.Pointer
		me := &hooktest.MemberError{Pointer: ptr, In: d.In, Out: d.Out}
		f := finding{Pointer: ptr}
		var note bool
		if me.Problem, f.Kind, note = sortDiff(c, d.Problem, ptr, held); note {
			in, o := verdict.Excerpts(d.In, d.Out, 80)
			notes = append(notes, finding{Kind: "respelled", Pointer: ptr, Detail: me.Problem,
				Message: fmt.Sprintf("%s: %s from %s to %s in the answer's %s (the same value for %s: a note)", ptr, me.Problem, in, o, field[1:], agent)})
			continue
		}
		f.Detail = me.Problem
		f.Message = fmt.Sprintf("%s: %s in the answer's %s (%s)", ptr, detailOf(me), field[1:], hooktest.RuleKeepOutput)
		name := topMember(d.Pointer)
		related := c.field >= 0 && (verdict.Within(ptr, held) || verdict.Within(held, ptr))
		if k, ok := verdict.FindConstant(consts, name); ok && d.Problem == verdict.Changed && d.Pointer == "/"+rawjson.PointerToken(name) {
			f.Detail = "member set to one value"
			f.Message += fmt.Sprintf("; the hook sets it to %s whatever the tool returned (%d different values in, one out), so the tool's value is lost; if the member is the hook's own, give -changed-output %s", clip(string(k.Value), 80), k.Inputs, name)
		} else if d.Problem == verdict.Changed && !related {
			f.Message += fmt.Sprintf("; if the hook changes it on purpose, give -changed-output '%s'", d.Pointer)
		}
		fs = append(fs, f)
	}
	return fs, notes
}

// detailOf is the problem of me with its values, as MemberError says it
// without its rule.
func detailOf(me *hooktest.MemberError) string {
	switch me.Problem {
	case hooktest.ProblemChanged, hooktest.ProblemRespelled:
		in, out := verdict.Excerpts(me.In, me.Out, 80)
		return fmt.Sprintf("%s from %s to %s", me.Problem, in, out)
	}
	return me.Problem
}

// codexOutputRule checks the rewrite of a tool's result in a PostToolUse
// answer against Codex's rule (agent.CheckCodexToolOutput): Codex has no
// updatedToolOutput, and applies updatedMCPToolOutput to MCP tools only.
func codexOutputRule(c *testCase, rec *hooktest.Recorder) error {
	if c.p.event != hook.EventPostToolUse || rec == nil {
		return nil
	}
	present := func(k string) bool {
		v, ok := rec.HookSpecificOutput[k]
		return ok && string(v) != "null"
	}
	return agent.CheckCodexToolOutput(c.p.tool, present("updatedToolOutput"), present("updatedMCPToolOutput"))
}

// focusOutput adds to kept and read the places of a PostToolUse payload's
// result, as focus does for tool_input members: kept, those the control
// run's rewrite (upd) holds unchanged; read, those it lost (with a member
// or element around them).
func focusOutput(p *payload, resp, upd []byte, kept, read []slot) ([]slot, []slot) {
	ds := verdict.CompareOutput(resp, upd, nil, nil)
	for i, f := range p.fields {
		lost, touched := false, false
		for _, d := range ds {
			if verdict.Within(f.Key, d.Pointer) || verdict.Within(d.Pointer, f.Key) {
				touched = true
				lost = lost || d.Problem == verdict.Lost
			}
		}
		switch {
		case lost:
			read = append(read, slot{p, i})
		case !touched:
			kept = append(kept, slot{p, i})
		}
	}
	return kept, read
}
