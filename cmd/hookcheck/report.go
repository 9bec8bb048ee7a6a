package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// report is what hookcheck found; -json writes it as it is.
type report struct {
	// Command is the hook command that was checked.
	Command []string `json:"command"`
	// Agent is the agent whose payloads were sent and whose reading of
	// the answers was judged: "Claude Code", or "Codex" with -agent codex.
	Agent string `json:"agent"`
	// Passed is true when no run has a finding.
	Passed bool `json:"passed"`
	// Runs counts every run; Controls the runs of fixtures as they are;
	// Tricky the runs with a tricky value in a tool_input member; Names
	// the runs with members of unusual names added to a tool_input.
	Runs     int `json:"runs"`
	Controls int `json:"controls"`
	Tricky   int `json:"tricky"`
	Names    int `json:"names"`
	// Failed counts the runs with findings.
	Failed   int `json:"failed"`
	Parallel int `json:"parallel"`
	// Limit says how long a run may take: -timeout, or Claude Code's
	// default timeout of each event sent.
	Limit string `json:"limit"`
	// Skipped counts the runs not made because a run timed out: the
	// first timeout ends the check, since each run to come could take the
	// whole limit.
	Skipped int `json:"skipped,omitzero"`
	// Given lists the payloads built from -tool and -input, the author's
	// own call, which every check runs, with their runs.
	Given []givenPayload `json:"given,omitempty"`
	// Answered counts the runs in which the hook printed something or
	// exited with a code other than 0, Silent the others; Updated the
	// answers with an updatedInput, Blocked the blocks and denials.
	Answered int `json:"answered"`
	Updated  int `json:"updated"`
	Blocked  int `json:"blocked"`
	Silent   int `json:"silent"`
	// FailedOpen counts the runs after which the agent goes on with the
	// call as if there were no hook: a run that did not start, timed out
	// or was killed, an exit code other than 0 and 2, an answer the agent
	// cannot read or rejects. FailedOpenRuns shows the first few, with how
	// each ended. Not every one is a finding (a hook may exit 1 on a
	// number where it wants a string), but each is a call it did not
	// guard.
	FailedOpen     int       `json:"failed_open"`
	FailedOpenRuns []example `json:"failed_open_runs,omitempty"`
	// Vacuous, when set, says that the hook answered no run, so that the
	// check tested nothing, and how to point it at the hook's tools; the
	// check then fails.
	Vacuous string `json:"vacuous,omitempty"`
	// Strict is -strict. StrictRuns counts the runs on tricky values
	// Claude Code never sends that have findings: failures with -strict,
	// otherwise only reported (StrictGroups).
	Strict       bool    `json:"strict"`
	StrictRuns   int     `json:"strict_runs"`
	StrictGroups []group `json:"strict_groups,omitempty"`
	// NoOpRuns counts the answers whose updatedInput (updatedToolOutput
	// for PostToolUse) holds the value it replaces, as Claude Code reads
	// it: counted as no update, and a note, since Claude Code applies the
	// rewrites of parallel hooks last-wins and such an answer can undo
	// another hook's real one. NoOps shows the first few.
	NoOpRuns int      `json:"no_op_runs"`
	NoOps    []string `json:"no_ops,omitempty"`
	// NoteRuns counts the runs with notes: a member respelled (the same
	// value for the agent, other bytes), or an exit-2 reason that ends
	// like a crash; Notes shows the first few.
	NoteRuns int       `json:"note_runs"`
	Notes    []example `json:"notes,omitempty"`
	// WallMS is the time of the whole check, MedianMS and MaxMS the
	// median and the largest time of one run, Slowest the run that took
	// MaxMS.
	WallMS   float64 `json:"wall_ms"`
	MedianMS float64 `json:"median_ms"`
	MaxMS    float64 `json:"max_ms"`
	Slowest  string  `json:"slowest"`
	// Constant lists the members the hook sets to one value whatever the
	// model sent: each run that changed one is reported (the model's
	// value is lost), unless -changed names it (Declared).
	Constant []constantMember `json:"constant,omitempty"`
	// Kinds counts the runs with findings of each kind, in report order.
	Kinds []kindCount `json:"kinds,omitempty"`
	// Groups counts the findings by kind, pointer and detail, in report
	// order.
	Groups []group `json:"groups,omitempty"`
	// Cases holds every run; the ones with findings carry their stdin,
	// stdout and stderr.
	Cases []caseReport `json:"cases"`
}

// givenPayload is a payload built from -tool and -input, and how its
// runs went.
type givenPayload struct {
	Fixture string `json:"fixture"`
	Event   string `json:"event"`
	Runs    int    `json:"runs"`
	Failed  int    `json:"failed"`
}

// constantMember is a member the hook sets to one value in one fixture.
type constantMember struct {
	Fixture string `json:"fixture"`
	Pointer string `json:"pointer"`
	// Value is the value every answer gave it; Inputs counts the
	// different values the model's side held.
	Value  string `json:"value"`
	Inputs int    `json:"inputs"`
	// Declared is true when -changed names the member: the hook's own.
	Declared bool `json:"declared"`
}

// kindCount is the number of runs with findings of one kind.
type kindCount struct {
	Kind  string `json:"kind"`
	Label string `json:"label"`
	Runs  int    `json:"runs"`
}

// group is the findings of one kind, pointer and detail across runs.
type group struct {
	Kind    string `json:"kind"`
	Pointer string `json:"pointer,omitempty"`
	Detail  string `json:"detail,omitempty"`
	// Runs counts the runs with such a finding; Examples shows the first
	// few.
	Runs     int       `json:"runs"`
	Examples []example `json:"examples"`
}

// example is one finding of a group, and the run it comes from.
type example struct {
	Case    string `json:"case"`
	Message string `json:"message"`
}

// examples is how many examples a group keeps.
const examples = 3

// caseReport is one run in the report.
type caseReport struct {
	Name    string `json:"name"`
	Fixture string `json:"fixture"`
	Event   string `json:"event"`
	// Pointer and Value say which member holds which tricky value; both
	// are empty for a control run.
	Pointer  string    `json:"pointer,omitempty"`
	Value    string    `json:"value,omitempty"`
	ExitCode int       `json:"exit_code"`
	TimeMS   float64   `json:"time_ms"`
	TimedOut bool      `json:"timed_out,omitzero"`
	Findings []finding `json:"findings,omitempty"`
	// Strict holds the findings of a run on a tricky value Claude Code
	// never sends, without -strict; Notes the members it respelled.
	Strict []finding `json:"strict,omitempty"`
	Notes  []finding `json:"notes,omitempty"`
	Stdin  string    `json:"stdin,omitempty"`
	Stdout string    `json:"stdout,omitempty"`
	Stderr string    `json:"stderr,omitempty"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// newReport sums up the analysed outcomes.
func newReport(cfg *config, outs []*outcome, consts map[*payload][]verdict.Constant, wall time.Duration) *report {
	r := &report{Command: cfg.command, Agent: cfg.agent(), Runs: len(outs), Parallel: cfg.parallel, Limit: limitText(cfg, outs), WallMS: ms(wall), Strict: cfg.strict}
	given := map[*payload]int{} // index in r.Given
	times := make([]time.Duration, len(outs))
	groups := map[[3]string]*group{}
	strictGroups := map[[3]string]int{}
	kindRuns := map[string]int{}
	var counts verdict.Counts
	for i, o := range outs {
		times[i] = o.res.elapsed
		open := o.failsOpen(cfg.codex)
		if rec := o.res.rec; rec != nil {
			n := counts.NoOps
			counts.Add(rec.Code, len(bytes.TrimSpace(rec.Stdout)) > 0, o.update(), rec.PermissionDecision == hook.Deny, open)
			if counts.NoOps > n && len(r.NoOps) < examples {
				r.NoOps = append(r.NoOps, o.c.name())
			}
		} else if open {
			counts.FailedOpen++
		}
		if open && len(r.FailedOpenRuns) < examples {
			r.FailedOpenRuns = append(r.FailedOpenRuns, example{Case: o.c.name(), Message: o.endedHow()})
		}
		switch {
		case o.c.names:
			r.Names++
		case o.c.field < 0:
			r.Controls++
		default:
			r.Tricky++
		}
		cr := caseReport{
			Name:     o.c.name(),
			Fixture:  o.c.p.name,
			Event:    o.c.p.event,
			Pointer:  o.c.pointer(),
			Value:    o.c.value.Name,
			ExitCode: o.res.code(),
			TimeMS:   ms(o.res.elapsed),
			TimedOut: o.res.timedOut,
			Findings: o.findings,
			Strict:   o.strict,
			Notes:    o.notes,
		}
		if len(o.findings) > 0 || len(o.strict) > 0 {
			cr.Stdin = string(o.c.payload) + "\n"
			if o.res.rec != nil {
				cr.Stdout, cr.Stderr = cut(o.res.rec.Stdout, o.res.stdoutLen), cut(o.res.rec.Stderr, o.res.stderrLen)
			}
		}
		if len(o.findings) > 0 {
			r.Failed++
		}
		if p := o.c.p; p.given {
			i, ok := given[p]
			if !ok {
				i = len(r.Given)
				given[p] = i
				r.Given = append(r.Given, givenPayload{Fixture: p.name, Event: p.event})
			}
			r.Given[i].Runs++
			if len(o.findings) > 0 {
				r.Given[i].Failed++
			}
		}
		if len(o.strict) > 0 {
			r.StrictRuns++
			addGroups(strictGroups, &r.StrictGroups, cr.Name, o.strict)
		}
		if len(o.notes) > 0 {
			r.NoteRuns++
			if len(r.Notes) < examples {
				r.Notes = append(r.Notes, example{Case: cr.Name, Message: o.notes[0].Message})
			}
		}
		r.Cases = append(r.Cases, cr)
		counted := map[[3]string]bool{}
		kinds := map[string]bool{}
		for _, f := range o.findings {
			kinds[f.Kind] = true
			k := [3]string{f.Kind, f.Pointer, f.Detail}
			g := groups[k]
			if g == nil {
				g = &group{Kind: f.Kind, Pointer: f.Pointer, Detail: f.Detail}
				groups[k] = g
			}
			if !counted[k] {
				counted[k] = true
				g.Runs++
				if len(g.Examples) < examples {
					g.Examples = append(g.Examples, example{Case: cr.Name, Message: f.Message})
				}
			}
		}
		for k := range kinds {
			kindRuns[k]++
		}
	}
	r.Answered, r.Updated, r.Blocked, r.Silent, r.NoOpRuns, r.FailedOpen = counts.Answered, counts.Updated, counts.Blocked, counts.Silent, counts.NoOps, counts.FailedOpen
	if r.Answered == 0 {
		r.Vacuous = vacuous(r, cfg, outs)
	}
	r.Passed = r.Failed == 0 && r.Vacuous == ""
	for _, ko := range kindOrder {
		if n := kindRuns[ko.kind]; n > 0 {
			r.Kinds = append(r.Kinds, kindCount{Kind: ko.kind, Label: ko.label, Runs: n})
		}
	}
	median, max, at := medianMax(times)
	r.MedianMS, r.MaxMS = ms(median), ms(max)
	if at >= 0 {
		r.Slowest = outs[at].c.name()
	}
	// Groups in kind order, then in order of first appearance.
	for _, ko := range kindOrder {
		for _, o := range outs {
			for _, f := range o.findings {
				k := [3]string{f.Kind, f.Pointer, f.Detail}
				if g := groups[k]; g != nil && f.Kind == ko.kind {
					r.Groups = append(r.Groups, *g)
					delete(groups, k)
				}
			}
		}
	}
	seen := map[*payload]bool{}
	for _, o := range outs {
		if p := o.c.p; !seen[p] {
			seen[p] = true
			for _, k := range consts[p] {
				where, declared := "/tool_input/", slices.Contains(cfg.changed, k.Name)
				if p.output {
					where = "/tool_response/"
					declared = slices.ContainsFunc(cfg.changedOutput, func(s string) bool { return verdict.OutputPointer(s) == "/"+rawjson.PointerToken(k.Name) })
				}
				r.Constant = append(r.Constant, constantMember{Fixture: p.name, Pointer: where + rawjson.PointerToken(k.Name),
					Value: clip(string(k.Value), 80), Inputs: k.Inputs, Declared: declared})
			}
		}
	}
	return r
}

// limitText says how long a run may take: the -timeout given, or the
// agent's default timeouts of the events of outs, the most common first.
func limitText(cfg *config, outs []*outcome) string {
	if cfg.timeout > 0 {
		return seconds(cfg.timeout) + " each (-timeout)"
	}
	var others []string
	usual := false
	for _, o := range outs {
		ev := o.c.p.event
		if d := cfg.limitOf(ev); d == defaultHookTimeout {
			usual = true
		} else if s := ev + " " + seconds(d); !slices.Contains(others, s) {
			others = append(others, s)
		}
	}
	var parts []string
	if usual {
		parts = append(parts, seconds(defaultHookTimeout))
	}
	parts = append(parts, others...)
	return cfg.agent() + "'s default timeouts: " + strings.Join(parts, ", ")
}

// addGroups adds the findings fs of the run called name to the groups by
// kind, pointer and detail (index holds their places in order), in order
// of first appearance.
func addGroups(index map[[3]string]int, order *[]group, name string, fs []finding) {
	counted := map[[3]string]bool{}
	for _, f := range fs {
		k := [3]string{f.Kind, f.Pointer, f.Detail}
		i, ok := index[k]
		if !ok {
			i = len(*order)
			index[k] = i
			*order = append(*order, group{Kind: f.Kind, Pointer: f.Pointer, Detail: f.Detail})
		}
		g := &(*order)[i]
		if !counted[k] {
			counted[k] = true
			g.Runs++
			if len(g.Examples) < examples {
				g.Examples = append(g.Examples, example{Case: name, Message: f.Message})
			}
		}
	}
}

// vacuous explains a check in which the hook answered nothing, and says
// what points hookcheck at what the hook answers, for the events it sent:
// -tool and -input for a tool's PreToolUse and PermissionRequest calls,
// -fixtures for the payloads of other events (a Stop, a prompt, a tool's
// output), which no flag builds.
func vacuous(r *report, cfg *config, outs []*outcome) string {
	var tools, events []string // tools called; events sent without a tool_input hookcheck can fill
	for _, o := range outs {
		p := o.c.p
		switch {
		case (takesUpdatedInput(p.event) || p.output) && p.tool != "":
			if !slices.Contains(tools, p.tool) {
				tools = append(tools, p.tool)
			}
		case !slices.Contains(events, p.event):
			events = append(events, p.event)
		}
	}
	var sent []string
	if len(tools) > 0 {
		sent = append(sent, "calls of "+few(tools))
	}
	if len(events) > 0 {
		sent = append(sent, "payloads of "+few(events))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the hook answered none of the %d runs (exit 0 and nothing on stdout every time), so nothing was checked; hookcheck sent %s.", r.Runs, strings.Join(sent, " and "))
	if len(cfg.events) == 0 {
		settings := "settings.json"
		if cfg.codex {
			settings = "hooks.json"
		}
		fmt.Fprintf(&b, " Give -event and -matcher as in its %s, so that hookcheck sends what %s runs the hook on.", settings, cfg.agent())
	}
	if len(tools) > 0 {
		switch outputs, inputs := slices.ContainsFunc(outs, func(o *outcome) bool { return o.c.p.output }), slices.ContainsFunc(outs, func(o *outcome) bool { return takesUpdatedInput(o.c.p.event) }); {
		case outputs && !inputs:
			b.WriteString(" For a tool the hook handles: -tool NAME -input '{...its tool_input...}' -response '...its tool_response...' sends a PostToolUse payload of a call of it with that result.")
		case outputs:
			b.WriteString(" For a tool the hook handles: -tool NAME -input '{...its tool_input...}' sends PreToolUse (and, with -event, PermissionRequest) calls of it; with -response '...its tool_response...', a PostToolUse payload of the call too.")
		default:
			b.WriteString(" For a tool the hook handles: -tool NAME -input '{...its tool_input...}' sends PreToolUse (and, with -event, PermissionRequest) calls of it.")
		}
	}
	if len(events) == 0 {
		return b.String()
	}
	where := "-fixtures DIR"
	if cfg.fixturesDir != "" {
		where = "-fixtures " + cfg.fixturesDir
	}
	fmt.Fprintf(&b, " For %s: put payloads the hook answers under %s (one JSON object a file, as %s sends them, e.g. recorded with a hook that saves its stdin)", few(events), where, cfg.agent())
	var wants []string
	for _, ev := range events {
		if w, ok := payloadHints[ev]; ok {
			wants = append(wants, w)
		}
	}
	if len(wants) > 0 {
		b.WriteString(": " + strings.Join(wants, "; "))
	}
	b.WriteString(".")
	return b.String()
}

// payloadHints say what a payload of an event must hold for a hook to
// answer it, for the events whose hooks answer only some payloads.
var payloadHints = map[string]string{
	hook.EventStop:               "a Stop payload with the last_assistant_message (and stop_hook_active) the hook acts on",
	hook.EventSubagentStop:       "a SubagentStop payload with the agent_type and last_assistant_message the hook acts on",
	hook.EventUserPromptSubmit:   "a UserPromptSubmit payload with the prompt the hook acts on",
	hook.EventPostToolUse:        "a PostToolUse payload with the tool_name, tool_input and tool_response of a call the hook acts on",
	hook.EventPostToolUseFailure: "a PostToolUseFailure payload with the tool_name, tool_input and error of a failed call the hook acts on",
}

// few lists at most eight names, and counts the rest.
func few(names []string) string {
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + fmt.Sprintf(" and %d more", len(names)-8)
	}
	return strings.Join(names, ", ")
}

// cut returns what was kept of a stream, and how much more there was.
func cut(b []byte, n int) string {
	if n > len(b) {
		return string(b) + fmt.Sprintf("\n… %d more bytes not kept", n-len(b))
	}
	return string(b)
}

// writeJSON writes the report as one indented JSON object. Invalid UTF-8
// in the hook's output is written as U+FFFD.
func writeJSON(w io.Writer, r *report) error {
	return json.MarshalWrite(w, r, jsonopts.Indented())
}

// shown is how much of a stdin, stdout or stderr the text report prints.
const shown = 4000

// writeText writes the report for people: what ran, how long it took,
// the findings grouped, and the first failing run in full.
func writeText(w io.Writer, r *report) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "hookcheck: %s\n", strings.Join(r.Command, " "))
	names := ""
	if r.Names > 0 {
		names = fmt.Sprintf(", %d with members of unusual names added", r.Names)
	}
	fmt.Fprintf(b, "  %d runs: %d fixtures as they are, %d with a tricky value in a tool_input member or a tool_response place%s; %d at a time, %s in all\n",
		r.Runs, r.Controls, r.Tricky, names, r.Parallel, fmtMS(r.WallMS))
	fmt.Fprintf(b, "  answers: %d answered (%d rewrites: updatedInput or an updated tool output; %d blocked or denied; %d failed open), %d silent\n", r.Answered, r.Updated, r.Blocked, r.FailedOpen, r.Silent)
	if r.FailedOpen > 0 {
		fmt.Fprintf(b, "  failed open: %d runs after which %s goes on with the call as if there were no hook, e.g.\n", r.FailedOpen, r.Agent)
		for _, e := range r.FailedOpenRuns {
			fmt.Fprintf(b, "    %s: %s\n", e.Case, e.Message)
		}
	}
	fmt.Fprintf(b, "  time per run: median %s, max %s (%s); limit: %s\n", fmtMS(r.MedianMS), fmtMS(r.MaxMS), r.Slowest, r.Limit)
	for _, g := range r.Given {
		fmt.Fprintf(b, "  your call (-tool, -input): %s, %d runs, %d with findings\n", g.Fixture, g.Runs, g.Failed)
	}
	if r.Skipped > 0 {
		fmt.Fprintf(b, "  stopped at the first timeout: %d runs not made (each could take the whole limit)\n", r.Skipped)
	}
	for _, declared := range []bool{false, true} {
		var lines []string
		for _, c := range r.Constant {
			if c.Declared == declared {
				lines = append(lines, fmt.Sprintf("    %s %s = %s (%d different values in)\n", c.Fixture, c.Pointer, c.Value, c.Inputs))
			}
		}
		if len(lines) == 0 {
			continue
		}
		if declared {
			fmt.Fprintf(b, "  set to one value whatever the model sent, declared with -changed (not reported):\n")
		} else {
			fmt.Fprintf(b, "  set to one value whatever the model sent, the model's value lost (reported; -changed NAME if the member is the hook's own):\n")
		}
		fmt.Fprint(b, strings.Join(lines, ""))
	}
	if r.NoOpRuns > 0 {
		fmt.Fprintf(b, "\n  notes: %d answers rewrote the input to itself (an updatedInput or updatedToolOutput that holds the value it replaces), counted as no update;\n"+
			"  %s applies the rewrites of hooks that run in parallel last-wins, so such an answer can undo another hook's real rewrite:\n"+
			"  answer without one when nothing changes. E.g.\n", r.NoOpRuns, r.Agent)
		for _, n := range r.NoOps {
			fmt.Fprintf(b, "        %s\n", n)
		}
	}
	if r.NoteRuns > 0 {
		fmt.Fprintf(b, "\n  notes: %d runs have notes (a member respelled: the same value for %s, other bytes; an exit-2 reason that ends like a crash), e.g.\n", r.NoteRuns, r.Agent)
		for _, n := range r.Notes {
			fmt.Fprintf(b, "    %s\n        %s\n", n.Message, n.Case)
		}
	}
	if r.StrictRuns > 0 && !r.Strict {
		fmt.Fprintf(b, "\n  values %s never sends (failures only with -strict): %d runs have findings\n", r.Agent, r.StrictRuns)
		writeGroups(b, r.StrictGroups, "")
	}
	if r.Vacuous != "" {
		fmt.Fprintf(b, "\nFAIL: %s\n", r.Vacuous)
		return b.Flush()
	}
	if r.Passed {
		fmt.Fprintf(b, "\nPASS: no run lost or changed a member, crashed, or gave an answer %s would reject\n", r.Agent)
		return b.Flush()
	}
	fmt.Fprintf(b, "\nFAIL: %d of %d runs have findings\n", r.Failed, r.Runs)
	for _, k := range r.Kinds {
		fmt.Fprintf(b, "\n  %s: %d runs\n", k.Label, k.Runs)
		writeGroups(b, r.Groups, k.Kind)
	}
	for _, c := range r.Cases {
		if len(c.Findings) == 0 {
			continue
		}
		fmt.Fprintf(b, "\nFirst failing run: %s\n", c.Name)
		for _, f := range c.Findings {
			fmt.Fprintf(b, "  %s\n", f.Message)
		}
		fmt.Fprintf(b, "  exit code %d after %s", c.ExitCode, fmtMS(c.TimeMS))
		if c.TimedOut {
			fmt.Fprintf(b, " (timed out)")
		}
		fmt.Fprintln(b)
		block(b, "stdin", c.Stdin)
		block(b, "stdout", c.Stdout)
		block(b, "stderr", c.Stderr)
		break
	}
	fmt.Fprintf(b, "\n(-json lists every run with its findings, stdin, stdout and stderr)\n")
	return b.Flush()
}

// writeGroups writes the groups of kind (of every kind when kind is ""):
// each message once, then the runs that show it.
func writeGroups(w io.Writer, groups []group, kind string) {
	for _, g := range groups {
		if kind != "" && g.Kind != kind {
			continue
		}
		last := ""
		for _, e := range g.Examples {
			if e.Message != last {
				fmt.Fprintf(w, "    %s\n", clip(e.Message, 4000))
				last = e.Message
			}
			fmt.Fprintf(w, "        %s\n", e.Case)
		}
		if more := g.Runs - len(g.Examples); more > 0 {
			fmt.Fprintf(w, "        … and %d more runs\n", more)
		}
	}
}

// block writes one of a run's streams, indented, cut after shown bytes.
func block(w io.Writer, name, s string) {
	if s == "" {
		fmt.Fprintf(w, "  %s: (empty)\n", name)
		return
	}
	more := ""
	if len(s) > shown {
		more = fmt.Sprintf("    … %d more bytes\n", len(s)-shown)
		s = s[:shown]
	}
	fmt.Fprintf(w, "  %s:\n", name)
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", l)
	}
	fmt.Fprint(w, more)
}

// fmtMS prints milliseconds the way time.Duration does, to the
// millisecond.
func fmtMS(v float64) string {
	return (time.Duration(v*1000) * time.Microsecond).Round(timeRound).String()
}
