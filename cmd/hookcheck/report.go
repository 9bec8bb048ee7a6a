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
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// report is what hookcheck found; -json writes it as it is.
type report struct {
	// Command is the hook command that was checked.
	Command []string `json:"command"`
	// Passed is true when no run has a finding.
	Passed bool `json:"passed"`
	// Runs counts every run; Controls the runs of fixtures as they are;
	// Tricky the runs with a tricky value in a tool_input member.
	Runs     int `json:"runs"`
	Controls int `json:"controls"`
	Tricky   int `json:"tricky"`
	// Failed counts the runs with findings.
	Failed   int `json:"failed"`
	Parallel int `json:"parallel"`
	// Answered counts the runs in which the hook printed something or
	// exited with a code other than 0, Silent the others; Updated the
	// answers with an updatedInput, Blocked the blocks and denials.
	Answered int `json:"answered"`
	Updated  int `json:"updated"`
	Blocked  int `json:"blocked"`
	Silent   int `json:"silent"`
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
	// NoteRuns counts the runs that respelled a member: the same value
	// for Claude Code, other bytes; Notes shows the first few.
	NoteRuns int       `json:"note_runs"`
	Notes    []example `json:"notes,omitempty"`
	// WallMS is the time of the whole check, MedianMS and MaxMS the
	// median and the largest time of one run, Slowest the run that took
	// MaxMS.
	WallMS   float64 `json:"wall_ms"`
	MedianMS float64 `json:"median_ms"`
	MaxMS    float64 `json:"max_ms"`
	Slowest  string  `json:"slowest"`
	// Owned lists the members taken as the hook's own: its answer gives
	// them one value whatever their input.
	Owned []ownedMember `json:"owned,omitempty"`
	// Kinds counts the runs with findings of each kind, in report order.
	Kinds []kindCount `json:"kinds,omitempty"`
	// Groups counts the findings by kind, pointer and detail, in report
	// order.
	Groups []group `json:"groups,omitempty"`
	// Cases holds every run; the ones with findings carry their stdin,
	// stdout and stderr.
	Cases []caseReport `json:"cases"`
}

// ownedMember is a member the hook owns in one fixture.
type ownedMember struct {
	Fixture string `json:"fixture"`
	Pointer string `json:"pointer"`
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
func newReport(cfg *config, outs []*outcome, owned map[*payload][]string, wall time.Duration) *report {
	r := &report{Command: cfg.command, Runs: len(outs), Parallel: cfg.parallel, WallMS: ms(wall), Strict: cfg.strict}
	times := make([]time.Duration, len(outs))
	groups := map[[3]string]*group{}
	strictGroups := map[[3]string]int{}
	kindRuns := map[string]int{}
	var counts verdict.Counts
	var tools []string
	for i, o := range outs {
		times[i] = o.res.elapsed
		if rec := o.res.rec; rec != nil {
			counts.Add(rec.Code, len(bytes.TrimSpace(rec.Stdout)) > 0, rec.UpdatedInput != nil, rec.PermissionDecision == hook.Deny)
		}
		if t := o.c.p.tool; t != "" && !slices.Contains(tools, t) {
			tools = append(tools, t)
		}
		if o.c.field < 0 {
			r.Controls++
		} else {
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
	r.Answered, r.Updated, r.Blocked, r.Silent = counts.Answered, counts.Updated, counts.Blocked, counts.Silent
	if r.Answered == 0 {
		r.Vacuous = vacuous(r, tools)
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
			for _, k := range owned[p] {
				r.Owned = append(r.Owned, ownedMember{Fixture: p.name, Pointer: "/tool_input/" + rawjson.PointerToken(k)})
			}
		}
	}
	return r
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

// vacuous explains a check in which the hook answered nothing.
func vacuous(r *report, tools []string) string {
	sent := "payloads without a tool"
	if len(tools) > 0 {
		shown, more := tools, ""
		if len(shown) > 8 {
			shown, more = shown[:8], fmt.Sprintf(" and %d more", len(tools)-8)
		}
		sent = "calls of " + strings.Join(shown, ", ") + more
	}
	return fmt.Sprintf("the hook answered none of the %d runs (exit 0 and nothing on stdout every time), so nothing was checked; hookcheck sent %s. "+
		"Point it at the tools the hook handles: -tool NAME -input '{...its tool_input...}', with -matcher and -event as in its settings.json", r.Runs, sent)
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
	return json.MarshalWrite(w, r, jsontext.AllowInvalidUTF8(true), jsontext.Multiline(true), jsontext.WithIndent("  "))
}

// shown is how much of a stdin, stdout or stderr the text report prints.
const shown = 4000

// writeText writes the report for people: what ran, how long it took,
// the findings grouped, and the first failing run in full.
func writeText(w io.Writer, r *report) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "hookcheck: %s\n", strings.Join(r.Command, " "))
	fmt.Fprintf(b, "  %d runs: %d fixtures as they are, %d with a tricky value in a tool_input member; %d at a time, %s in all\n",
		r.Runs, r.Controls, r.Tricky, r.Parallel, fmtMS(r.WallMS))
	fmt.Fprintf(b, "  answers: %d answered (%d with updatedInput, %d blocked or denied), %d silent\n", r.Answered, r.Updated, r.Blocked, r.Silent)
	fmt.Fprintf(b, "  time per run: median %s, max %s (%s)\n", fmtMS(r.MedianMS), fmtMS(r.MaxMS), r.Slowest)
	if len(r.Owned) > 0 {
		fmt.Fprintf(b, "  taken as the hook's own (one answer for every input, not reported):\n")
		for _, o := range r.Owned {
			fmt.Fprintf(b, "    %s %s\n", o.Fixture, o.Pointer)
		}
	}
	if r.NoteRuns > 0 {
		fmt.Fprintf(b, "\n  notes: %d runs respelled a member (the same value for Claude Code, other bytes), e.g.\n", r.NoteRuns)
		for _, n := range r.Notes {
			fmt.Fprintf(b, "    %s\n        %s\n", n.Message, n.Case)
		}
	}
	if r.StrictRuns > 0 && !r.Strict {
		fmt.Fprintf(b, "\n  values Claude Code never sends (failures only with -strict): %d runs have findings\n", r.StrictRuns)
		writeGroups(b, r.StrictGroups, "")
	}
	if r.Vacuous != "" {
		fmt.Fprintf(b, "\nFAIL: %s\n", r.Vacuous)
		return b.Flush()
	}
	if r.Passed {
		fmt.Fprintf(b, "\nPASS: no run lost or changed a member, crashed, or gave an answer Claude Code would reject\n")
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
